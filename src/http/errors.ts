/**
 * The one catalogue of errors the kit's own servers answer with. Every error has a stable code
 * (its kind) and a catalogue status; code never matches on message text. The pipeline answers
 * each in the contract's words (refusals.ts; docs/contracts.md, "Refusals in your contract's
 * words"): the status the operation declares for its kind (a 422 where it declares no 400, a 415,
 * a 413; 401, 403, 404, 405, 406 and 500 keep theirs) and a body of that response's schema with
 * the message as its reason. The catalogue status is the one answered where the operation
 * declares no fitting status. The bundled contract's Error is the kit's own shape,
 * `{ "error": <status>, "message": "<what was wrong, naming the field>" }` (docs/DESIGN.md,
 * decision 4): that of a contract without JSON error responses, and of the socket layer's and the
 * admin path's refusals, which no operation concerns.
 */
import { quoteJson } from '../openapi/portable.js';

export const ERROR_CATALOGUE = {
  unauthorized: { status: 401, scope: 'operation', about: 'missing or invalid bearer credentials (RFC 6750)' },
  insufficient_scope: { status: 403, scope: 'credentials', about: 'an accepted access token without a scope the operation requires (RFC 6750, section 3.1); never for the bundled contract' },
  unsupported_media_type: { status: 400, scope: 'operation', about: 'a media type other than application/json' },
  unsupported_encoding: { status: 400, scope: 'operation', about: 'a content coding the kit does not decode (RFC 9110, section 8.4)' },
  body_too_large: { status: 400, scope: 'operation', about: 'a body over the size limit' },
  invalid_utf8: { status: 400, scope: 'operation', about: 'a body that is not valid UTF-8 (RFC 8259, section 8.1)' },
  too_deep: { status: 400, scope: 'operation', about: 'a body nested deeper than the limit' },
  malformed_json: { status: 400, scope: 'operation', about: 'a body that is not JSON (RFC 8259)' },
  malformed_body: { status: 400, scope: 'form', about: 'a form or multipart body that cannot be read (WHATWG URL, section 5; RFC 7578 and RFC 2046, section 5.1.1); never for the bundled contract, which takes JSON only' },
  invalid_body: { status: 400, scope: 'operation', about: 'a body that does not match the request schema' },
  invalid_parameter: { status: 400, scope: 'parameter', about: 'a path, query or header parameter that does not match its schema, or a required one missing' },
  no_such_item: { status: 404, scope: 'store', about: 'an item the reference does not hold (a read, replace or delete of its item path)' },
  unsupported_preference: { status: 400, scope: 'mock', about: 'a Prefer header the mock cannot honour (RFC 7240)' },
  not_acceptable: { status: 406, scope: 'negotiation', about: 'an Accept that none of the media types an operation answers with fits (RFC 9110, section 12.5.1)' },
  not_found: { status: 404, scope: 'routing', about: 'a path the contract does not declare' },
  method_not_allowed: { status: 405, scope: 'routing', about: 'a method the contract does not declare for the path' },
  invalid_admin_query: { status: 400, scope: 'admin', about: 'a query of the admin path the kit cannot read (`?after=` a request number)' },
  malformed_request: { status: 400, scope: 'transport', about: 'bytes that are not an HTTP request' },
  request_timeout: { status: 408, scope: 'transport', about: 'a request not received in time' },
  headers_too_large: { status: 431, scope: 'transport', about: 'request headers over the limit' },
  store_unavailable: { status: 503, scope: 'unavailable', about: 'the shared store (Redis, `--store`) cannot be reached; nothing was changed by the request, and it may be sent again' },
  internal: { status: 500, scope: 'internal', about: 'a defect of the kit itself' },
} as const satisfies Record<string, { status: number; scope: 'operation' | 'form' | 'credentials' | 'parameter' | 'negotiation' | 'store' | 'routing' | 'transport' | 'internal' | 'unavailable' | 'mock' | 'admin'; about: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A refusal: the Error answer a request gets. A value that a rule returns, never an exception
 * that is thrown: half of a typical mix is refused, and constructing a JavaScript Error (even
 * without a stack trace) costs more than parsing a small body. A defect of the kit keeps the
 * exception that caused it in `cause`.
 */
export class PlantStoreError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
  /** Headers the answer must carry (WWW-Authenticate, Allow). */
  readonly headers: Readonly<Record<string, string>>;
  readonly cause: unknown;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.message = message;
    this.headers = options.headers ?? NO_HEADERS;
    this.cause = options.cause;
  }
}

/** The kit's own Error body, as JSON text: `{"error":<status>,"message":<message>}` (the bundled contract's shape). */
export function errorBodyText(status: number, message: string): string {
  return `{"error":${status},"message":${quoteJson(message)}}`;
}

/** Text cut to `max` UTF-16 units, with an ellipsis where it was cut: what a message quotes of a request. */
export function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
