/** Reading an answer: decoded, its wire facts, the bytes after it; the words for a timeout, an early close, a socket error. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ResponseReader } from '../../../fuzz/wire/http-wire.js';
import { answerOf, closedMessage, failureOfError, partialOf, timeoutMessage } from '../../../fuzz/wire/answer.js';

const facts = { connection: 3, exchangesBefore: 1, others: [], started: 10, endedAt: 15, extra: [], extraAt: undefined, maxBytes: 1024 };

function read(...chunks: (string | Buffer)[]): ResponseReader {
  const reader = new ResponseReader({ method: 'POST', maxBodyBytes: 1024 });
  for (const chunk of chunks) reader.push(Buffer.from(chunk));
  return reader;
}

describe('answerOf', () => {
  it('decodes a gzip body and says how it came', () => {
    const body = gzipSync('{"a":1}');
    const reader = read(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${body.length}\r\n\r\n`, body);
    const { outcome, extraBytes } = answerOf(reader, facts);
    expect(extraBytes).toBeUndefined();
    expect(outcome).toMatchObject({ kind: 'response', status: 200, durationMs: 5, wire: { connection: 3, exchangesBefore: 1, framing: 'content-length', contentCodings: ['gzip'], receivedLength: body.length } });
    expect(outcome.kind === 'response' ? Buffer.from(outcome.body).toString() : '').toBe('{"a":1}');
  });

  it('keeps the bytes after the answer, and those that came while it settled', () => {
    const reader = read('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}EXTRA');
    const { outcome, extraBytes } = answerOf(reader, { ...facts, extra: [Buffer.from('MORE')], extraAt: 18 });
    expect(extraBytes).toMatchObject({ length: 9, afterMs: 0, seen: 'settling' });
    expect(outcome).toMatchObject({ wire: { extraBytes: { length: 9 } } });
    expect(answerOf(read('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'), { ...facts, extra: [Buffer.from('MORE')], extraAt: 18 }).extraBytes?.afterMs).toBe(3);
  });
});

describe('the words for an answer that did not come whole', () => {
  it('say how far it got', () => {
    const headOnly = read('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
    expect(timeoutMessage(headOnly, 50)).toBe('no complete response within 50 ms (the head came; 3 bytes of the body of 10)');
    expect(timeoutMessage(read(), 50)).toBe('no complete response within 50 ms');
    expect(closedMessage(headOnly)).toBe('the connection closed after 3 bytes of the body (Content-Length: 10)');
    expect(closedMessage(read())).toBe('the connection closed before the response was complete');
    expect(partialOf(headOnly, 2).partial).toMatchObject({ status: 200, contentLength: 10, body: Uint8Array.from(Buffer.from('ab')) });
    expect(partialOf(read(), 2)).toEqual({});
  });

  it('name socket errors', () => {
    const error = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });
    expect(failureOfError(error('ECONNRESET'))).toBe('reset');
    expect(failureOfError(error('EPIPE'))).toBe('reset');
    expect(failureOfError(error('ECONNREFUSED'))).toBe('connection-refused');
    expect(failureOfError(error('EHOSTUNREACH'))).toBe('error');
  });
});
