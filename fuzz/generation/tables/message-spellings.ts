/**
 * A valid request written every other way RFC 9112's grammar gives a class of choice for, one
 * representative each, and broken where the RFC tells a server to refuse (the `framing` kind sends
 * them, each on a connection of its own). What a server must do with each is one of four readings:
 * - `same`: read exactly as the plain request (the grammar allows it: OWS, chunk extensions,
 *   trailers, a body cut anywhere between reads, Expect in HTTP/1.0, `close` on a second request);
 * - `either`: refused with a 4xx or read as the plain request, both silently (the RFC lets the
 *   server choose, or asks with a SHOULD what node:http itself does not do: obs-fold, a NUL, a
 *   field name that is no token, another whitespace in the request line, HTTP/1.2,
 *   Content-Length beside Transfer-Encoding, an expectation it does not know) - a 400 or 417 passes
 *   whether the contract declares it or not (HTTP's own refusal); a 5xx, a reset or a wrong answer still fails;
 * - `refused`: a declared 4xx (a space before the colon, an invalid Content-Length: MUST);
 * - `unanswered`: read as the plain one; a refusal or a close with no answer is a warning (an
 *   empty line before the request line, which a server SHOULD ignore).
 */
import type { RequestFraming } from '../../../oracle/index.js';

export type Reading = 'same' | 'either' | 'refused' | 'unanswered';

export interface MessageSpellingCase {
  /** The request's tag (`message:<class>`), which the map's rows name. */
  readonly tag: string;
  readonly variant: string;
  readonly reading: Reading;
  /** Why a server may refuse it (for `either` and `unanswered`). */
  readonly reason?: string;
  /** The framing, from the body's length. */
  framing(length: number): RequestFraming;
}

/** A field no server knows, where a spelling puts what it tests. */
const NOTE = 'x-request-note';

export const MESSAGE_SPELLINGS: readonly MessageSpellingCase[] = [
  // --- fields (RFC 9112, section 5; RFC 9110, section 5.5) ---
  // Leading HTAB: node:http refuses a trailing HTAB after Content-Length's digits (OWS all the same).
  { tag: 'message:ows', variant: 'HTAB and SP around every field value (OWS, RFC 9112, section 5.1)', reading: 'same', framing: () => ({ spelling: { ows: ['\t ', ' '] } }) },
  { tag: 'message:space-before-colon', variant: `a space between a field name and its colon: 400 (RFC 9112, section 5.1: a server MUST reject it)`, reading: 'refused', framing: () => ({ spelling: { fieldLines: [`${NOTE} : 1`] } }) },
  {
    tag: 'message:obs-fold',
    variant: 'a field value folded onto a second line (obs-fold, RFC 9112, section 5.2)',
    reading: 'either',
    reason: 'RFC 9112, section 5.2: a server MUST either reject obs-fold with 400 or replace it with SP',
    framing: () => ({ spelling: { fieldLines: [`${NOTE}: a`, ' b'] } }),
  },
  {
    tag: 'message:field-name',
    variant: 'a field name with a character that is not a tchar (RFC 9110, section 5.1)',
    reading: 'either',
    reason: 'RFC 9112, section 2.2: a server SHOULD answer a message that does not match the grammar with 400; ignoring an unknown field costs nothing',
    framing: () => ({ spelling: { fieldLines: ['x-request(note): 1'] } }),
  },
  {
    tag: 'message:nul-in-value',
    variant: 'a NUL in a field value (RFC 9110, section 5.5)',
    reading: 'either',
    reason: 'RFC 9110, section 5.5: a recipient of a NUL in a field value MUST either reject the message or replace it with SP',
    framing: () => ({ spelling: { fieldLines: [`${NOTE}: a\u0000b`] } }),
  },
  // --- the request line (RFC 9112, sections 2.2, 2.3 and 3) ---
  // No invalid HTTP-version (`http/1.1`, `HTTP/1.1x`): Python's http.server answers it as HTTP/0.9,
  // a body with no status line, which no HTTP/1.1 client can read.
  {
    tag: 'message:empty-line',
    variant: 'an empty line before the request line (RFC 9112, section 2.2)',
    reading: 'unanswered',
    reason: 'RFC 9112, section 2.2: a server SHOULD ignore at least one empty line before the request line; Python http.server reads it as the end of the connection',
    framing: () => ({ spelling: { emptyLinesBefore: 1 } }),
  },
  {
    tag: 'message:minor-version',
    variant: 'HTTP/1.2: a higher minor version, read as HTTP/1.1 (RFC 9110, section 2.5)',
    reading: 'either',
    reason: 'RFC 9110, section 2.5: a server SHOULD read a higher minor version as the highest it implements; node:http refuses it with 400, and no client sends it',
    framing: () => ({ spelling: { version: 'HTTP/1.2' } }),
  },
  {
    tag: 'message:separator',
    variant: 'HTAB between the request line\'s parts (RFC 9112, section 3)',
    reading: 'either',
    reason: 'RFC 9112, section 3: a recipient MAY read any whitespace as the SP between the parts, or answer the invalid request line with 400',
    framing: () => ({ spelling: { separator: '\t' } }),
  },
  // --- framing (RFC 9112, sections 6 and 7) ---
  { tag: 'message:content-length-sign', variant: 'Content-Length written with a sign, +N: 400 and close (RFC 9112, section 6.3)', reading: 'refused', framing: (n) => ({ spelling: { contentLength: [`+${n}`] } }) },
  { tag: 'message:content-lengths', variant: 'two Content-Length fields of different values: 400 and close (RFC 9112, section 6.3)', reading: 'refused', framing: (n) => ({ spelling: { contentLength: [String(n), String(n + 1)] } }) },
  {
    tag: 'message:length-and-chunked',
    variant: 'Transfer-Encoding: chunked beside Content-Length: refused or read chunked, then close (RFC 9112, section 6.1)',
    reading: 'either',
    reason: 'RFC 9112, section 6.1: a server MAY reject a request with both, or read it by Transfer-Encoding alone; either way it MUST close the connection after its answer',
    framing: (n) => ({ chunked: true, spelling: { contentLength: [String(n)] } }),
  },
  {
    tag: 'message:chunk-spelling',
    variant: 'chunk extensions, leading zeros and upper-case hex in every chunk-size (RFC 9112, section 7.1.1)',
    reading: 'same',
    framing: () => ({ chunked: true, spelling: { chunks: { sizes: 'halves', zeros: 2, upper: true, extension: ';a=1;b="c d"' } } }),
  },
  { tag: 'message:chunk-trailers', variant: 'a chunk per byte, and a trailer field (RFC 9112, section 7.1.2)', reading: 'same', framing: () => ({ chunked: true, spelling: { chunks: { sizes: 'bytes', trailers: [`${NOTE}: 1`] } } }) },
  {
    tag: 'message:split',
    variant: 'written in pieces cut inside every part of the message: request line, field line, CRLF, chunk-size line, chunk data (RFC 9112, section 6)',
    reading: 'same',
    framing: () => ({ chunked: true, spelling: { split: true, chunks: { sizes: 'halves', extension: ';a=1' } } }),
  },
  // --- HTTP/1.0 and persistence (RFC 9110, section 10.1.1; RFC 9112, sections 9.3 and 9.6) ---
  {
    tag: 'message:unknown-expectation',
    variant: 'Expect: x-unknown, an expectation the server does not know: 417 or the plain answer (RFC 9110, section 10.1.1)',
    reading: 'either',
    reason: 'RFC 9110, section 10.1.1: a server MAY answer 417 (Expectation Failed) to an expectation other than 100-continue; node:http does, unless the application takes it',
    framing: () => ({ spelling: { expect: 'x-unknown' } }),
  },
  { tag: 'message:expect-http10', variant: 'Expect: 100-continue in an HTTP/1.0 request: no 100 (RFC 9110, section 10.1.1)', reading: 'same', framing: () => ({ version: '1.0', expectContinue: true }) },
  { tag: 'message:close-second', variant: 'Connection: close on the second request of a kept-alive connection (RFC 9112, section 9.6)', reading: 'same', framing: () => ({ after: '{' }) },
];
