/**
 * A request and its answer without a socket: what the pipeline reads and what it gives back,
 * the same for tests that call a server directly and for the socket layer (listen.ts).
 */
import { errorBodyText, type ErrorCode, type PlantStoreError } from './errors.js';

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
  /**
   * A fault the socket layer commits instead of writing this answer as it is (the mock's
   * `Prefer: fault=…`, outside the contract by design); without a socket it is only data.
   */
  readonly fault?: Fault;
}

/**
 * A broken answer, on request only (listen.ts commits it): `reset` - the connection is reset (a
 * TCP RST); `timeout` - no answer at all, until the client gives up or the server stops;
 * `garbage` - bytes that are not HTTP, then the connection closes; `truncated` - the head and
 * half of the body, then the connection closes.
 */
export type Fault = 'reset' | 'timeout' | 'garbage' | 'truncated';

export const FAULTS: readonly Fault[] = ['reset', 'timeout', 'garbage', 'truncated'];

/** How an answer goes out: held back (simulated latency) and perhaps broken (a fault). */
export interface Delivery {
  readonly delayMs: number;
  readonly fault?: Fault | undefined;
}

/**
 * What the pipeline made of a request: every rule accepted it (and the answer answered it);
 * a rule refused it (`rule` names the rule: `route`, `credentials`, `media-type`, …, or the
 * answer's own, `prefer` for the mock); it was a CORS preflight, granted; or a defect of the kit
 * answered it with a 500.
 */
export type Verdict =
  | { readonly outcome: 'accepted' }
  | { readonly outcome: 'refused'; readonly rule: string; readonly status: number; readonly code: ErrorCode; readonly message: string }
  | { readonly outcome: 'preflight' }
  | { readonly outcome: 'defect'; readonly status: number; readonly message: string };

/** One finding of a conformance check on an exchange, as a journal keeps it (the engine's `Finding`). */
export interface JournalFinding {
  /** The check's name (`echo`, `status-declared`, …: docs/conform.md). */
  readonly check: string;
  /** `failure` breaks the contract; `warning` is a hazard the contract allows. */
  readonly severity: 'failure' | 'warning';
  readonly message: string;
}

/**
 * What the checking proxy (proxy/) made of an exchange: the upstream's answer judged by the
 * conformance engine's checks - `passed` (no finding), `warned` (warnings only), `violated` (some
 * failure) - or `not-judged` (the upstream could not be reached, or answered in a coding the proxy
 * cannot undo; `reason` says which).
 */
export interface ProxyVerdict {
  readonly outcome: 'passed' | 'warned' | 'violated' | 'not-judged';
  /** Every finding, in the order the checks reported them; empty when passed or not judged. */
  readonly findings: readonly JournalFinding[];
  /** The checks that judged the exchange (those that apply to it); empty when not judged. */
  readonly judgedBy: readonly string[];
  /** Why the exchange was not judged (present only then). */
  readonly reason?: string;
  /**
   * The upstream's failure when it gave no answer (`timeout`, `reset`, `connection-refused`,
   * `malformed-response`, `oversized-response`, `error`): the entry's answer is then the proxy's own Error.
   */
  readonly failure?: string;
  /** The status the client got instead of the upstream's answer (present only then): a 502 Error with `errors`. */
  readonly answered?: number;
}

/** A verdict as a request journal keeps it: the pipeline's (the kit's servers) or the checking proxy's; `outcome` tells them apart. */
export type JournalVerdict = Verdict | ProxyVerdict;

/** An answer as an observer sees it: the pipeline's, or any other server's (bytes allowed). */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: HeaderLookup;
  readonly body: string | Uint8Array;
  readonly fault?: Fault | undefined;
}

/**
 * One request and its answer, as the pipeline tells its observer (`onExchange`) once the answer
 * is ready - after any delay, before the socket layer writes it (or commits its fault). Credentials
 * are as the client sent them: an observer that keeps exchanges masks them (journal.ts does).
 */
export interface ServedExchange<V extends JournalVerdict = Verdict> {
  readonly request: RequestHead;
  /** The body as the server read it; undefined when it was not read (the request was refused on its head). */
  readonly body: Uint8Array | string | undefined;
  /** The body's whole length when `body` holds only its first bytes (the proxy keeps at most 1 MiB of a body it forwards). */
  readonly bodyBytes?: number | undefined;
  readonly verdict: V;
  readonly response: ExchangeResponse;
  /** How long the answer was held back (simulated latency). */
  readonly delayMs: number;
  /** From the head of the request to the answer, the delay included. */
  readonly durationMs: number;
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
