/**
 * The map's rows on messages a server reads (RFC 9112, RFC 9110 section 5 and 10.1.1): request
 * line, fields, framing, HTTP/1.0, Expect, persistence. The requests are the `framing` kind's
 * (fuzz/generation/kinds/framing.ts): the framings of a valid request, and a representative of
 * each class of RFC 9112's grammar (fuzz/generation/tables/message-spellings.ts), each read one
 * of four ways - exactly as the plain request, refused or read so, refused, or read so with a
 * refusal a warning. The faults are test/faulty/map-messages.ts's hand-written HTTP layers and
 * the existing ones they name.
 */
import type { Requirement } from './requirement.js';
import { tested, untestable, type JudgeRow } from './rows.js';

/** What an `either` spelling's judge reads (the server may choose). */
const EITHER = 'a declared 4xx or a 400, declared or not (node:http answers 400 before the application sees it), and the plain answer both pass, the plain answer held to what the plain request gets (echo); a 5xx, a reset or a timeout fails';
/** A spelling the server may read or refuse: judged only for an answer that is no answer. */
const EITHER_WAY: JudgeRow = { check: 'no-server-error', how: EITHER };

/** A request read exactly as its plain form: answered and echoed as the plain request is. */
const AS_PLAIN: JudgeRow = { check: 'accepts-valid', how: 'the success the plain request gets, and its echo' };
/** A request after which the server must close the connection. */
const CLOSES: JudgeRow = { check: 'message-framing', how: 'the server closes the connection after its answer; the engine waits the request\'s timeout for it' };

export const MESSAGE_REQUIREMENTS: readonly Requirement[] = [
  // --- fields (RFC 9112, section 5; RFC 9110, sections 5.1 and 5.5) ---
  tested({
    id: '9112-5.1-no-space-before-colon',
    says: 'No whitespace is allowed between the field name and colon. A server MUST reject any received request message that contains whitespace between a header field name and colon with a response status code of 400 (Bad Request).',
    provoke: { how: 'a valid request with one more field line, `x-request-note : 1`, on a connection of its own', tags: ['message:space-before-colon'] },
    judge: { check: 'rejects-invalid', how: 'a declared 4xx; a success fails (a server that answers as HTTP/1.0 is not bound: RFC 9110, section 2.5)' },
    faults: ['field-name-trimmed'],
  }),
  tested({
    id: '9112-5.1-ows-around-value',
    says: 'field-line = field-name ":" OWS field-value OWS: a field value does not include leading or trailing whitespace; OWS is any number of SP and HTAB.',
    provoke: { how: 'the valid request with HTAB and SP before every field value and SP after it (Host, Content-Type, Authorization, Content-Length, Connection); HTAB after Content-Length is left out, which node:http refuses', tags: ['message:ows'] },
    judge: AS_PLAIN,
    faults: ['value-after-colon-space'],
  }),
  tested({
    id: '9112-5.2-obs-fold',
    says: 'A server that receives an obs-fold in a request message that is not within a "message/http" container MUST either reject the message by sending a 400 (Bad Request) ... or replace each received obs-fold with one or more SP octets prior to interpreting the field value.',
    provoke: { how: 'the valid request with a field folded onto a second line that starts with a space', tags: ['message:obs-fold'] },
    judge: EITHER_WAY,
    faults: ['fold-split-on-colon'],
  }),
  tested({
    id: '9110-5.5-nul-in-value',
    says: 'Field values containing CR, LF, or NUL characters are invalid and dangerous ... a recipient of CR, LF, or NUL within a field value MUST either reject the message or replace each of those characters with SP before further processing or forwarding of that message.',
    provoke: { how: 'the valid request with a field whose value holds a NUL (a CR or LF would end the line)', tags: ['message:nul-in-value'] },
    judge: EITHER_WAY,
    faults: ['fields-into-headers-object'],
  }),
  tested({
    id: '9110-5.1-request-field-name-token',
    says: 'field-name = token; a server that receives a sequence of octets that does not match the HTTP-message grammar SHOULD respond with 400 (Bad Request) (RFC 9112, section 2.2).',
    provoke: { how: 'the valid request with a field whose name holds a character that is not a tchar, `(`', tags: ['message:field-name'] },
    judge: { check: 'no-server-error', how: `${EITHER}: ignoring a field nobody knows costs nothing` },
    faults: ['fields-into-headers-object'],
  }),
  // --- the request line (RFC 9112, sections 2.2, 2.3 and 3; RFC 9110, section 2.5) ---
  tested({
    id: '9112-2.2-empty-line-before-request',
    says: 'In the interest of robustness, a server that is expecting to receive and parse a request-line SHOULD ignore at least one empty line (CRLF) received prior to the request-line.',
    provoke: { how: 'the valid request after one CRLF', tags: ['message:empty-line'] },
    judge: {
      check: 'accepts-valid',
      how: 'the success the plain request gets; a 4xx, or a connection closed with no answer, is a warning; a 5xx fails',
      warning: 'a SHOULD, and no client sends an empty line before a request any more (HTTP/1.0-era clients did, after a POST body); Python http.server reads it as the end of the connection',
    },
    faults: ['empty-line-read-as-request-line'],
  }),
  tested({
    id: '9110-2.5-higher-minor-version',
    says: 'A recipient that receives a message with a major version number that it implements and a minor version number higher than what it implements SHOULD process the message as if it were in the highest minor version within that major version to which the recipient is conformant.',
    provoke: { how: 'the valid request as HTTP/1.2', tags: ['message:minor-version'] },
    judge: { check: 'no-server-error', how: `${EITHER}; 505 (Version Not Supported) is for a major version the server does not support (RFC 9110, section 15.6.6) and fails here. A 400 passes silently: node:http answers one, and no HTTP/1.2 exists` },
    faults: ['exact-version-505'],
  }),
  tested({
    id: '9112-3-request-line-whitespace',
    says: 'request-line = method SP request-target SP HTTP-version; recipients MAY instead parse on whitespace-delimited word boundaries ...; recipients of an invalid request-line SHOULD respond with either a 400 (Bad Request) error or a 301 (Moved Permanently) redirect.',
    provoke: { how: 'the valid request with HTAB between the request line\'s parts', tags: ['message:separator'] },
    judge: EITHER_WAY,
    faults: ['request-line-split-on-space'],
  }),
  untestable({
    id: '9112-2.3-version-case-sensitive',
    says: 'HTTP-version = HTTP-name "/" DIGIT "." DIGIT; HTTP-name = %s"HTTP": the version is case-sensitive, and a request line with another is invalid (section 3: SHOULD be answered 400).',
    untestable: 'not sent: Python\'s http.server answers an invalid HTTP-version (`http/1.1`, `HTTP/1.1x`) as HTTP/0.9, a body with no status line, so from outside its refusal cannot be told from a broken answer, and a correct-but-unusual server would fail',
  }),
  // --- framing (RFC 9112, sections 6 and 7) ---
  tested({
    id: '9112-6.3-invalid-content-length',
    says: 'If a message is received without Transfer-Encoding and with an invalid Content-Length header field, then the message framing is invalid and the recipient MUST treat it as an unrecoverable error ... the server MUST respond with a 400 (Bad Request) status code and then close the connection.',
    provoke: { how: 'the valid request with Content-Length written `+N`, and with two Content-Length fields of different values (N and N+1), without Connection: close', tags: ['message:content-length-sign', 'message:content-lengths'] },
    judge: { check: 'rejects-invalid', how: 'a declared 4xx; a success fails (a server that reads the last of two lengths waits for a byte that never comes: no-server-error\'s timeout)' },
    faults: ['content-length-parse-int'],
  }),
  tested({
    id: '9112-6.3-close-after-invalid-length',
    says: 'If this is a request message, the server MUST respond with a 400 (Bad Request) status code and then close the connection.',
    provoke: { how: 'the invalid Content-Length requests above, sent without Connection: close', tags: ['message:content-length-sign', 'message:content-lengths'] },
    judge: CLOSES,
    faults: ['content-length-parse-int'],
  }),
  tested({
    id: '9112-6.1-length-with-chunked',
    says: 'A server MAY reject a request that contains both Content-Length and Transfer-Encoding or process such a request in accordance with the Transfer-Encoding alone. Regardless, the server MUST close the connection after responding to such a request to avoid the potential attacks.',
    provoke: { how: 'the valid request chunked, with Content-Length beside Transfer-Encoding (the plain body\'s length), without Connection: close', tags: ['message:length-and-chunked'] },
    judge: { check: 'message-framing', how: `the connection closes after the answer, whatever it was; ${EITHER}` },
    faults: ['chunked-with-length-kept-open'],
  }),
  tested({
    id: '9112-7.1-chunked-read',
    says: 'A recipient MUST be able to parse and decode the chunked transfer coding.',
    provoke: { how: 'the valid request with its body in two chunks', tags: ['framing:4'] },
    judge: AS_PLAIN,
    faults: ['second-answer-after-an-error'],
  }),
  tested({
    id: '9112-7.1.1-chunk-extensions',
    says: 'chunk-size = 1*HEXDIG; chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ); a recipient MUST ignore unrecognized chunk extensions.',
    provoke: { how: 'the valid request chunked, every chunk-size with two leading zeros, in upper-case hex, and followed by `;a=1;b="c d"` (a token and a quoted value; no BWS, which node:http refuses)', tags: ['message:chunk-spelling'] },
    judge: AS_PLAIN,
    faults: ['chunk-size-by-number'],
  }),
  tested({
    id: '9112-7.1.2-trailer-section',
    says: 'A trailer section allows the sender to include additional fields at the end of a chunked message ... chunked-body = *chunk last-chunk trailer-section CRLF.',
    provoke: { how: 'the valid request chunked a byte per chunk, with a trailer field after the last chunk', tags: ['message:chunk-trailers'] },
    judge: AS_PLAIN,
    faults: ['no-trailer-section'],
  }),
  tested({
    id: '9112-6.3-body-across-reads',
    says: 'The length of a message body is determined by its framing (Transfer-Encoding, Content-Length), not by how its bytes arrive: a message is complete when its framing says so.',
    provoke: { how: 'the valid request chunked, written in pieces a millisecond apart, cut inside the request line, inside a field name, between a CR and its LF, before the empty line, between head and body, inside a chunk-size line and a chunk', tags: ['message:split'] },
    judge: AS_PLAIN,
    faults: ['one-read-per-request'],
  }),
  // --- HTTP/1.0 and Expect (RFC 9110, sections 10.1.1 and 15.2; RFC 9112, section 9.3) ---
  tested({
    id: '9110-10.1.1-expect-not-refused',
    says: 'A server that receives a 100-continue expectation in an HTTP/1.1 request MAY omit sending a 100 (Continue) response if it has already received some or all of the message body; the expectation is no reason to refuse the request.',
    provoke: { how: 'the valid request with Expect: 100-continue, its body sent at once', tags: ['framing:3'] },
    judge: { check: 'accepts-valid', how: 'the success the plain request gets (a 100 before it is fine)' },
    faults: ['expectation-failed'],
  }),
  tested({
    id: '9110-10.1.1-unknown-expectation',
    says: 'A server that receives an Expect field value containing a member other than 100-continue MAY respond with a 417 (Expectation Failed) status code to indicate that the unexpected expectation cannot be met.',
    provoke: { how: 'the valid request with Expect: x-unknown', tags: ['message:unknown-expectation'] },
    judge: { check: 'no-server-error', how: 'a 417, declared or not (node:http answers it unless the application takes the expectation), a declared 4xx and the plain answer pass; a 5xx, a reset or a timeout fails' },
    faults: ['unknown-expectation-throws'],
  }),
  tested({
    id: '9110-10.1.1-expect-ignored-in-http10',
    says: 'A server that receives a 100-continue expectation in an HTTP/1.0 request MUST ignore that expectation. (Section 15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client.)',
    provoke: { how: 'the valid request as HTTP/1.0 with Expect: 100-continue', tags: ['message:expect-http10'] },
    judge: { check: 'message-framing', how: 'no interim (1xx) answer before the final one' },
    faults: ['continue-to-http10'],
  }),
  tested({
    id: '9112-9.3-http10-closes',
    says: 'If the received protocol is HTTP/1.0, the "keep-alive" connection option is present ... the connection will persist after the current response; otherwise, the connection will close after the current response.',
    provoke: { how: 'the valid request as HTTP/1.0 without Connection, plain and with Expect', tags: ['framing:1', 'message:expect-http10'] },
    judge: CLOSES,
    faults: ['http10-kept-open'],
  }),
  // --- persistence (RFC 9112, sections 9.3 and 9.6) ---
  tested({
    id: '9112-9.6-close-honoured',
    says: 'A server that receives a "close" connection option MUST initiate closure of the connection after it sends the final response to the request that contained the "close" connection option.',
    provoke: { how: 'every framing of the valid request on a connection of its own, with Connection: close', tags: ['framing:0'] },
    judge: CLOSES,
    faults: ['ignores-client-close'],
  }),
  tested({
    id: '9112-9.6-close-on-a-later-request',
    says: 'The "close" connection option binds the request that carries it, on any connection: a server that receives it MUST initiate closure after its final response, also when earlier requests kept the connection open.',
    provoke: { how: 'a first request with a malformed body (nothing stored), kept alive and not judged, then the valid request with Connection: close on the same connection', tags: ['message:close-second'] },
    judge: { check: 'message-framing', how: 'the server closes the connection after the second answer; the engine waits the request\'s timeout for it (a server that closed after the first is sent the request again on a new connection)' },
    faults: ['close-read-once-per-connection'],
  }),
  tested({
    id: '9112-9.3.2-pipelined-in-order',
    says: 'A server MAY process a sequence of pipelined requests in parallel if they all have safe methods, but it MUST send the corresponding responses in the same order that the requests were received.',
    provoke: { how: 'the overlap phase\'s pipelined groups: valid requests written back to back on one connection before any answer is read', tags: ['overlap:pipelined'] },
    judge: { check: 'one-answer-per-request', how: 'each answer carries what its own request sent, not what another of the pipeline sent' },
    faults: ['answers-pipelined-out-of-order'],
  }),
  tested({
    id: '9112-9.3.2-pipelined-all-answered',
    says: 'A server that receives pipelined requests answers each of them (it may close the connection instead, and the client then retries the unanswered ones, section 9.3.1).',
    provoke: { how: 'the overlap phase\'s pipelined groups', tags: ['overlap:pipelined'] },
    judge: { check: 'no-server-error', how: 'a request read and never answered on an open connection times out' },
    faults: ['drops-pipelined-requests'],
  }),
];
