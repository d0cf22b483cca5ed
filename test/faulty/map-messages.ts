/**
 * Faulty implementations of the map's rows on messages (oracle/requirements/messages.ts): HTTP
 * layers written by hand on node:net (raw-store.ts), each reading one part of RFC 9112 the way
 * hand-written parsers get it wrong - node:http reads every one of these right, so none can be
 * made with it. Each names the check that catches it in a focused run (the `framing` kind's
 * coverage; test/conformance/map-messages.test.ts) and the other checks its defect also breaks.
 */
import type { HygieneFault } from './hygiene.js';
import { CAREFUL_LAYER, startRawStore, type MessageReading, type RawLayer } from './raw-store.js';

function rawFault(name: string, caughtBy: HygieneFault['caughtBy'], touches: HygieneFault['touches'], defect: string, layer: Partial<RawLayer> & { readonly reading?: Partial<MessageReading> }, caughtAs?: HygieneFault['caughtAs']): HygieneFault {
  return { name, caughtBy, touches, defect, ...(caughtAs === undefined ? {} : { caughtAs }), start: () => startRawStore({ ...CAREFUL_LAYER, ...layer }) };
}

export const MAP_MESSAGE_FAULTS: readonly HygieneFault[] = [
  // --- fields (RFC 9112, section 5; RFC 9110, section 5.5) ---
  rawFault('field-name-trimmed', 'rejects-invalid', [], 'the field name is trimmed before it is looked up, so `X-Note : 1` is read as `X-Note: 1` (RFC 9112, section 5.1: a server MUST answer 400 to whitespace between a field name and its colon, the seed of request smuggling)', { reading: { fieldNames: 'trimmed' } }),
  rawFault('value-after-colon-space', 'accepts-valid', ['message-framing'], 'each field line is split at ": ": a field written with other OWS (`Host:\\t example`) is not found, and the request is refused for want of a Host (nor is `Connection:\\t close` found, and the connection stays open) (RFC 9112, section 5.1: OWS is any SP and HTAB, before and after the value)', { reading: { fieldValues: 'after-colon-space' } }),
  rawFault('fold-split-on-colon', 'no-server-error', ['status-declared', 'rejects-invalid'], 'each field line is `line.split(\':\')` and its value trimmed: a folded line has no colon, and the TypeError answers 500 (RFC 9112, section 5.2: obs-fold is refused with 400 or read as SP); a name with a space before its colon is trimmed and taken', { reading: { oddFields: 'split-on-colon' } }),
  rawFault('fields-into-headers-object', 'no-server-error', ['status-declared'], 'the fields are copied into a fetch Headers for the handler, whose TypeError for a NUL in a value or a name that is no token answers 500 (RFC 9110, section 5.5: a NUL is refused or replaced with SP; RFC 9112, section 2.2: 400)', { reading: { oddFields: 'headers-object' } }),
  // --- the request line (RFC 9112, sections 2.2, 2.3 and 3) ---
  rawFault('empty-line-read-as-request-line', 'accepts-valid', [], 'an empty line before the request line is read as the request line and refused with 400 (RFC 9112, section 2.2: a server SHOULD ignore at least one)', { reading: { emptyLines: 'read' } }, 'warning'),
  rawFault('exact-version-505', 'no-server-error', ['status-declared'], 'any version but HTTP/1.0 and HTTP/1.1 gets 505, HTTP/1.2 included (RFC 9110, section 2.5: a higher minor version is read as the highest one implemented; 505 is for a major version, section 15.6.6)', { reading: { requestLine: 'exact-version' } }),
  rawFault('request-line-split-on-space', 'no-server-error', ['status-declared'], 'the request line is `line.split(\' \')`: with a HTAB between its parts the version is undefined and the TypeError answers 500 (RFC 9112, section 3: other whitespace is read as SP or refused with 400)', { reading: { requestLine: 'split-on-space' } }),
  // --- framing (RFC 9112, sections 6 and 7) ---
  rawFault('content-length-parse-int', 'rejects-invalid', ['message-framing'], 'Content-Length is parseInt of the field, so `+42` is 42 and two fields `42, 43` are the first (RFC 9112, section 6.3: an invalid Content-Length is an unrecoverable error: 400, then close)', { reading: { contentLength: 'parse-int' } }),
  rawFault('chunked-with-length-kept-open', 'message-framing', [], 'a request with Transfer-Encoding: chunked and Content-Length is read chunked, and the connection is kept (RFC 9112, section 6.1: the server MUST close after its answer, or what a proxy before it read by Content-Length is smuggled in)', { reading: { lengthWithChunked: 'kept' } }),
  rawFault('chunk-size-by-number', 'accepts-valid', ['status-declared'], 'each chunk-size line is Number(\'0x\' + line): a chunk extension makes it NaN and the body is refused (RFC 9112, section 7.1.1: a recipient MUST ignore unrecognised chunk extensions)', { reading: { chunkSize: 'number' } }),
  rawFault('no-trailer-section', 'accepts-valid', [], 'the empty line must follow the last chunk at once: a trailer field makes the body malformed (RFC 9112, section 7.1.2: a chunked body may end with trailer fields)', { reading: { trailers: 'none' } }),
  rawFault('one-read-per-request', 'accepts-valid', ['requires-auth'], 'each read of the socket is parsed as a whole request: a request that arrives in pieces is refused as incomplete (RFC 9112, section 6: a message ends where its framing says, not where a read ends)', { reading: { reads: 'one-read' } }),
  // --- HTTP/1.0, Expect and persistence (RFC 9110, section 10.1.1; RFC 9112, sections 9.3 and 9.6) ---
  rawFault('unknown-expectation-throws', 'no-server-error', ['status-declared'], 'the Expect field goes through a switch whose default case throws, answered 500 (RFC 9110, section 10.1.1: a server MAY answer 417 to an expectation it does not know, or ignore it)', { reading: { otherExpectations: 'switch-throws' } }),
  rawFault('continue-to-http10', 'message-framing', [], 'a 100 (Continue) goes to every Expect: 100-continue, HTTP/1.0 included (RFC 9110, section 10.1.1: a server MUST ignore the expectation in an HTTP/1.0 request; section 15.2: no 1xx to an HTTP/1.0 client)', { reading: { expectContinue: 'any-version' } }),
  rawFault('close-read-once-per-connection', 'message-framing', [], 'whether to keep the connection is decided from its first request only: a later request\'s Connection: close is never read (RFC 9112, section 9.6: a server that receives close MUST initiate closure after its answer)', { clientClose: 'first-request' }),
  rawFault('http10-kept-open', 'message-framing', [], 'the connection closes only when the Connection field says close: an HTTP/1.0 request without keep-alive leaves it open (RFC 9112, section 9.3: an HTTP/1.0 connection persists only with keep-alive)', { clientClose: 'field-only' }),
];
