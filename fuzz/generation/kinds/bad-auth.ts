/**
 * `bad-auth`: a valid NewPlant with credentials a server must refuse: every `refuse` row of the
 * credential table (credentials.ts), each built from the user's token - no credentials, other
 * schemes, near misses of the token, more than one token, whitespace and look-alikes, two fields,
 * a token in the query - and, in the random phase, wrong tokens drawn at random. Under the mock
 * profile only what is no well-formed bearer token is sent: a mock accepts any.
 */
import fc from 'fast-check';
import { codePointsOf } from '../../../oracle/index.js';
import type { KindContext } from '../tables/context.js';
import type { AuthSpelling } from '../tables/credential-spellings.js';
import { credentialSpellings } from '../tables/credential-spellings.js';
import { alternativeSpellings, schemeAttacks } from '../tables/scheme-credentials.js';
import { requestKind } from './kind.js';
import { placeOf, sharedEntries } from '../tables/shares.js';

const B64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/** Every bad spelling of credentials built from the token, for the operation's scheme and the profile. */
export function badCredentials(scheme: string, token: string, profile: KindContext['profile']): AuthSpelling[] {
  return credentialSpellings('refuse', scheme, token, profile);
}

/**
 * The credentials of an operation planned per scheme (an API key, HTTP basic, OAuth 2, several at
 * once, alternatives): each scheme's attacks in its own place, then each other alternative on its
 * own, valid (scheme-credentials.ts). None for the bearer-only operations, which the rows above cover.
 */
export function schemeCredentials(context: Pick<KindContext, 'plan' | 'profile'>): AuthSpelling[] {
  return [...schemeAttacks(context.plan, context.profile), ...alternativeSpellings(context.plan)];
}

/**
 * The bad credentials a run's coverage sends over all of its operations, shared out
 * (tables/shares.ts): the kit's example contracts send every row on every operation
 * (garden-journal.yaml, 420 over 12 operations); a contract of 170 operations sent 6,106. Each
 * operation keeps one row of every kind of bad credentials (none, a wrong token, another scheme,
 * malformed, a row the RFCs leave open, each scheme's attacks): `requires-auth` sees each there.
 */
export const BAD_CREDENTIALS_PER_RUN = 600;

/** The coverage's bad credentials for the operation (its share of them), each with its place in `spellings`: the number of its plain body or parameters. */
export function coveredCredentials(context: Pick<KindContext, 'contract' | 'operation'>, spellings: readonly AuthSpelling[]): { auth: AuthSpelling; n: number }[] {
  const place = placeOf(context.contract, context.operation, 'secured', () => true);
  const classOf = ({ auth }: { auth: AuthSpelling }): string => [auth.credentials, auth.lenient === undefined ? '' : 'open', auth.attacked ?? ''].join(' ');
  return [...sharedEntries(spellings.map((auth, n) => ({ auth, n })), classOf, place, BAD_CREDENTIALS_PER_RUN)];
}

function randomWrongToken(scheme: string, token: string): fc.Arbitrary<AuthSpelling> {
  return fc
    .string({ unit: fc.constantFrom(...codePointsOf(B64_CHARS)), minLength: 1, maxLength: 32 })
    .filter((t) => t !== token)
    .map((t) => ({ header: `${scheme} ${t}`, credentials: 'wrong-token' as const, shown: `Authorization: ${scheme} ${t}` }));
}

/** The tag of what the credentials are (`credentials:missing`, `credentials:wrong-token`): the map's rows on challenges name them. */
function credentialsTag(spelling: AuthSpelling): string {
  return `credentials:${spelling.credentials}`;
}

export const badAuth = requestKind({
  name: 'bad-auth',
  description: 'a valid NewPlant with credentials a server must refuse, each built from the token: none, other schemes, near misses of the token, lists, whitespace and look-alikes, two fields, the query (the credential table); wrong tokens at random',
  weight: 14,
  random: (context) => {
    const { scheme } = context;
    const perScheme = schemeCredentials(context);
    if (scheme === undefined && perScheme.length > 0) {
      return fc
        .record({ model: context.body, mediaType: context.mediaType, auth: fc.constantFrom(...perScheme) })
        .map(({ model, mediaType, auth: spelling }) => context.make({ kind: 'bad-auth', variant: spelling.shown, content: 'valid', auth: spelling, contentType: mediaType, body: context.text(model), tags: [credentialsTag(spelling)] }));
    }
    if (scheme === undefined) return undefined;
    const fixed = fc.constantFrom(...badCredentials(scheme, context.token, context.profile));
    const auth = context.profile === 'mock' ? fixed : fc.oneof({ weight: 3, arbitrary: fixed }, { weight: 1, arbitrary: randomWrongToken(scheme, context.token) });
    return fc
      .record({ model: context.body, layout: context.layout, mediaType: context.mediaType, auth })
      .map(({ model, layout, mediaType, auth: spelling }) => context.make({ kind: 'bad-auth', variant: spelling.shown, content: 'valid', auth: spelling, contentType: mediaType, body: context.text(model, layout), tags: [credentialsTag(spelling)] }));
  },
  coverage: (context) => {
    const { scheme } = context;
    const spellings = scheme === undefined ? schemeCredentials(context) : badCredentials(scheme, context.token, context.profile);
    return coveredCredentials(context, spellings).map(({ auth, n }) => context.make({ kind: 'bad-auth', variant: auth.shown, content: 'valid', auth, contentType: context.jsonTypes[0], body: context.text(context.plainBody(n)), tags: [credentialsTag(auth)] }));
  },
});
