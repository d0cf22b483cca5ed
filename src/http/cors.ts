/**
 * CORS for browsers (the Fetch standard, section 3.2 "CORS protocol",
 * https://fetch.spec.whatwg.org/#http-cors-protocol), so that a frontend served from another
 * origin can call a kit server: an option of the pipeline (`cors: true`), which the mock turns on.
 *
 * A CORS preflight is not a request for the resource: it is the browser asking whether the real
 * request may be sent. It is granted for every path and method, so that the real request reaches
 * the server and the page sees its real answer (a 404 or 405 Error included) instead of an opaque
 * network error. An OPTIONS request that is not a preflight is an ordinary request: 405 with
 * `Allow: POST`.
 */
import { headerValue, type AppResponse, type HeaderLookup } from './exchange.js';

/** How long a browser may cache a preflight answer (browsers cap it: Chromium at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Response headers a script may always read (Fetch, "CORS-safelisted response-header name"). */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** A CORS-preflight request: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(method: string, headers: HeaderLookup): boolean {
  return method === 'OPTIONS' && headerValue(headers, 'origin') !== undefined && headerValue(headers, 'access-control-request-method') !== undefined;
}

/** The answer to a preflight: 204, the origin, method and headers asked for allowed. */
export function preflightResponse(headers: HeaderLookup): AppResponse {
  const requested = headerValue(headers, 'access-control-request-headers');
  return {
    status: 204,
    headers: {
      ...originHeaders(headers),
      'access-control-allow-methods': headerValue(headers, 'access-control-request-method') ?? 'POST',
      ...(requested === undefined || requested.trim() === '' ? {} : { 'access-control-allow-headers': requested }),
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
    body: '',
  };
}

/**
 * The CORS headers of an answer to a request from a page: the page's origin is allowed, with
 * credentials, and every header of the answer a script would otherwise not see
 * (`WWW-Authenticate`, `Allow`) is exposed. Requests without `Origin` (not from a browser's
 * cross-origin fetch) get only `Vary: Origin`.
 */
export function withCors(response: AppResponse, requestHeaders: HeaderLookup): AppResponse {
  if (headerValue(requestHeaders, 'origin') === undefined) return { ...response, headers: { ...response.headers, vary: 'Origin' } };
  const exposed = Object.keys(response.headers).filter((name) => !SAFELISTED.has(name));
  return {
    ...response,
    headers: {
      ...response.headers,
      ...originHeaders(requestHeaders),
      ...(exposed.length === 0 ? {} : { 'access-control-expose-headers': exposed.join(', ') }),
    },
  };
}

/**
 * The page's own origin rather than `*`: `*` is not allowed on requests made with credentials
 * (Fetch, section 3.2.5), and a frontend may send cookies along.
 */
function originHeaders(headers: HeaderLookup): Record<string, string> {
  const origin = headerValue(headers, 'origin') ?? '*';
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}
