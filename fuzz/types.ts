/**
 * The vocabulary of the conformance engine: requests it generates, what came back, and the
 * findings its checks report. Plain data, so that checks stay pure functions and reports
 * serialise as they are.
 */

/**
 * What the target is expected to be. `reference`: a real implementation, held to every check.
 * `mock`: a mock of the contract (Prism) - it cannot store plants, so no `echo`, and it accepts any
 * well-formed bearer token, so no "wrong token" requests are sent.
 */
export type Profile = 'reference' | 'mock';

/**
 * How bad a finding is. A `failure` breaks the contract, an RFC the contract relies on, or HTTP
 * itself: the run fails (exit 1). A `warning` is a hazard the contract allows: it is printed and
 * reported, and fails the run only under `--strict`.
 */
export type Severity = 'failure' | 'warning';

/**
 * How a request carries its credentials (RFC 6750). `malformed` credentials (an empty or
 * ill-formed token, a header with no scheme) may be answered 400 as well as 401: RFC 6750,
 * section 3.1 gives such an `invalid_request` status 400.
 */
export type Credentials = 'valid' | 'missing' | 'other-scheme' | 'wrong-token' | 'malformed';

/**
 * Whether what the request carries - its body and the media type it is labelled with - is a
 * valid request body for the operation. An `invalid` request has exactly one thing wrong with it
 * (a schema violation, malformed JSON, a media type the operation does not declare), so the
 * expected answer is never ambiguous.
 */
export type Content = 'valid' | 'invalid';

/** The phases of a run, in order: see runner.ts. */
export type Phase = 'coverage' | 'random' | 'capacity';
export const PHASES: readonly Phase[] = ['coverage', 'random', 'capacity'];

/** One HTTP request as it goes on the wire. Header names are lower case. */
export interface HttpRequest {
  readonly method: string;
  /** The operation's path, with a query string where the request has one (no base path). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Field lines sent after `headers`, each a line of its own even where `headers` has the same
   * name: a second Authorization field (RFC 9110, section 5.3). Lower-case names. A client sends
   * them through `headerLines` (header-lines.ts).
   */
  readonly extraLines?: readonly (readonly [name: string, value: string])[];
  /** The body, byte for byte: the generators write JSON text themselves (ids digit for digit, any spelling). */
  readonly body: Uint8Array;
}

/**
 * A generated request with what it is. What a conforming target must answer follows from
 * `content` and `credentials` (see the checks): a valid request with valid credentials gets the
 * declared success (rule 1); an invalid one with valid credentials a declared 4xx; a valid one
 * with bad credentials a 401 with a challenge; both wrong at once, a 401 or a declared 4xx.
 */
export interface RequestCase extends HttpRequest {
  /** The request kind that made it (see kinds/index.ts), e.g. `valid`, `malformed-json`. */
  readonly kind: string;
  /** What is special about it, for people: `id is 2^63 (outside int64)`, `Authorization: Basic …`. */
  readonly variant: string;
  readonly content: Content;
  readonly credentials: Credentials;
  /**
   * Set where the contract and the RFCs leave the answer open: the reason. On a valid request (a
   * lone surrogate in a string, RFC 8259 section 8.2) a refusal or a changed echo is then a
   * warning, not a failure; on an invalid one (invalid UTF-8 inside a string, which RFC 8259,
   * section 9 lets a parser accept) so is a success. A 5xx is a failure all the same.
   */
  readonly lenient?: string;
  /**
   * Requests sent first, in order, on their own (all valid): e.g. the same id posted before with
   * another name, so that a repeated id is tested without depending on what else the run sent.
   */
  readonly setup: readonly RequestCase[];
  /**
   * Text in the request's headers or path made from the token (the token minus its last
   * character, upper-cased, base64-encoded...), which reports hide as they hide the token.
   */
  readonly derived?: DerivedSecret;
}

/** Text made from the token: shown to people as a placeholder, written in commands as a shell expression of `$TOKEN`. */
export interface DerivedSecret {
  /** As it is sent: in a header value (one character a byte) or in the path. */
  readonly text: string;
  /** For people: `<token minus its last character>`. */
  readonly placeholder: string;
  /** A POSIX shell expression that gives `text` from `$TOKEN`, e.g. `${TOKEN%?}`. */
  readonly shell: string;
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
      /** The body as the checks read it (after any content coding was decoded). */
      readonly body: Uint8Array;
      /** From the first byte of the request sent to the last byte of the response received. */
      readonly durationMs: number;
    }
  | {
      readonly kind: 'failure';
      readonly failure: TransportFailure;
      readonly message: string;
      readonly durationMs: number;
    };

/** What a check reports: one way an exchange (or a run) broke the contract, or a hazard. */
export interface Finding {
  /** The check's name (see checks/index.ts). */
  readonly check: string;
  readonly severity: Severity;
  readonly message: string;
}

export interface CheckOptions {
  readonly profile?: Profile;
}
