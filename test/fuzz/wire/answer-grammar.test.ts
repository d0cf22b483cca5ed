/**
 * Answers read by the grammars of RFC 9112 and RFC 9110 (fuzz/wire/answer-grammar.ts): each thing
 * a sender MUST NOT generate is read as a recipient may and noted once, naming its section; what
 * the grammar allows is not noted. And the fields the oracle reads by their grammars
 * (oracle/field-grammar.ts).
 */
import { describe, expect, it } from 'vitest';
import { ResponseReader, WireError } from '../../../fuzz/wire/http-wire.js';
import { allowProblem, cacheControlProblem, entityTagProblem, fieldGrammarProblems, mediaTypeProblem, tokenListProblem, uriReferenceProblem } from '../../../oracle/field-grammar.js';

const BODY = '{"id":1}';
const DATE = `Date: ${new Date(0).toUTCString()}`;

function read(text: string, options: { method?: string; requestVersion?: '1.0' | '1.1' } = {}): ResponseReader {
  const reader = new ResponseReader({ method: options.method ?? 'GET', maxBodyBytes: 1 << 20, ...(options.requestVersion === undefined ? {} : { requestVersion: options.requestVersion }) });
  reader.push(Buffer.from(text, 'latin1'));
  reader.end();
  return reader;
}

/** An answer of `status` with these field lines after Date, and `rest` after the head. */
const answer = (fields: readonly string[], rest = '', status = '200 OK'): string => `HTTP/1.1 ${status}\r\n${[DATE, ...fields].map((f) => `${f}\r\n`).join('')}\r\n${rest}`;
const withLength = (fields: readonly string[] = []): string => answer([...fields, `Content-Length: ${BODY.length}`], BODY);
const chunked = (line: string, trailers: readonly string[] = []): string => answer(['Transfer-Encoding: chunked'], `${line}\r\n${BODY}\r\n0\r\n${trailers.map((t) => `${t}\r\n`).join('')}\r\n`);

describe('what a sender MUST NOT generate is read, and noted with its section', () => {
  it.each([
    ['no SP after the status code', `HTTP/1.1 200\r\n${DATE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /status line .* breaks its grammar.*RFC 9112, section 4/],
    ['a control character in the reason phrase', `HTTP/1.1 200 O\x07K\r\n${DATE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /control character in the reason phrase.*section 4/],
    ['a status code outside 100-599', `HTTP/1.1 600 Odd\r\n${DATE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /outside 100-599.*RFC 9110, section 15/],
    ['whitespace before the first field', `HTTP/1.1 200 OK\r\n \r\n${DATE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /between the status line and the first field.*section 2\.2/],
    ['whitespace before a colon', withLength(['X-A : 1']), /whitespace between the field name X-A and its colon.*section 5\.1/],
    ['a field name that is not a token', withLength(['X A: 1']), /not a field line.*RFC 9110, section 5\.1/],
    ['a line without a colon', withLength(['nonsense']), /not a field line/],
    ['a bare CR in a value', withLength(['X-A: a\rb']), /bare CR in the X-A field.*section 2\.2/],
    ['a control character in a value', withLength(['X-A: a\x1bb']), /control character in the X-A field.*RFC 9110, section 5\.5/],
    ['Transfer-Encoding chunked twice', answer(['Transfer-Encoding: chunked, chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`), /chunked more than once.*section 6\.1/],
    ['a Transfer-Encoding element that is not a coding', answer(['Transfer-Encoding: gzip;;x, chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`), /not a list of transfer codings/],
    ['an empty list element', answer(['Transfer-Encoding: , chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`), /empty element.*5\.6\.1\.1/],
    ['whitespace in a chunk line', chunked(`${BODY.length.toString(16)} `), /whitespace in the chunk line.*BWS/],
    ['a chunk extension that is not token[=value]', chunked(`${BODY.length.toString(16)};a=b/c`), /not chunk-size \[ chunk-ext \].*7\.1\.1/],
    ['a chunk extension without a name', chunked(`${BODY.length.toString(16)};=1`), /not chunk-size \[ chunk-ext \].*7\.1\.1/],
    ['Content-Length in the trailers', chunked(BODY.length.toString(16), ['Content-Length: 8']), /Content-Length in the trailers.*6\.5\.1/],
    ['a trailer line that is not a field', chunked(BODY.length.toString(16), ['not a field']), /trailer line that is not a field line/],
  ])('%s', (_name, text, pattern) => {
    const reader = read(text);
    expect(reader.complete).toBe(true);
    expect(reader.body.toString()).toBe(BODY);
    expect(reader.senderFaults, reader.senderFaults.join('\n')).toEqual([expect.stringMatching(pattern)]);
  });

  it('notes a Content-Length or Transfer-Encoding in a 204, a zero Content-Length as a warning', () => {
    expect(read(answer(['Content-Length: 8'], '', '204 No Content')).senderFaults).toEqual([expect.stringMatching(/Content-Length: 8 in a 204.*RFC 9110, section 8\.6/)]);
    const zero = read(answer(['Content-Length: 0'], '', '204 No Content'));
    expect([zero.senderFaults, zero.senderWarnings]).toEqual([[], [expect.stringMatching(/Content-Length: 0 in a 204/)]]);
    expect(read(answer(['Transfer-Encoding: chunked'], '', '204 No Content')).senderFaults).toEqual([expect.stringMatching(/Transfer-Encoding in a 204.*section 6\.1/)]);
  });

  it('notes a 1xx to an HTTP/1.0 request, and reads it on HTTP/1.1', () => {
    const text = `HTTP/1.1 100 Continue\r\n\r\n${withLength()}`;
    expect(read(text, { requestVersion: '1.0' }).senderFaults).toEqual([expect.stringMatching(/100 interim answer to an HTTP\/1\.0 request.*15\.2/)]);
    const reader = read(text);
    expect([reader.senderFaults, reader.interim, reader.body.toString()]).toEqual([[], 1, BODY]);
  });

  it('warns of a 2xx, 3xx or 4xx without Date; not of a 5xx or 1xx', () => {
    const without = (status: string): ResponseReader => read(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\n\r\n`);
    for (const status of ['200 OK', '301 Moved', '404 Not Found']) expect(without(status).senderWarnings, status).toEqual([expect.stringMatching(/no Date field.*6\.6\.1/)]);
    expect(without('503 Unavailable').senderWarnings).toEqual([]);
  });

  it('still refuses what no recipient can read: no status line, a chunk line without a size, differing Content-Lengths', () => {
    expect(() => read('HTTP/1.1 2OO OK\r\n\r\n')).toThrow(WireError);
    expect(() => read(chunked('zz'))).toThrow(/not a chunk size/);
    expect(() => read(withLength(['Content-Length: 9']))).toThrow(/invalid Content-Length/);
  });
});

describe('what the grammar allows is not noted', () => {
  it.each([
    ['an empty reason phrase', `HTTP/1.1 200 \r\n${DATE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`],
    ['obs-text in a reason phrase and a value', `HTTP/1.1 200 Gr\xfc\xdfe\r\n${DATE}\r\nX-A: caf\xe9\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`],
    ['a tab and spaces inside a value, OWS around it', withLength(['X-A: \t a\t b  \t'])],
    ['an empty value', withLength(['X-A:'])],
    ['chunk extensions, quoted or not', chunked(`${BODY.length.toString(16)};a=b;c="d e;f";g`)],
    ['trailers a sender may send', chunked(BODY.length.toString(16), ['X-Checksum: 1'])],
    ['transfer codings with parameters', answer(['Transfer-Encoding: x-custom;q="1";r=2, chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`)],
  ])('%s', (_name, text) => {
    const reader = read(text);
    expect(reader.complete).toBe(true);
    expect([reader.senderFaults, reader.senderWarnings]).toEqual([[], []]);
  });
});

describe('the fields the oracle reads, by their grammars (RFC 9110)', () => {
  it('Content-Type: media-type (section 8.3.1)', () => {
    for (const good of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="utf-8"', 'text/plain ; a=b;', 'application/problem+json;;']) expect(mediaTypeProblem(good), good).toBeUndefined();
    for (const bad of ['application/json; charset = utf-8', 'json', 'application/json/x', 'application/json; charset', 'application/json; a=b c', 'application /json', 'text/plain; a="b']) expect(mediaTypeProblem(bad), bad).toBeDefined();
  });

  it('Allow: #method (section 10.2.1)', () => {
    for (const good of ['GET', 'GET, HEAD,PUT', '', 'X-CUSTOM']) expect(allowProblem(good), good).toBeUndefined();
    for (const bad of ['GET POST', 'GET,, POST', 'GET, ', 'GET;POST']) expect(allowProblem(bad), bad).toBeDefined();
  });

  it('Location: URI-reference (section 10.2.2; RFC 3986, section 4.1)', () => {
    for (const good of ['/plants/1', 'https://example.com:8443/a%20b?x=1&y=/z#top', 'plants/1', '//example.com/x', '?page=2', '#frag', 'urn:isbn:123', 'http://[::1]:80/', '', 'mailto:a@b']) expect(uriReferenceProblem(good), good).toBeUndefined();
    for (const bad of ['/plants/a b', '/plants/caf\xc3\xa9', '/a%zz', '/a%4', '1abc:x', 'http://exa mple.com/', '/a[1]', '/a\\b', '/a#b#c']) expect(uriReferenceProblem(bad), bad).toBeDefined();
  });

  it('ETag: entity-tag (section 8.8.3); the token lists; Cache-Control (RFC 9111, section 5.2)', () => {
    for (const good of ['"abc"', 'W/"abc"', '""']) expect(entityTagProblem(good), good).toBeUndefined();
    for (const bad of ['abc', 'w/"abc"', '"a"b"', '"abc']) expect(entityTagProblem(bad), bad).toBeDefined();
    for (const good of ['Accept, Accept-Encoding', '*', 'keep-alive', 'gzip,br']) expect(tokenListProblem(good), good).toBeUndefined();
    for (const bad of ['Accept Accept-Encoding', 'gzip,,br', 'keep alive']) expect(tokenListProblem(bad), bad).toBeDefined();
    for (const good of ['no-store', 'max-age=60, private', 'private="set-cookie, x"', 'no-cache']) expect(cacheControlProblem(good), good).toBeUndefined();
    for (const bad of ['max-age = 60', 'max-age=60;private', 'a=b c']) expect(cacheControlProblem(bad), bad).toBeDefined();
  });

  it('are each named with their section, and absent fields are not judged', () => {
    expect(fieldGrammarProblems({})).toEqual([]);
    expect(fieldGrammarProblems({ 'last-modified': 'yesterday', etag: 'x', vary: 'a b' })).toEqual([
      expect.stringMatching(/^Last-Modified: "yesterday" is not an IMF-fixdate \(RFC 9110, section 5\.6\.7/),
      expect.stringMatching(/^ETag: "x" is not an entity-tag \(RFC 9110, section 8\.8\.3\)/),
      expect.stringMatching(/^Vary: "a b" is not a list of tokens \(RFC 9110, section 5\.6\.1\)/),
    ]);
  });
});
