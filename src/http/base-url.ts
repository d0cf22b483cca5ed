/** The target's base URL, and the full URL of a request under it. */

/** Base URLs the engine can talk to: http and https, no credentials, query or fragment. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`only http and https base URLs are supported, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new TypeError('the base URL cannot have a query string or a fragment');
  if (url.username !== '' || url.password !== '') throw new TypeError('the base URL cannot carry credentials; use --token');
  return url;
}

/** The full URL of a request: the base URL's path, then the operation's path and query string. */
export function urlFor(baseUrl: URL, path: string): URL {
  const url = new URL(baseUrl.href);
  const mark = path.indexOf('?');
  url.pathname = url.pathname.replace(/\/+$/, '') + (mark === -1 ? path : path.slice(0, mark));
  if (mark !== -1) url.search = path.slice(mark);
  return url;
}

/** Paths kept per base URL by `originForm`, and base URLs kept: a run sends a few paths thousands of times each. */
const PATHS_KEPT = 1024;
const BASES_KEPT = 16;
const originForms = new Map<string, Map<string, string>>();

/**
 * A request's target in origin-form (RFC 9112, section 3.2.1): `urlFor`'s path and query string,
 * made once per base URL and path instead of a URL parsed for every request.
 */
export function originForm(baseUrl: URL, path: string): string {
  let known = originForms.get(baseUrl.href);
  if (known === undefined) {
    if (originForms.size >= BASES_KEPT) originForms.clear();
    known = new Map();
    originForms.set(baseUrl.href, known);
  }
  let target = known.get(path);
  if (target === undefined) {
    const url = urlFor(baseUrl, path);
    target = `${url.pathname}${url.search}`;
    if (known.size >= PATHS_KEPT) known.clear();
    known.set(path, target);
  }
  return target;
}
