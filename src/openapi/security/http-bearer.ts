/**
 * HTTP bearer (RFC 6750): `Authorization: Bearer <b64token>`. The scheme word is case-insensitive
 * (RFC 9110, section 11.1); a missing header or another scheme is a challenge without an error
 * code (RFC 6750, section 3.1), an empty, malformed or unaccepted token one with `invalid_token`.
 * OAuth 2 and OpenID Connect (oauth2.ts, openid-connect.ts) read their access tokens the same way.
 */
import { CREDENTIAL_ACCEPTED, REALM, refused, type CredentialRefusal, type SecuritySchemeType } from './scheme.js';

/** RFC 6750, section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const CHALLENGE = `Bearer ${REALM}`;
export const AUTHORIZATION = Object.freeze({ in: 'header', name: 'authorization' } as const);
const TOKEN_RULE = 'a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =';

export function isWellFormedToken(token: string): boolean {
  return B64TOKEN.test(token);
}

/** The b64token of an Authorization header's Bearer credentials, or why there is none to accept. */
export function bearerTokenOf(authorization: string | undefined): string | CredentialRefusal {
  // Only SP and HTAB surround a field value (RFC 9110, section 5.5): trim() would also take away a
  // U+00A0 (a byte 0xA0), which is no whitespace in HTTP, and accept `Bearer <token><U+00A0>`.
  const value = authorization === undefined ? '' : withoutSurroundingBlanks(authorization);
  if (value === '') return refused('absent', 'authorization: missing bearer credentials');
  // The common spelling, `Bearer <b64token>`, reads the same as the general path below without
  // a capturing match: a b64token holds no whitespace, so the scheme and separator are exactly these.
  if (value.startsWith('Bearer ')) {
    const token = value.slice(7);
    if (B64TOKEN.test(token)) return token;
  }
  // The scheme ends at the first whitespace of any kind, so a message naming it never repeats a token.
  const [, scheme = '', separator = '', token = ''] = /^(\S+)(\s*)(.*)$/s.exec(value) ?? [];
  if (scheme.toLowerCase() !== 'bearer') return refused('absent', `authorization: the ${scheme.length > 20 ? `${scheme.slice(0, 20)}…` : scheme} scheme is not accepted; use Bearer`);
  if (token === '') return refused('malformed', 'authorization: empty bearer token');
  // credentials = auth-scheme [ 1*SP token68 ] (RFC 9110, section 11.4): spaces only.
  if (/[^ ]/.test(separator)) return refused('malformed', 'authorization: malformed bearer credentials; separate Bearer and the token with a space');
  if (!B64TOKEN.test(token)) return refused('malformed', 'authorization: malformed bearer token (RFC 6750 b64token)');
  return token;
}

export const NOT_ACCEPTED = refused('rejected', 'authorization: bearer token not accepted');

/** RFC 6750, section 3: no error code when the request carried no bearer credentials at all. */
export function bearerChallenge(refusal: CredentialRefusal): string {
  return refusal.outcome === 'absent' ? CHALLENGE : `${CHALLENGE}, error="invalid_token"`;
}

/** A bearer token as the user gives it: a b64token. */
export function givenBearerToken(text: string): { credential: string } | string {
  return B64TOKEN.test(text) ? { credential: text } : TOKEN_RULE;
}

export const httpBearer: SecuritySchemeType = {
  name: 'http bearer',
  // The scheme's name is case-insensitive (RFC 9110, section 11.1), in the contract as on the wire.
  serves: (scheme) => scheme.type === 'http' && typeof scheme.scheme === 'string' && scheme.scheme.toLowerCase() === 'bearer',
  credentialIn: () => AUTHORIZATION,
  // RFC 6750, section 2.1: the Authorization request header field with the Bearer scheme.
  write: (token) => `Bearer ${token}`,
  judge: (authorization, accept) => {
    const token = bearerTokenOf(authorization);
    if (typeof token !== 'string') return token;
    return accept(token) ? CREDENTIAL_ACCEPTED : NOT_ACCEPTED;
  },
  challenge: bearerChallenge,
  given: givenBearerToken,
};

/** A field value without the SP and HTAB around it; most have none, and are given back without a regular expression. */
function withoutSurroundingBlanks(value: string): string {
  return isBlank(value.charCodeAt(0)) || isBlank(value.charCodeAt(value.length - 1)) ? value.replace(/^[ \t]+|[ \t]+$/g, '') : value;
}

function isBlank(code: number): boolean {
  return code === 0x20 /* SP */ || code === 0x09 /* HTAB */;
}
