/**
 * The reserved admin path `/__plant-store/`: the kit's own resources beside the contract's (the
 * request journal, journal.ts). Every server of the kit that serves it - the pipeline's (the
 * reference, the mock) and the checking proxy's - routes it here, before anything else: admin
 * requests are never journaled, judged, delayed, broken or forwarded.
 */
import type { Contract } from '../openapi/index.js';
import { isPreflight, preflightResponse, withCors } from './cors.js';
import type { AppResponse, RequestHead } from './exchange.js';
import { splitTarget } from './rules.js';

/**
 * The reserved admin path: the kit's own resources beside the contract's (journal.ts serves them).
 * A contract that declares a path under it cannot be served with the admin path on.
 */
export const ADMIN_PREFIX = '/__plant-store';

/** Whether a request path is under the admin prefix (`/__plant-store` itself or below `/__plant-store/`). */
export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX) && (path.length === ADMIN_PREFIX.length || path.charCodeAt(ADMIN_PREFIX.length) === 0x2f /* / */);
}

/**
 * Throws unless the contract leaves the admin path free: derived from the contract, so that the
 * admin path can never hide one of its operations (every server that serves it asks first).
 */
export function assertAdminPathFree(contract: Contract): void {
  const hidden = contract.operations.filter((operation) => isAdminPath(operation.path));
  if (hidden.length > 0) throw new Error(`the contract declares ${hidden.map((operation) => operation.path).join(', ')} under ${ADMIN_PREFIX}/, the kit's reserved admin path; serve it with the admin path off (--no-admin)`);
}

/** Answers a request under the admin prefix (journal.ts: `adminRoutes`). */
export type AdminRoutes = (request: RequestHead, path: string, query: string) => AppResponse;

/** The admin path's answer to a request, or undefined when the request is not for the admin path. */
export type AdminRouter = (request: RequestHead) => AppResponse | undefined;

/**
 * The router a server asks first: a request under the admin prefix gets the routes' answer, any
 * other undefined. With `cors`, a preflight there is granted and every answer readable from any
 * origin (cors.ts), as the server's other answers are. Throws unless the contract leaves the admin
 * path free.
 */
export function adminRouter(contract: Contract, routes: AdminRoutes, options: { readonly cors?: boolean | undefined } = {}): AdminRouter {
  assertAdminPathFree(contract);
  const cors = options.cors ?? false;
  return (request) => {
    const url = request.url ?? '/';
    // The cheap test first: this runs before every request the server answers.
    if (!url.includes(ADMIN_PREFIX)) return undefined;
    const { path, query } = splitTarget(url);
    if (!isAdminPath(path)) return undefined;
    if (!cors) return routes(request, path, query);
    return isPreflight(request.method ?? '', request.headers) ? preflightResponse(request.headers) : withCors(routes(request, path, query), request.headers);
  };
}
