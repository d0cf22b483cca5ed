/**
 * The vocabulary of the conformance engine: requests it generates, what came back, and the
 * violations its checks find. Plain data, so that checks stay pure functions and reports
 * serialise as they are.
 */

/** The seven named checks of docs/conform.md, in the order reports list them. */
export const CHECK_NAMES = ['response-shape', 'status-declared', 'accepts-valid', 'rejects-invalid', 'requires-auth', 'no-server-error', 'echo'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * What the target is expected to be. `reference`: a real implementation, held to every check.
 * `mock`: a mock of the contract (Prism) - it cannot store plants, so no `echo`, and it accepts any
 * well-formed bearer token, so no "wrong token" requests are sent.
 */
export type Profile = 'reference' | 'mock';

/**
 * What a generated request is, so that a check knows what to expect. Every request that is not
 * `valid` has exactly one thing wrong with it, so the expected answer is never ambiguous.
 * - `valid`: a NewPlant that validates against the contract, valid credentials, a valid media type.
 * - `invalid-body`: well-formed JSON that breaks the request schema (a field missing or of the wrong
 *   type, null, an integer out of its format's range, a body that is not an object).
 * - `malformed-json`: a body that is not JSON at all (RFC 8259).
 * - `bad-media-type`: a valid NewPlant sent with a media type the operation does not declare.
 * - `bad-auth`: a valid NewPlant with missing or wrong credentials.
 */
export type CaseLabel = 'valid' | 'invalid-body' | 'malformed-json' | 'bad-media-type' | 'bad-auth';
export const CASE_LABELS: readonly CaseLabel[] = ['valid', 'invalid-body', 'malformed-json', 'bad-media-type', 'bad-auth'];

/**
 * How a request carries its credentials (RFC 6750). `malformed` credentials (an empty or
 * ill-formed token, a header with no scheme) may be answered 400 as well as 401: RFC 6750,
 * section 3.1 gives such an `invalid_request` status 400.
 */
export type Credentials = 'valid' | 'missing' | 'other-scheme' | 'wrong-token' | 'malformed';

/** One HTTP request as it goes on the wire. Header names are lower case. */
export interface HttpRequest {
  readonly method: string;
  /** The operation's path (no base path, no query string). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, byte for byte: the generators write JSON text themselves (ids digit for digit, any spelling). */
  readonly body: Uint8Array;
}

/** A generated request with what it is. */
export interface RequestCase extends HttpRequest {
  readonly label: CaseLabel;
  /** What is special about it, for people: `id is 2^63 (outside int64)`, `Authorization: Basic …`. */
  readonly variant: string;
  readonly credentials: Credentials;
  /**
   * Requests sent first, in order, on their own (all `valid`): e.g. the same id posted before with
   * another name, so that a repeated id is tested without depending on what else the run sent.
   */
  readonly setup: readonly RequestCase[];
}

/** Why no HTTP response came back. */
export type TransportFailure = 'timeout' | 'reset' | 'malformed-response' | 'oversized-response' | 'connection-refused' | 'error';

/** What came back for one request: a response, or a failure of the exchange. */
export type HttpOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** Lower-case names; repeated headers joined with `, `. */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: Uint8Array;
      readonly durationMs: number;
    }
  | {
      readonly kind: 'failure';
      readonly failure: TransportFailure;
      readonly message: string;
      readonly durationMs: number;
    };

/** One way a response broke the contract. */
export interface Violation {
  readonly check: CheckName;
  readonly message: string;
}

export interface CheckOptions {
  readonly profile?: Profile;
}
