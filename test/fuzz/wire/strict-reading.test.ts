/**
 * Strict reading of answers: what RFC 9112 says a sender MUST NOT send is read all the same (a
 * recipient may) and noted in `senderFaults`, which `message-framing` reports; what a sender may
 * send (1xx before the answer, a close-delimited body, trailers, any reason phrase) is not noted.
 * The Date grammar (RFC 9110, section 5.6.7) is judged by imf-fixdate.ts.
 */
import { describe, expect, it } from 'vitest';
import { judgeExchange } from '../../../oracle/index.js';
import { imfFixdateProblem } from '../../../oracle/imf-fixdate.js';
import { ResponseReader } from '../../../fuzz/wire/http-wire.js';
import type { HttpOutcome, RequestCase } from '../../../oracle/types.js';
import { loadContract } from '../../../src/openapi/index.js';

const BODY = '{"name":"a","id":1}';

function read(text: string, options: { requestVersion?: '1.0' | '1.1'; close?: boolean } = {}): ResponseReader {
  const reader = new ResponseReader({ method: 'POST', maxBodyBytes: 1 << 20, ...(options.requestVersion === undefined ? {} : { requestVersion: options.requestVersion }) });
  reader.push(Buffer.from(text, 'latin1'));
  if (options.close === true) reader.end();
  return reader;
}

describe('what a sender MUST NOT send is read, and noted', () => {
  it.each([
    ['a bare LF in the head', `HTTP/1.1 200 OK\nContent-Length: ${BODY.length}\n\n${BODY}`, /bare LF.*section 2\.2/],
    ['obs-fold', `HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /obs-fold/],
    ['a Content-Length twice, the same', `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, /Content-Length repeated/],
    ['a Content-Length list', `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}, ${BODY.length}\r\n\r\n${BODY}`, /Content-Length repeated/],
    ['chunk data ended by a bare LF', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\n0\r\n\r\n`, /chunk data ended by a bare LF/],
    ['a chunk-size line ended by a bare LF', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\n${BODY}\r\n0\r\n\r\n`, /chunk-size line ended by a bare LF/],
  ])('%s', (_name, text, pattern) => {
    const reader = read(text);
    expect(reader.complete).toBe(true);
    expect(reader.body.toString()).toBe(BODY);
    expect(reader.senderFaults).toHaveLength(1);
    expect(reader.senderFaults[0]).toMatch(pattern);
  });

  it('notes Transfer-Encoding in the answer to an HTTP/1.0 request, not to an HTTP/1.1 one', () => {
    const text = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`;
    expect(read(text, { requestVersion: '1.0' }).senderFaults).toEqual([expect.stringMatching(/HTTP\/1\.0 request.*section 6\.1/)]);
    expect(read(text).senderFaults).toEqual([]);
  });
});

describe('what a sender may send is not noted', () => {
  it.each([
    ['103 and an unsolicited 100 before the answer', `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`],
    ['a body delimited by the close', `HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${BODY}`],
    ['trailers', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n${BODY.length.toString(16)};ext=1\r\n${BODY}\r\n0\r\nX-Sum: 1\r\n\r\n`],
    ['a custom reason phrase, and none', `HTTP/1.1 200 Fine By Me\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`],
    ['no reason phrase', `HTTP/1.1 200 \r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`],
  ])('%s', (_name, text) => {
    const reader = read(text, { close: true });
    expect(reader.complete).toBe(true);
    expect(reader.body.toString()).toBe(BODY);
    expect(reader.senderFaults).toEqual([]);
  });
});

describe('IMF-fixdate (RFC 9110, section 5.6.7)', () => {
  it('accepts what Date.toUTCString writes, and a leap second', () => {
    expect(imfFixdateProblem('Sun, 06 Nov 1994 08:49:37 GMT')).toBeUndefined();
    expect(imfFixdateProblem(new Date(1_700_000_000_000).toUTCString())).toBeUndefined();
    expect(imfFixdateProblem('Sat, 31 Dec 2016 23:59:60 GMT')).toBeUndefined();
  });

  it.each([
    ['Sunday, 06-Nov-94 08:49:37 GMT', /form/],
    ['Sun Nov  6 08:49:37 1994', /form/],
    ['Sun, 06 Nov 1994 08:49:37 UTC', /form/],
    ['Sun, 6 Nov 1994 08:49:37 GMT', /form/],
    ['2024-01-01T00:00:00Z', /form/],
    ['Mon, 31 Feb 2025 00:00:00 GMT', /calendar/],
    ['Sun, 06 Nov 1994 24:00:00 GMT', /time of day/],
    ['Mon, 06 Nov 1994 08:49:37 GMT', /is a Sun/],
  ])('refuses %s', (value, pattern) => {
    expect(imfFixdateProblem(value)).toMatch(pattern);
  });
});

describe('message-framing', () => {
  const contract = loadContract();
  const request: RequestCase = { method: 'POST', path: '/plants', headers: {}, body: Buffer.from(BODY), kind: 'valid', variant: '', content: 'valid', credentials: 'valid', setup: [] };
  const outcome = (headers: Record<string, string>, senderFaults?: string[]): HttpOutcome => ({
    kind: 'response',
    status: 200,
    headers,
    body: Buffer.from(BODY),
    durationMs: 1,
    wire: { connection: 1, exchangesBefore: 0, framing: 'content-length', receivedLength: BODY.length, contentCodings: [], transferCodings: [], others: [], ...(senderFaults === undefined ? {} : { senderFaults }) },
  });

  it('fails each sender fault and a Date that is not an IMF-fixdate; passes a clean answer', () => {
    expect(judgeExchange('message-framing', request, outcome({ date: 'Sun, 06 Nov 1994 08:49:37 GMT' }), contract)).toEqual([]);
    expect(judgeExchange('message-framing', request, outcome({}), contract)).toEqual([]);
    const findings = judgeExchange('message-framing', request, outcome({ date: '1994-11-06' }, ['obs-fold here']), contract);
    expect(findings.map((f) => [f.severity, f.message.slice(0, 14)])).toEqual([
      ['failure', 'obs-fold here;'],
      ['failure', 'Date: "1994-11'],
    ]);
  });

  it('fails a connection left open after the answer to Connection: close (RFC 9112, section 9.6)', () => {
    const answer = outcome({});
    const leftOpen: HttpOutcome = answer.kind === 'response' && answer.wire !== undefined ? { ...answer, wire: { ...answer.wire, leftOpenMs: 5000 } } : answer;
    const findings = judgeExchange('message-framing', request, leftOpen, contract);
    expect(findings.map((f) => f.severity)).toEqual(['failure']);
    expect(findings[0]?.message).toMatch(/Connection: close.*still open 5000 ms.*section 9\.6/);
  });
});
