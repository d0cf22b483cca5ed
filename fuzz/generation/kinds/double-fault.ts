/**
 * `double-fault`: a request wrong twice - a broken body (a schema violation, malformed JSON, a
 * media type the operation does not declare) and no valid credentials (none, a wrong token,
 * another scheme, malformed). The contract allows a 401 or a declared 4xx there, never a 2xx
 * (`requires-auth`); a declared 4xx other than 401 means the target read and judged the body of
 * a request it had not authenticated: a warning (`credentials-first`).
 *
 * The broken bodies are the body kinds' own (invalid-body, malformed-json, bad-media-type), made
 * with bad credentials in place of good ones; the credentials are the credential table's `refuse`
 * rows the RFCs decide (a lenient row's open question has no answer when the body is wrong too).
 * What the body kinds let a parser accept (`lenient`) is dropped: with bad credentials a 2xx is
 * wrong whatever the body.
 */
import fc from 'fast-check';
import type { Credentials, RequestCase } from '../../../oracle/index.js';
import { badMediaType } from './bad-media-type.js';
import type { KindContext } from '../tables/context.js';
import type { AuthSpelling } from '../tables/credential-spellings.js';
import { credentialSpellings } from '../tables/credential-spellings.js';
import { invalidBody } from './invalid-body.js';
import { schemeAttacks } from '../tables/scheme-credentials.js';
import { requestKind, type RequestKind } from './kind.js';
import { malformedJson } from './malformed-json.js';

/** The kinds whose requests have a broken body and good credentials. */
const BODY_KINDS: readonly RequestKind[] = [invalidBody, malformedJson, badMediaType];

/** The credentials of the coverage phase's double faults: the first row of each kind of bad credentials. */
const COVERED: readonly Credentials[] = ['missing', 'wrong-token', 'other-scheme', 'malformed'];

/** The refuse rows a double fault may carry. */
function badSpellings(context: KindContext): AuthSpelling[] {
  const { scheme } = context;
  if (scheme === undefined) return schemeAttacks(context.plan, context.profile);
  return credentialSpellings('refuse', scheme, context.token, context.profile).filter((auth) => auth.lenient === undefined);
}

/** The context with `auth` in place of every good spelling: the body kinds then make their requests with it. */
function withAuth(context: KindContext, auth: AuthSpelling | fc.Arbitrary<AuthSpelling>): KindContext {
  const arbitrary = auth instanceof fc.Arbitrary ? auth : fc.constant(auth);
  const fixed = auth instanceof fc.Arbitrary ? context.validAuth : auth;
  return { ...context, validAuth: fixed, goodAuth: arbitrary, acceptedAuth: [] };
}

/** The request as a double fault: named for its body and its credentials, with nothing left open. */
function relabelled(request: RequestCase, spellings: readonly AuthSpelling[]): RequestCase {
  const query = request.path.split('?')[1];
  const auth = spellings.find((s) => s.header === request.headers.authorization && s.query === query && (s.moreHeaders ?? []).length === (request.extraLines ?? []).length);
  // Tagged with what its credentials are (the map's rows on challenges name them), besides its body's tags.
  const relabelled = { ...request, kind: 'double-fault', variant: `${request.variant}; ${auth?.shown ?? `${request.credentials} credentials`}`, tags: [...(request.tags ?? []), `double-fault:${request.credentials}`] };
  Reflect.deleteProperty(relabelled, 'lenient');
  return relabelled;
}

export const doubleFault = requestKind({
  name: 'double-fault',
  description: 'a broken body (a schema violation, malformed JSON, a wrong media type) without valid credentials (none, a wrong token, another scheme, malformed): 401 or a declared 4xx, never a 2xx',
  weight: 4,
  random: (context) => {
    const spellings = badSpellings(context);
    if (spellings.length === 0) return undefined;
    const bad = withAuth(context, fc.constantFrom(...spellings));
    const choices = BODY_KINDS.flatMap((kind) => {
      const arbitrary = kind.random(bad);
      return arbitrary === undefined || kind.weight <= 0 ? [] : [{ weight: kind.weight, arbitrary }];
    });
    return choices.length === 0 ? undefined : fc.oneof(...choices).map((request) => relabelled(request, spellings));
  },
  coverage: (context) => {
    const spellings = badSpellings(context);
    return COVERED.flatMap((credentials, j) => {
      const auth = spellings.find((s) => s.credentials === credentials);
      if (auth === undefined) return [];
      const bad = withAuth(context, auth);
      return BODY_KINDS.flatMap((kind) => {
        const broken = kind.coverage(bad).filter((c) => c.lenient === undefined);
        const chosen = broken[j % Math.max(1, broken.length)];
        // Per-scheme spellings may differ only in fields the lookup does not read: the one sent is named.
        return chosen === undefined ? [] : [relabelled(chosen, context.scheme === undefined ? [auth] : spellings)];
      });
    });
  },
});
