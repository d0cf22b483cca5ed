/**
 * A request and its answer without a socket: what the pipeline reads and what it gives back,
 * the same for tests that call a server directly and for the socket layer (listen.ts).
 */
import { errorBodyText, type PlantStoreError } from './errors.js';

/** Request headers as node:http gives them: lower-case names, repeated ones as arrays. */
export type HeaderLookup = Readonly<Record<string, string | readonly string[] | undefined>>;

export function headerValue(headers: HeaderLookup, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * What the pipeline reads of a request before its body: node's IncomingMessage is one as it is
 * (no copy per request), which is why method and url may be missing.
 */
export interface RequestHead {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  /** Lower-case names, as node:http gives them. */
  readonly headers: HeaderLookup;
}

/** A whole request, for a server called without a socket. */
export interface AppRequest extends RequestHead {
  readonly method: string;
  readonly url: string;
  readonly body?: Uint8Array | string;
}

export interface AppResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The catalogue code of an Error answer, for logs and tests. */
  readonly code?: string;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** A refusal as the Error answer: its status, its headers (WWW-Authenticate, Allow) and the Error body. */
export function errorResponse(error: PlantStoreError): AppResponse {
  return { status: error.status, headers: hasAny(error.headers) ? { ...JSON_HEADERS, ...error.headers } : JSON_HEADERS, body: errorBodyText(error.status, error.message), code: error.code };
}

function hasAny(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (Object.hasOwn(headers, name)) return true;
  return false;
}
