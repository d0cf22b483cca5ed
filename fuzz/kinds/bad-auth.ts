/**
 * `bad-auth`: a valid NewPlant with missing, malformed or wrong credentials (RFC 6750). Under the
 * mock profile no wrong tokens are sent: a mock accepts any well-formed one.
 */
import fc from 'fast-check';
import { codePointsOf } from '../json-text.js';
import type { AuthSpelling, KindContext } from './context.js';
import { requestKind } from './kind.js';

/** RFC 6750, section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const B64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/** Every bad spelling of credentials that does not depend on chance, for the operation's scheme and the token. */
export function badCredentials(scheme: string, token: string, profile: KindContext['profile']): AuthSpelling[] {
  const spellings: AuthSpelling[] = [
    { header: undefined, credentials: 'missing', shown: 'no Authorization header' },
    { header: `Basic ${Buffer.from('plant:secret').toString('base64')}`, credentials: 'other-scheme', shown: 'Authorization: Basic (plant:secret)' },
    { header: `Token ${token}`, credentials: 'other-scheme', shown: 'Authorization: Token <token>' },
    { header: `OAuth ${token}`, credentials: 'other-scheme', shown: 'Authorization: OAuth <token>' },
    { header: `Digest username="plant"`, credentials: 'other-scheme', shown: 'Authorization: Digest username="plant"' },
    { header: scheme, credentials: 'malformed', shown: `Authorization: ${scheme} (no token)` },
    { header: token, credentials: 'malformed', shown: 'Authorization: <token> (no scheme)' },
    { header: `${scheme} "${token}"`, credentials: 'malformed', shown: `Authorization: ${scheme} "<token>" (quoted)` },
    { header: `${scheme} ${token}!`, credentials: 'malformed', shown: `Authorization: ${scheme} <token>! (not a b64token)` },
  ];
  // A mock accepts any well-formed token: a wrong one is not wrong there.
  if (profile === 'mock') return spellings;
  const suffixed = `${token}x`;
  return [
    ...spellings,
    // Comparisons by prefix (startsWith) and by containment.
    { header: `${scheme} ${suffixed}`, credentials: B64TOKEN.test(suffixed) ? 'wrong-token' : 'malformed', shown: `Authorization: ${scheme} <token>x` },
    { header: `${scheme} x${token}`, credentials: 'wrong-token', shown: `Authorization: ${scheme} x<token>` },
  ];
}

function randomWrongToken(scheme: string, token: string): fc.Arbitrary<AuthSpelling> {
  return fc
    .string({ unit: fc.constantFrom(...codePointsOf(B64_CHARS)), minLength: 1, maxLength: 32 })
    .filter((t) => t !== token)
    .map((t) => ({ header: `${scheme} ${t}`, credentials: 'wrong-token' as const, shown: `Authorization: ${scheme} ${t}` }));
}

export const badAuth = requestKind({
  name: 'bad-auth',
  description: 'a valid NewPlant with no Authorization header, another scheme, malformed credentials or a wrong token',
  weight: 14,
  random: (context) => {
    const { scheme } = context;
    if (scheme === undefined) return undefined;
    const fixed = fc.constantFrom(...badCredentials(scheme, context.token, context.profile));
    const auth = context.profile === 'mock' ? fixed : fc.oneof({ weight: 3, arbitrary: fixed }, { weight: 1, arbitrary: randomWrongToken(scheme, context.token) });
    return fc
      .record({ model: context.body, layout: context.layout, mediaType: context.mediaType, auth })
      .map(({ model, layout, mediaType, auth: spelling }) => context.make({ kind: 'bad-auth', variant: spelling.shown, content: 'valid', auth: spelling, contentType: mediaType, body: context.text(model, layout) }));
  },
  coverage: (context) => {
    const { scheme } = context;
    if (scheme === undefined) return [];
    return badCredentials(scheme, context.token, context.profile).map((auth, n) =>
      context.make({ kind: 'bad-auth', variant: auth.shown, content: 'valid', auth, contentType: context.jsonTypes[0], body: context.text(context.plainBody(n)) }),
    );
  },
});
