/**
 * What a valid request may carry besides its body, credentials and media type, and still be the
 * same valid request: headers such as Accept and Accept-Encoding, a query string. A conforming
 * target answers it like any valid request (rule 1). Each extra is listed once here: the random
 * phase draws from the list and the coverage phase sends each one.
 */
import fc from 'fast-check';

export interface RequestExtras {
  /** Lower-case names; null takes a default header away. */
  readonly headers: Readonly<Record<string, string | null>>;
  /** Without `?`. */
  readonly query?: string;
  /** What is special, for people (`Accept: application/xml`); empty for none. */
  readonly note: string;
  /** Set when the contract lets a target refuse a request with this extra: the reason (see RequestCase.lenient). */
  readonly lenient?: string;
}

export const NO_EXTRAS: RequestExtras = { headers: {}, note: '' };

/**
 * The query is part of what identifies the resource (RFC 3986, section 3.4), and the contract
 * declares no query parameters for POST /plants without forbidding any: a server may take
 * /plants?… for another resource, as an OpenAPI validator that refuses unknown parameters does.
 */
const QUERY_REASON = 'the contract declares no query parameters and forbids none, and the query is part of the resource identifier (RFC 3986, section 3.4): a server may refuse unknown ones';

/**
 * Every extra, each a variant of a valid request the coverage phase sends once:
 * - Accept as clients send it (RFC 9110, section 12.5.1): none at all (any media type is then
 *   acceptable), curl's `*\/*`, a media range, weighted alternatives, a browser's default. Each
 *   accepts application/json, so each must get the 200 a valid request gets: an undeclared 406 is
 *   a failure;
 * - Accept-Encoding (RFC 9110, section 12.5.3): `identity` alone, or written with `*;q=0`,
 *   accepts no content coding, so the answer must come without one (`content-coding`); the
 *   common `gzip, deflate, br` lets the server compress (the engine decodes it);
 * - harmless query strings (a cache buster, tracking parameters): a refusal is only a warning.
 */
export const REQUEST_EXTRAS: readonly RequestExtras[] = [
  { headers: { accept: null }, note: 'no Accept header' },
  { headers: { accept: '*/*' }, note: 'Accept: */*' },
  { headers: { accept: 'application/*' }, note: 'Accept: application/*' },
  { headers: { accept: 'application/json;q=0.9, */*;q=0.1' }, note: 'Accept: application/json;q=0.9, */*;q=0.1' },
  { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }, note: "Accept: a browser's default (text/html,…,*/*;q=0.8)" },
  { headers: { 'accept-encoding': 'identity' }, note: 'Accept-Encoding: identity' },
  { headers: { 'accept-encoding': 'identity;q=1, *;q=0' }, note: 'Accept-Encoding: identity;q=1, *;q=0' },
  { headers: { 'accept-encoding': 'gzip, deflate, br' }, note: 'Accept-Encoding: gzip, deflate, br' },
  { headers: {}, query: '_=1718000000000', note: 'a cache-busting query string ?_=1718000000000', lenient: QUERY_REASON },
  { headers: {}, query: 'utm_source=plant-store&utm_medium=conform', note: 'tracking parameters ?utm_source=…&utm_medium=…', lenient: QUERY_REASON },
];

export function extrasArbitrary(): fc.Arbitrary<RequestExtras> {
  if (REQUEST_EXTRAS.length === 0) return fc.constant(NO_EXTRAS);
  return fc.oneof({ withCrossShrink: true }, { weight: 4, arbitrary: fc.constant(NO_EXTRAS) }, { weight: 1, arbitrary: fc.constantFrom(...REQUEST_EXTRAS) });
}
