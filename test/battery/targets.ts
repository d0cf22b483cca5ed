/**
 * The targets the battery runs against, and the mock's freedoms, stated once for every case (and
 * for the differential test's generated requests).
 *
 * The reference answers each case as the battery states. The mock runs the same request rules,
 * so it refuses what the reference refuses, with the same Errors; it differs only where it may:
 * - any well-formed bearer token is accepted (RFC 6750 section 2.1), so a token the reference does
 *   not know gets what the accepted token would get - the case states it (`mock`), since the
 *   request alone does not tell it;
 * - a 200 is an example of openapi.yaml (or generated data, with --dynamic), not the plant sent;
 * - nothing is stored, so nothing of the store is checked;
 * - `Prefer` (and Prism's `__code`-style query parameters) chooses the answer: a case that sends
 *   one states the mock's answer (`mock`);
 * - CORS: a preflight (OPTIONS with Origin and Access-Control-Request-Method, Fetch standard
 *   section 3.2) is granted with 204 and the origin, method and headers asked for; every other
 *   answer may carry CORS headers beside the ones stated.
 */
import type { Expected } from '../support/expect-answer.js';
import type { BatteryCase, BatteryRequest } from './battery.js';

export type Target = 'reference' | 'mock';

export type Freedom = 'any-token' | 'prefer' | 'cors-preflight';

/** The preferences Prism reads from a query when there is no Prefer header. */
const PRISM_QUERY_PREFERENCES = ['__code', '__example', '__dynamic'];

/**
 * credentials = auth-scheme 1*SP token68 (RFC 9110 section 11.4), the scheme case-insensitive
 * (section 11.1), the token a b64token (RFC 6750 section 2.1). Written here from the RFCs rather
 * than taken from src/http, so that the tests do not share a mistake with the servers.
 */
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

type RequestLike = Pick<BatteryRequest, 'method' | 'path'> & { readonly headers: Readonly<Record<string, string | undefined>> };

/** The freedom of the mock that applies to a request, if one does. `accepted` is the reference's token. */
export function freedomOf(request: RequestLike, accepted: string): Freedom | undefined {
  const { headers } = request;
  if (request.method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined) return 'cors-preflight';
  const query = new URLSearchParams(request.path.split('?')[1] ?? '');
  if (headers.prefer !== undefined || PRISM_QUERY_PREFERENCES.some((name) => query.has(name))) return 'prefer';
  const token = BEARER_CREDENTIALS.exec((headers.authorization ?? '').trim())?.[1];
  if (token !== undefined && token !== accepted) return 'any-token';
  return undefined;
}

/** Whether the mock's answer to a request under this freedom has to be stated by the case. */
export const stated = (freedom: Freedom | undefined): boolean => freedom === 'any-token' || freedom === 'prefer';

/** The answer a target must give to a case. */
export function expectationFor(c: BatteryCase, target: Target, accepted: string): Expected {
  if (target === 'reference') return c.expect;
  const freedom = freedomOf(c.request, accepted);
  if (freedom === 'cors-preflight') {
    const { origin = '', 'access-control-request-method': method = '', 'access-control-request-headers': asked } = c.request.headers;
    return {
      status: 204,
      preflight: true,
      headers: { 'access-control-allow-origin': origin, 'access-control-allow-methods': method, ...(asked === undefined ? {} : { 'access-control-allow-headers': asked }) },
    };
  }
  if (stated(freedom) && c.mock === undefined) throw new Error(`${c.name}: the mock's ${String(freedom)} freedom applies; state its answer with \`mock\``);
  const expected = c.mock ?? c.expect;
  // Prism answers a valid request from the contract's examples, not with the plant sent.
  return 'plant' in expected ? { status: 200, example: true } : expected;
}
