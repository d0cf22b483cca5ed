/**
 * HTTP basic (RFC 7617): `Authorization: Basic <base64 of user-id ":" password>`. The scheme word
 * is case-insensitive (RFC 9110, section 11.1). The challenge names UTF-8 as the charset (RFC 7617,
 * section 2.1), and the pair is decoded as UTF-8: base64 that is not, bytes that are not UTF-8, a
 * pair without a colon or with a control character (section 2) are malformed. A credential is
 * compared as the text `user-id:password`.
 */
import { AUTHORIZATION } from './http-bearer.js';
import { CREDENTIAL_ACCEPTED, hasControl, REALM, refused, type SecuritySchemeType } from './scheme.js';

/** token68 as base64 writes it (RFC 4648, section 4): whole quanta, padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CHALLENGE = `Basic ${REALM}, charset="UTF-8"`;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NOT_ACCEPTED = refused('rejected', 'authorization: basic credentials not accepted');

/** `user-id:password` from the token68 of Basic credentials, or undefined where it is not one. */
function decodePair(token: string): string | undefined {
  if (!BASE64.test(token)) return undefined;
  // atob gives each byte as one character (a "binary string"); the bytes are then read as UTF-8.
  const binary = atob(token);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The RFC 7617 rules of a pair: a user-id without a colon, then a colon; no control characters. */
function pairProblem(pair: string): string | undefined {
  if (!pair.includes(':')) return 'no colon between the user-id and the password';
  if (hasControl(pair)) return 'a control character in the user-id or the password';
  return undefined;
}

export const httpBasic: SecuritySchemeType = {
  name: 'http basic',
  serves: (scheme) => scheme.type === 'http' && typeof scheme.scheme === 'string' && scheme.scheme.toLowerCase() === 'basic',
  credentialIn: () => AUTHORIZATION,
  write: (pair) => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`,
  judge: (authorization, accept) => {
    const value = (authorization ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
    if (value === '') return refused('absent', 'authorization: missing basic credentials');
    const [, scheme = '', separator = '', token = ''] = /^(\S+)(\s*)(.*)$/s.exec(value) ?? [];
    if (scheme.toLowerCase() !== 'basic') return refused('absent', `authorization: the ${scheme.length > 20 ? `${scheme.slice(0, 20)}…` : scheme} scheme is not accepted; use Basic`);
    if (token === '') return refused('malformed', 'authorization: empty basic credentials');
    if (/[^ ]/.test(separator)) return refused('malformed', 'authorization: malformed basic credentials; separate Basic and the credentials with a space');
    const pair = decodePair(token);
    if (pair === undefined) return refused('malformed', 'authorization: malformed basic credentials (RFC 7617: base64 of UTF-8 user-id:password)');
    const problem = pairProblem(pair);
    if (problem !== undefined) return refused('malformed', `authorization: malformed basic credentials (RFC 7617): ${problem}`);
    return accept(pair) ? CREDENTIAL_ACCEPTED : NOT_ACCEPTED;
  },
  // RFC 7617 defines no error parameter: every refusal has the same challenge.
  challenge: () => CHALLENGE,
  given: (text) => pairProblem(text) ?? { credential: text },
  // Where the user gave no pair for the scheme, the server's tokens are the password of any user.
  tokenPart: (pair) => pair.slice(pair.indexOf(':') + 1),
};
