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
export type Phase = 'coverage' | 'random' | 'capacity' | 'stateful' | 'overlap';
export const PHASES: readonly Phase[] = [
  'coverage',
  'capacity',
  'random',
  'stateful',
  'overlap',
];

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
  /** How the request is framed where it is not the client's plain HTTP/1.1 (see RequestFraming); sent on a connection of its own. */
  readonly framing?: RequestFraming;
}

/**
 * A request framed in one of the other ways HTTP allows (RFC 9112), each of which a server must
 * read as it reads the plain request: the `framing` kind sends them.
 */
export interface RequestFraming {
  /** HTTP/1.0 (RFC 9112, section 2.3); `keepAlive` adds `Connection: keep-alive` (section 9.3). */
  readonly version?: '1.0';
  readonly keepAlive?: boolean;
  /** The target in absolute form, `http://host/path` (RFC 9112, section 3.2.2: a server MUST accept it). */
  readonly absoluteForm?: boolean;
  /**
   * The request target exactly as written, under the base URL's path (`*` as it is: the
   * asterisk-form, RFC 9112, section 3.2.4): spellings a URL parser would change (an empty query,
   * a fragment, a bad percent-escape, a space or a control character, RFC 9112, section 3.2; RFC
   * 3986, section 2.1). `path` stays what the oracle judges the request as.
   */
  readonly target?: string;
  /** No Host field: an HTTP/1.1 server MUST answer 400 (RFC 9112, section 3.2). */
  readonly noHost?: boolean;
  /** `Expect: 100-continue` (RFC 9110, section 10.1.1); the body follows at once, which section 10.1.1 allows. */
  readonly expectContinue?: boolean;
  /** The body in the chunked transfer coding, in two chunks (RFC 9112, section 7.1). */
  readonly chunked?: boolean;
  /** Written otherwise where RFC 9112's grammar leaves a choice, or broken where a server MUST refuse (MessageSpelling). */
  readonly spelling?: MessageSpelling;
  /**
   * Sent second on its connection: first a request with this body (else the same), kept alive and
   * not judged, so that `Connection: close` is asked on a connection that already carried one
   * (RFC 9112, section 9.6 binds every request, not only a connection's first).
   */
  readonly after?: string;
}

/** How a request is written where it is not the client's plain spelling (fuzz/wire/request-writing.ts writes it). */
export interface MessageSpelling {
  /** Empty lines (CRLF) before the request line (RFC 9112, section 2.2: a server SHOULD ignore at least one). */
  readonly emptyLinesBefore?: number;
  /** What separates the request line's three parts instead of one SP (RFC 9112, section 3). */
  readonly separator?: string;
  /** The HTTP-version as written, e.g. `HTTP/1.2` (RFC 9112, section 2.3). */
  readonly version?: string;
  /** Whitespace written before and after every field value (OWS, RFC 9112, section 5.1). */
  readonly ows?: readonly [before: string, after: string];
  /** Field lines written as they are, after the others (a space before the colon, obs-fold, a NUL...). */
  readonly fieldLines?: readonly string[];
  /**
   * Content-Length values written (a line each) instead of the body's length; with `chunked` beside
   * Transfer-Encoding. No `Connection: close` is sent: the server MUST close after its answer all
   * the same (RFC 9112, sections 6.1 and 6.3).
   */
  readonly contentLength?: readonly string[];
  /** How the chunked body is cut and its chunk-size lines written (RFC 9112, section 7.1). */
  readonly chunks?: ChunkSpelling;
  /** An Expect field of this value (RFC 9110, section 10.1.1: a server MAY answer 417 to an expectation it does not know). */
  readonly expect?: string;
  /** The request written in pieces, cut at every boundary class (inside a line, between CR and LF, head and body, a chunk's size and data). */
  readonly split?: boolean;
}

export interface ChunkSpelling {
  /** `halves`: two chunks; `bytes`: a chunk per byte. */
  readonly sizes: 'halves' | 'bytes';
  /** Leading zeros in front of each chunk-size, the last chunk's included. */
  readonly zeros?: number;
  /** Hex digits in upper case. */
  readonly upper?: boolean;
  /** A chunk-ext written after every chunk-size, e.g. `;a=1;b="c d"` (section 7.1.1: a recipient MUST ignore unrecognised ones). */
  readonly extension?: string;
  /** Trailer field lines after the last chunk (section 7.1.2). */
  readonly trailers?: readonly string[];
}

/**
 * A generated request with what it is. What a conforming target must answer follows from
 * `content` and `credentials` (see the checks): a valid request with valid credentials gets the
 * declared success (rule 1); an invalid one with valid credentials a declared 4xx; a valid one
 * with bad credentials a 401 with a challenge; both wrong at once, a 401 or a declared 4xx.
 */
export interface RequestCase extends HttpRequest {
  /** The request kind that made it (see generation/kinds/index.ts), e.g. `valid`, `malformed-json`. */
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
   * What `lenient` leaves open on a valid request. Absent: whether it is accepted and what an
   * accepted one answers (a lone surrogate may come back as U+FFFD). `refusal`: only whether it
   * is accepted - once accepted, it is answered as exactly as any request, and a changed echo
   * stays a failure (a query string, a prototype key, a spelling of credentials a server may refuse).
   * `target`: whether the server recognises the request target as the operation's - any 4xx (a
   * router's 404) is then a warning, whatever the contract declares (an absolute-form target).
   * `silence`: whether it is answered at all - a connection closed before any byte of an answer is
   * a warning too (an empty line before the request line, which Python's http.server reads as the
   * end of the connection).
   */
  readonly lenientAbout?: 'refusal' | 'target' | 'silence';
  /**
   * Set on a valid request whose meaning the contract and RFC 8259 leave open (section 4:
   * duplicate names; section 9: limits on nesting and on numbers): a declared 4xx then passes as
   * a 200 does, a 5xx never; a 200 must echo one of its `readings` (the bodies it may be read as:
   * every first member wins, or every last one), never a mix (see generation/kinds/open-texts.ts).
   */
  readonly open?: { readonly reason: string; readonly readings: readonly Uint8Array[] };
  /**
   * Set on a write sent while other writes of the same resource were in flight with it (the
   * overlap phase): their bodies. The writes are applied in some order, so a 200 may show one of
   * them (the plant as stored when it answered) instead of this one - never a mix of them.
   */
  readonly rivals?: readonly Uint8Array[];
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
  /**
   * The type of the security scheme whose credentials the request gets wrong (`apiKey`, `http
   * basic`, `oauth2`), where the engine planned it per scheme: requires-auth judges the refusal by
   * it. Absent: the operation's first scheme (HTTP bearer for the bundled contract).
   */
  readonly attacked?: string;
  /**
   * The generator table entries it was drawn from (`malformation:bad-number:NaN`,
   * `name/string-edge:nul`; see variants.ts), or the coverage probe it sends (`probe:id/integer:max+1`).
   */
  readonly tags?: readonly string[];
  /** Set on the last request of a sequence along a link (run/stateful-plan.ts): what its answer must show. */
  readonly link?: LinkStep;
  /** Placeholders in the path (and in `link.key`) the engine fills, before sending, with a key an earlier step's answer gave (a key the server assigns). */
  readonly bindings?: readonly AnswerBinding[];
}

/**
 * A key the server assigns, read at run time from the answer of an earlier step of the same case
 * (oracle/resource-walks.ts): the property of its body, else its `Location` header (RFC 9110,
 * section 10.2.2: a URI reference, absolute or relative) matched against the item's path.
 */
export interface AnswerBinding {
  /** The text in the path standing for the key until it is known. */
  readonly placeholder: string;
  /** The step whose answer gives it: an index into the case's setup. */
  readonly step: number;
  /** The key property of that answer's body. */
  readonly property: string;
  /** The item's path template and its key parameter, to read the key from a `Location`. */
  readonly item: string | undefined;
  readonly parameter: string | undefined;
}

/**
 * What a read at the end of a sequence along the contract's links must answer (the stateful
 * phase; checks resource-available, deleted-stays-deleted, replacement-visible).
 */
export interface LinkStep {
  /** The links followed, for people: `addPlant 200 → DeletePlantById → GetPlantById`. */
  readonly via: string;
  /**
   * `created`: the resource its setup created; `gone`: no resource (it was deleted); `replaced`:
   * the replacement; `updated`: the resource created, merged with the patch; `listed`: a list
   * (a page of it) holding the resource created; `assigned`: a create's answer with a key of the
   * server's own, not the value the create sent for it.
   */
  readonly expects: 'created' | 'gone' | 'replaced' | 'updated' | 'listed' | 'assigned';
  /** The JSON text whose properties the read must answer exactly (for `created` and `replaced`). */
  readonly resource?: string;
  /**
   * Other JSON texts the read may answer instead of `resource`: writes of the resource that were
   * in flight together (the overlap phase), applied in some order - one of them, never a mix.
   */
  readonly alternatives?: readonly string[];
  /** Where the sequence comes from the collection/item pattern, not a declared link: its findings are warnings. */
  readonly inferred?: boolean;
  /** The resource's key, as the create sent or answered it (its text): a read must answer it unchanged, a list must hold an item with it. */
  readonly key?: { readonly property: string; readonly text: string };
  /** Why the key of a step could not be read from its answer (set by the engine as it sends): the sequence cannot go on. */
  readonly unresolved?: string;
  /** For `listed`: the page of the list this is (1 the first), and how many the engine follows at most. */
  readonly page?: number;
  readonly pages?: number;
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

/** How a response's body was delimited (RFC 9112, section 6.3), or that it had none (a 204, a 304, a HEAD). */
export type Framing = 'content-length' | 'chunked' | 'close' | 'none';

/**
 * Bytes that came on a connection after an answer was complete, before the connection carried
 * another request or was closed: nothing may (RFC 9112, section 6.3 delimits each answer exactly,
 * and a server answers each request once).
 */
export interface ExtraBytes {
  /** The first bytes, for messages (at most 512). */
  readonly bytes: Uint8Array;
  /** How many there were in all. */
  readonly length: number;
  /** From the end of the answer to the first of them. */
  readonly afterMs: number;
  /**
   * Where the client saw them: `settling` right after the answer, before it was handed on; `idle`
   * later, while the kept-alive connection waited for its next request; `before-next` in front of
   * the next answer on the connection.
   */
  readonly seen: 'settling' | 'idle' | 'before-next';
}

/** Another request the connection or the client carried around the same time (see WireFacts.others). */
export interface NeighbourRequest {
  readonly request: HttpRequest;
  /**
   * `previous`: the request the same connection carried just before; `concurrent`: one in flight
   * at the same time; `pipelined`: one written on the same connection before this one's answer
   * came (RFC 9112, section 9.3.2).
   */
  readonly relation: 'previous' | 'concurrent' | 'pipelined';
  readonly connection: number;
}

/**
 * What the engine's client saw on the wire for one exchange, besides status, headers and body
 * (http-client.ts): what the hygiene checks judge.
 */
export interface WireFacts {
  /** The connection the answer came on, numbered by the client from 1. */
  readonly connection: number;
  /** Exchanges the connection carried before this one (0: a new connection). */
  readonly exchangesBefore: number;
  readonly framing: Framing;
  /** The Content-Length the answer declared, where it declared one. */
  readonly contentLength?: number;
  /** Transfer-Encoding and Content-Length together (RFC 9112, section 6.2: a sender MUST NOT). */
  readonly lengthWithTransferEncoding?: boolean;
  /** Body bytes as they arrived: after chunked framing was removed, before any coding was decoded. */
  readonly receivedLength: number;
  /** The content codings of Content-Encoding, in the order they were applied, lower case, `identity` left out. */
  readonly contentCodings: readonly string[];
  /** Transfer codings other than chunked (RFC 9112, section 7), which the request did not ask for. */
  readonly transferCodings: readonly string[];
  /** Why the body could not be decoded (an unknown coding, data that is not what its coding says): `body` is then as received. */
  readonly undecodable?: string;
  /** `deflate` sent as raw DEFLATE without the zlib wrapper RFC 9110, section 8.4.1.2 defines (decoded all the same). */
  readonly rawDeflate?: boolean;
  readonly extraBytes?: ExtraBytes;
  /**
   * Set where the request said `Connection: close` and the client waited for the server to close
   * the connection after its answer (the `framing` kind's requests): how long the connection was
   * still open when the client stopped waiting. RFC 9112, section 9.6: a server that receives
   * "close" MUST initiate closure after its final response.
   */
  readonly leftOpenMs?: number;
  /**
   * Set when the answer's status line says HTTP/1.0: the server speaks HTTP/1.0 and reads an
   * HTTP/1.1 request as one (RFC 9110, section 2.5), so HTTP/1.1's demands on requests (a Host
   * field, RFC 9112, section 3.2) do not bind it.
   */
  readonly version?: '1.0';
  /** Interim (1xx) answers that came before the final one (RFC 9110, section 15.2), where any did. */
  readonly interim?: number;
  /** What the answer's sender MUST NOT do and the reader read all the same (bare LF, obs-fold, a repeated Content-Length...: RFC 9112). */
  readonly senderFaults?: readonly string[];
  /** The same, for breaches that cost a client nothing (a Content-Length: 0 on a 204): warnings, with the section each breaks. */
  readonly senderWarnings?: readonly string[];
  /**
   * Requests whose answer this one could have been: the request the connection carried before,
   * and those in flight on other connections at the same time. An answer carrying one of them
   * instead of its own request is misdelivered.
   */
  readonly others: readonly NeighbourRequest[];
}

/** What had arrived of a response when its exchange failed (the head, some of the body). */
export interface PartialResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly framing: Framing;
  readonly contentLength?: number;
  /** The body bytes received (before any coding was decoded), at most the client's limit. */
  readonly body: Uint8Array;
}

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
      /** What the client saw on the wire; absent for outcomes not made by the engine's client (tests). */
      readonly wire?: WireFacts;
    }
  | {
      readonly kind: 'failure';
      readonly failure: TransportFailure;
      readonly message: string;
      readonly durationMs: number;
      /** The head and the part of the body that came before the failure, if the head came. */
      readonly partial?: PartialResponse;
    };

/** A response that came back (not a failure of the exchange). */
export type ResponseOutcome = Extract<HttpOutcome, { kind: 'response' }>;

/** What a check reports: one way an exchange (or a run) broke the contract, or a hazard. */
export interface Finding {
  /** The check's name (see registry.ts). */
  readonly check: string;
  readonly severity: Severity;
  readonly message: string;
}

export interface CheckOptions {
  readonly profile?: Profile;
}
