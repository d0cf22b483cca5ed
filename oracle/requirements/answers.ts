/**
 * The map's rows on what a server writes: every answer is read by the RFC 9112 and RFC 9110
 * grammars (fuzz/wire/answer-grammar.ts, the fields the oracle reads in field-grammar.ts), and what
 * a sender MUST NOT generate is a finding naming its section. What a recipient may tolerate stays
 * accepted: an empty reason phrase, obs-text, 1xx answers before the final one, chunk extensions,
 * trailers. The faults are in test/faulty/map-answers.ts (and wire-faults.ts, hygiene.ts,
 * operations.ts for the rows that came before the map).
 */
import type { CheckName } from '../registry.js';
import type { Provocation, Requirement, TestedRequirement } from './requirement.js';
import { tested, untestable, type JudgeRow, type TestedRow } from './rows.js';

/** Read on every answer the engine receives. */
const EVERY_ANSWER: Provocation = { how: 'every answer', tags: [] };
/** The HTTP/1.0 requests of the `framing` kind. */
const HTTP10: Provocation = { how: 'HTTP/1.0 requests, with and without keep-alive', tags: ['framing:'] };

/** A row of this file: its requests and its check may go unsaid. */
interface AnswerRow extends Omit<TestedRow, 'provoke' | 'judge'> {
  readonly provoke?: Provocation;
  readonly judge: Omit<JudgeRow, 'check'> & { readonly check?: CheckName };
}

/** A row on what a sender writes: read on every answer and judged by `message-framing`, unless it says otherwise. */
function answer(row: AnswerRow): TestedRequirement {
  return tested({ ...row, provoke: row.provoke ?? EVERY_ANSWER, judge: { check: 'message-framing', ...row.judge } });
}

export const ANSWER_REQUIREMENTS: readonly Requirement[] = [
  answer({
    id: '9112-2.2-crlf-line-ends',
    says: 'A sender MUST end the status line, each field line and each chunk line with CRLF; a recipient MAY read a bare LF.',
    judge: { how: 'the reader takes a bare LF as a line end, as a recipient may, and notes each kind of line (head, chunk size, chunk data, trailer) so ended' },
    faults: ['bare-lf-answers'],
  }),
  answer({
    id: '9112-2.2-no-bare-cr',
    says: 'A sender MUST NOT generate a bare CR (a CR not followed by LF) outside the content; a recipient replaces it with SP or rejects the element.',
    judge: { how: 'a CR inside a line of the head or trailers is replaced with SP and noted' },
    faults: ['bare-cr-in-server-field'],
  }),
  answer({
    id: '9112-2.2-no-whitespace-before-first-field',
    says: 'A sender MUST NOT send whitespace between the start-line and the first header field.',
    judge: { how: 'a line that starts with whitespace before any field is ignored, as a recipient must, and noted' },
    faults: ['whitespace-line-after-status'],
  }),
  answer({
    id: '9112-4-status-line-grammar',
    says: 'status-line = HTTP-version SP status-code SP [ reason-phrase ]: the SP after the code even when the reason phrase is empty, no control character in the reason phrase.',
    judge: { how: 'the status line is read by its grammar; one only a lenient client reads (no SP after the code, tabs, a CTL in the reason) is read and noted; an empty or custom reason phrase is accepted' },
    faults: ['status-line-without-reason'],
  }),
  answer({
    id: '9112-5.1-no-whitespace-before-colon',
    says: 'No whitespace is allowed between the field name and the colon (a proxy MUST remove it from a response).',
    judge: { how: 'the field is read without the whitespace, as a proxy forwards it, and noted' },
    faults: ['space-before-colon'],
  }),
  answer({
    id: '9112-5.2-no-obs-fold',
    says: 'A sender MUST NOT generate a message that includes line folding (obs-fold).',
    judge: { how: 'the folded line is joined to its field with SP, as a user agent does, and noted' },
    faults: ['obs-fold-answers'],
  }),
  answer({
    id: '9112-6.1-chunked-once',
    says: 'A sender MUST NOT apply the chunked transfer coding more than once to a message body; Transfer-Encoding is a list of transfer codings.',
    judge: { how: 'Transfer-Encoding is read as a list of transfer-coding (token and parameters); chunked twice, or an element that is not one, is noted' },
    faults: ['transfer-encoding-twice'],
  }),
  answer({
    id: '9112-6.1-no-transfer-encoding-to-http10',
    says: 'A server MUST NOT send a response containing Transfer-Encoding unless the request indicates HTTP/1.1 (minor revision) or later.',
    provoke: HTTP10,
    judge: { how: 'the answer to an HTTP/1.0 request is read for Transfer-Encoding' },
    faults: ['chunked-to-http10'],
  }),
  answer({
    id: '9112-6.1-no-transfer-encoding-in-204',
    says: 'A server MUST NOT send Transfer-Encoding in any response with a status code of 1xx or 204.',
    judge: { how: 'a 1xx or 204 is read for Transfer-Encoding (the stateful phase\'s DELETEs of a contract that declares 204)' },
    faults: ['chunked-204'],
  }),
  answer({
    id: '9112-6.2-not-both-lengths',
    says: 'A sender MUST NOT send a Content-Length header field in any message that contains a Transfer-Encoding header field.',
    judge: { check: 'content-length', how: 'an answer with both fails; the reader frames it by Transfer-Encoding and closes the connection after it (section 6.3, item 3)' },
    faults: ['content-length-with-chunked'],
  }),
  answer({
    id: '9112-6.3-body-as-long-as-content-length',
    says: 'A body is as long as its Content-Length: longer, the rest is read as the next answer; shorter, the message is incomplete (section 8).',
    judge: { check: 'content-length', how: 'bytes after a Content-Length body (at once, on the idle connection, or in front of the next answer) fail; so does a complete JSON text cut off by the close or the deadline before its Content-Length' },
    faults: ['content-length-one-short', 'content-length-one-long'],
  }),
  answer({
    id: '9112-7.1.1-chunk-line-grammar',
    says: 'chunk = chunk-size [ chunk-ext ] CRLF, chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ); a sender MUST NOT generate BWS.',
    judge: { how: 'each chunk line is read by its grammar: extensions are read and ignored; whitespace, or an extension that is not token[=token or quoted-string], is noted; a line without a size fails the exchange' },
    faults: ['chunk-size-padded'],
  }),
  answer({
    id: '9110-5.1-field-name-token',
    says: 'field-name = token: a field line is field-name ":" OWS field-value OWS.',
    judge: { how: 'a line of the head or trailers that is not a field line is left out and noted' },
    faults: ['field-name-with-spaces'],
  }),
  answer({
    id: '9110-5.5-no-control-characters',
    says: 'Field values are VCHAR, obs-text, SP and HTAB: CR, LF and NUL are invalid and dangerous, other CTLs invalid.',
    judge: { how: 'a control character in a value is noted (a NUL replaced with SP, as a recipient must); obs-text is accepted' },
    faults: ['ansi-colour-in-field'],
  }),
  answer({
    id: '9110-5.6.1-token-lists',
    says: 'A list is its elements separated by commas (#rule), no empty element a sender generates: Vary, Connection and Content-Encoding are lists of tokens.',
    judge: { how: 'Vary, Connection and Content-Encoding, where there are ones, are read as comma-separated tokens (Cache-Control as cache directives, RFC 9111, section 5.2)' },
    faults: ['vary-separated-by-spaces'],
  }),
  answer({
    id: '9110-5.6.7-date-imf-fixdate',
    says: 'A sender MUST generate HTTP dates in the IMF-fixdate format.',
    judge: { how: 'Date, Last-Modified and Expires are read as IMF-fixdates: the form, a day of the calendar, the day of the week' },
    faults: ['rfc850-date'],
  }),
  answer({
    id: '9110-6.5.1-no-framing-fields-in-trailers',
    says: 'A sender MUST NOT generate a trailer field unless its definition permits it: fields that frame, route or describe the content never do.',
    judge: { how: 'trailers are read as field lines; Content-Length, Transfer-Encoding, Trailer, Host, Content-Type, Content-Encoding or Content-Range among them is noted' },
    faults: ['content-length-trailer'],
  }),
  answer({
    id: '9110-6.6.1-date-sent',
    says: 'An origin server with a clock MUST generate a Date header field in all 2xx, 3xx and 4xx responses.',
    judge: { how: 'a 2xx, 3xx or 4xx without Date is a warning', warning: 'a server without a clock MUST NOT send one, and a client cannot tell which it talks to; it loses nothing either way, for a recipient records when it received an answer without Date (the same section)' },
    faults: ['no-date-field'],
  }),
  answer({
    id: '9110-8.3.1-content-type-grammar',
    says: 'Content-Type = media-type: type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ), no whitespace around "=".',
    judge: { how: 'Content-Type, where there is one, is read by the media-type grammar' },
    faults: ['spaces-around-charset-equals'],
  }),
  answer({
    id: '9110-8.8.3-entity-tag-grammar',
    says: 'ETag = entity-tag = [ W/ ] DQUOTE *etagc DQUOTE.',
    judge: { how: 'ETag, where there is one, is read as an entity-tag: quoted, optionally weak' },
    faults: ['unquoted-etag'],
  }),
  answer({
    id: '9110-8.4.1.2-deflate-is-zlib',
    says: 'The deflate coding is a zlib data stream (RFC 1950) containing DEFLATE data.',
    judge: { check: 'content-coding', how: 'a body labelled deflate is decoded as zlib; raw DEFLATE without the wrapper fails' },
    faults: ['raw-deflate'],
  }),
  answer({
    id: '9110-8.6-one-content-length',
    says: 'Content-Length = 1*DIGIT: one number, not a list or the field repeated.',
    judge: { how: 'Content-Length values that agree are read (a recipient may) and noted; values that differ, or that are not digits, fail the exchange' },
    faults: ['repeated-content-length'],
  }),
  answer({
    id: '9110-8.6-no-content-length-in-204',
    says: 'A server MUST NOT send a Content-Length header field in any response with a status code of 1xx or 204.',
    judge: { how: 'a 1xx or 204 with a Content-Length other than 0 fails (a client that frames by it waits for bytes that never come)' },
    faults: ['content-length-on-204'],
  }),
  answer({
    id: '9110-8.6-zero-content-length-in-204',
    says: 'A server MUST NOT send a Content-Length header field in any response with a status code of 1xx or 204: Content-Length: 0 too.',
    judge: { how: 'Content-Length: 0 on a 1xx or 204 is a warning', warning: 'the length it states is the 204\'s own, so no client misreads it, and node:http writes it whenever a handler sets it' },
    faults: ['zero-content-length-on-204'],
  }),
  answer({
    id: '9110-9.3.2-head-without-content',
    says: 'The server MUST NOT send content in the response to HEAD.',
    provoke: { how: 'HEAD on each path that declares GET (the method: requests; the bundled contract declares no GET, the example full store does)', tags: ['method:'] },
    judge: { check: 'method-semantics', how: 'body bytes, or bytes after the head, in the answer to HEAD fail' },
    faults: ['head-with-body'],
  }),
  answer({
    id: '9110-10.2.1-allow-grammar',
    says: 'Allow = #method: a comma-separated list of method tokens, no empty element.',
    provoke: { how: 'every answer with Allow: the 405s to the methods a path does not declare', tags: ['method:'] },
    judge: { how: 'Allow, where there is one, is read as a list of tokens' },
    faults: ['allow-separated-by-spaces'],
  }),
  answer({
    id: '9110-10.2.2-location-grammar',
    says: 'Location = URI-reference (RFC 3986, section 4.1).',
    judge: { how: 'Location, where there is one, is read by the URI-reference grammar: the characters of each part, percent-escapes, the scheme, the authority' },
    faults: ['location-with-raw-name'],
  }),
  answer({
    id: '9110-12.5.3-coding-accepted',
    says: 'A server does not apply a content coding the request\'s Accept-Encoding excludes (identity;q=0 aside).',
    judge: { check: 'content-coding', how: 'the answer\'s Content-Encoding is held to the request\'s Accept-Encoding' },
    faults: ['gzip-whatever-was-accepted'],
  }),
  answer({
    id: '9110-15.2-no-1xx-to-http10',
    says: 'A server MUST NOT send a 1xx response to an HTTP/1.0 client; a client reads any 1xx before the final answer (accepted on HTTP/1.1).',
    provoke: HTTP10,
    judge: { how: 'an interim answer before the final one is read and skipped; to an HTTP/1.0 request it is noted' },
    faults: ['continue-to-http10'],
  }),
  answer({
    id: '9110-15.3.5-no-content-in-204',
    says: 'A 204 response is terminated by the end of the header section; it cannot contain content.',
    provoke: { how: 'the stateful phase\'s DELETEs of a contract that declares 204, and any other 204', tags: [] },
    judge: { how: 'bytes after a 204\'s head that do not start an answer fail (one-answer-per-request fails them too)' },
    faults: ['content-in-204'],
  }),
  untestable({
    id: '9110-15.4.5-no-content-in-304',
    says: 'A 304 response is terminated by the end of the header section; it cannot contain content.',
    untestable: 'the engine sends no conditional request (If-None-Match, If-Modified-Since), so no 304 is asked for; a 304 a server sends anyway is read by the rule of the 204 (message-framing fails bytes after its head)',
  }),
  answer({
    id: '9110-15.5.6-allow-on-405',
    says: 'The origin server MUST generate an Allow header field in a 405 response containing the target resource\'s methods.',
    provoke: { how: 'each method a path does not declare (the method: requests)', tags: ['method:'] },
    judge: { check: 'method-semantics', how: 'a 405 without Allow fails, and so does an Allow that leaves out a declared method or lists the refused one' },
    faults: ['no-allow-on-405'],
  }),
];
