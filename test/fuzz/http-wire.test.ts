/**
 * The strict response reader (fuzz/wire/http-wire.ts) against RFC 9112's framing: each way a body
 * ends, what comes after an answer, and what is not HTTP. Every answer is also fed in pieces cut
 * at random places (a property test; it prints its seed): where the bytes break must not matter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseReader, WireError, writeRequestHead } from '../../fuzz/wire/http-wire.js';

const MAX = 1024 * 1024;

function read(text: string | Buffer, options: { method?: string; allowLeftover?: boolean; maxBodyBytes?: number; close?: boolean } = {}): ResponseReader {
  const reader = new ResponseReader({ method: options.method ?? 'POST', maxBodyBytes: options.maxBodyBytes ?? MAX, ...(options.allowLeftover === undefined ? {} : { allowLeftover: options.allowLeftover }) });
  reader.push(typeof text === 'string' ? Buffer.from(text, 'latin1') : text);
  if (options.close === true) reader.end();
  return reader;
}

function refusal(text: string, options: { allowLeftover?: boolean; maxBodyBytes?: number } = {}): WireError {
  try {
    read(text, options);
  } catch (error) {
    if (error instanceof WireError) return error;
    throw error;
  }
  throw new Error(`read without an error: ${JSON.stringify(text)}`);
}

const BODY = '{"name":"a","id":1}';
const withLength = (body: string, length = Buffer.byteLength(body), extra = ''): string => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${length}${extra}\r\n\r\n${body}`;
const chunked = (...chunks: string[]): string => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('')}0\r\n\r\n`;

describe('framing (RFC 9112, section 6.3)', () => {
  it('reads a body by its Content-Length, and keeps what comes after it apart', () => {
    const reader = read(withLength(BODY) + 'HTTP/1.1 200 OK\r\n');
    expect(reader.complete).toBe(true);
    expect(reader.head).toMatchObject({ status: 200, framing: 'content-length', contentLength: BODY.length, persistent: true });
    expect(reader.head?.headers['content-type']).toBe('application/json');
    expect(reader.body.toString()).toBe(BODY);
    expect(reader.rest.toString()).toBe('HTTP/1.1 200 OK\r\n');
  });

  it('leaves the byte a Content-Length one short does not count as the rest, and waits for the one it counts too many', () => {
    const short = read(withLength(BODY, BODY.length - 1));
    expect(short.complete).toBe(true);
    expect(short.rest.toString()).toBe('}');
    const long = read(withLength(BODY, BODY.length + 1));
    expect(long.complete).toBe(false);
    expect(long.bodyLength).toBe(BODY.length);
    expect(long.end()).toBe(false);
  });

  it('reads chunked bodies, with extensions, trailers and bare LF line ends', () => {
    const reader = read(chunked('{"name":', '"a"}'));
    expect(reader.complete).toBe(true);
    expect(reader.head?.framing).toBe('chunked');
    expect(reader.body.toString()).toBe('{"name":"a"}');
    const fancy = read('HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5;name=value\n{"a":\n2\n1}\n0\nTrailer-Field: x\n\nrest');
    expect(fancy.body.toString()).toBe('{"a":1}');
    expect(fancy.rest.toString()).toBe('rest');
  });

  it('refuses a chunk longer than its size and a size that is not hex', () => {
    expect(refusal('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n').message).toMatch(/longer than its chunk size/);
    expect(refusal('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n').message).toMatch(/not a chunk size/);
  });

  it('reads a body without a length until the close, and then nothing can follow it', () => {
    const reader = read('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"name":');
    expect(reader.complete).toBe(false);
    reader.push(Buffer.from('"a"}'));
    expect(reader.end()).toBe(true);
    expect(reader.head).toMatchObject({ framing: 'close', persistent: false });
    expect(reader.body.toString()).toBe('{"name":"a"}');
  });

  it('gives no body to a 204, a 304 and the answer to a HEAD, whatever their fields say', () => {
    expect(read('HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n').complete).toBe(true);
    expect(read('HTTP/1.1 304 Not Modified\r\n\r\n').complete).toBe(true);
    expect(read(withLength(BODY), { method: 'HEAD' }).rest.toString()).toBe(BODY);
  });

  it('lets Transfer-Encoding override Content-Length, notes it, and keeps nothing after (section 6.3, item 3)', () => {
    const reader = read(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`);
    expect(reader.body.toString()).toBe('{}');
    expect(reader.head).toMatchObject({ framing: 'chunked', lengthWithTransferEncoding: true, contentLength: 3, persistent: false });
  });

  it('takes repeated equal Content-Lengths as one, and refuses differing or invalid ones (section 6.3, item 5)', () => {
    expect(read(withLength(BODY, BODY.length, `\r\nContent-Length: ${BODY.length}`)).body.toString()).toBe(BODY);
    expect(read(`HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\n{}`).body.toString()).toBe('{}');
    expect(refusal(withLength(BODY, BODY.length, '\r\nContent-Length: 3')).message).toMatch(/invalid Content-Length/);
    for (const bad of ['-1', '+2', '0x10', '1 2', '']) expect(refusal(`HTTP/1.1 200 OK\r\nContent-Length: ${bad}\r\n\r\n`).failure).toBe('malformed-response');
  });

  it('knows when a connection can be reused (section 9.3)', () => {
    expect(read(withLength(BODY, BODY.length, '\r\nConnection: close')).head?.persistent).toBe(false);
    expect(read(withLength(BODY, BODY.length, '\r\nConnection: Keep-Alive, Close')).head?.persistent).toBe(false);
    expect(read(withLength(BODY).replace('HTTP/1.1', 'HTTP/1.0')).head?.persistent).toBe(false);
    expect(read(withLength(BODY, BODY.length, '\r\nConnection: keep-alive').replace('HTTP/1.1', 'HTTP/1.0')).head?.persistent).toBe(true);
  });
});

describe('the head', () => {
  it('skips interim answers before the final one, and joins repeated and folded fields', () => {
    const reader = read(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\nX-Folded: one\r\n  two\r\nContent-Length: 2\r\n\r\n{}`);
    expect(reader.interim).toBe(2);
    expect(reader.head?.headers['x-a']).toBe('1, 2');
    expect(reader.head?.headers['x-folded']).toBe('one two');
  });

  it('accepts a status line without a reason phrase', () => {
    expect(read('HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n').head?.status).toBe(200);
    expect(read('HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n').head?.status).toBe(200);
  });

  it('refuses what is not HTTP/1.1 at once, without waiting for a whole head', () => {
    expect(refusal('\x00\xffGARBAGE').message).toMatch(/not an HTTP\/1\.1 status line/);
    expect(refusal('HTTP/2 200\r\n\r\n').message).toMatch(/status line/);
    expect(refusal('HTTP/1.1 2000 OK\r\n\r\n').message).toMatch(/status line/);
    expect(refusal('HTTP/1.1 101 Switching Protocols\r\n\r\n').message).toMatch(/101/);
  });

  // Read as a recipient may (RFC 9112, sections 2.2 and 5.1; RFC 9110, section 5.5), each noted as a sender's fault (answer-grammar.test.ts).
  it('reads malformed fields as a recipient may, and notes each: whitespace before the colon, no colon, NUL, a bare CR', () => {
    const spaced = read('HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\n{}');
    expect([spaced.head?.contentLength, spaced.senderFaults]).toEqual([2, [expect.stringMatching(/whitespace between the field name Content-Length and its colon/)]]);
    expect(read('HTTP/1.1 200 OK\r\nnonsense\r\nContent-Length: 0\r\n\r\n').senderFaults).toEqual([expect.stringMatching(/not a field line/)]);
    const nul = read('HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 0\r\n\r\n');
    expect([nul.head?.headers['x-a'], nul.senderFaults]).toEqual(['a b', [expect.stringMatching(/control character/)]]);
    const cr = read('HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n');
    expect([cr.head?.headers['x-a'], cr.senderFaults]).toEqual(['a b', [expect.stringMatching(/bare CR/)]]);
  });

  it('refuses heads and bodies over their limits', () => {
    expect(refusal(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`).failure).toBe('oversized-response');
    expect(refusal(withLength('x'.repeat(100)), { maxBodyBytes: 50 }).failure).toBe('oversized-response');
    expect(refusal(chunked('x'.repeat(40), 'y'.repeat(40)), { maxBodyBytes: 50 }).failure).toBe('oversized-response');
    expect(() => read(`HTTP/1.1 200 OK\r\n\r\n${'z'.repeat(60)}`, { maxBodyBytes: 50 })).toThrow(WireError);
  });
});

describe('leftovers on a reused connection', () => {
  it('takes bytes in front of a status line as left over from the previous answer, only where allowed', () => {
    const reader = read(`}${withLength(BODY)}`, { allowLeftover: true });
    expect(reader.leftover?.toString()).toBe('}');
    expect(reader.body.toString()).toBe(BODY);
    expect(refusal(`}${withLength(BODY)}`).failure).toBe('malformed-response');
    expect(refusal('}garbage\r\n\r\n', { allowLeftover: true }).failure).toBe('malformed-response');
  });
});

describe('bytes in pieces', () => {
  const answers = [withLength(BODY) + 'HTTP/1.1 500 Later\r\n', chunked('{"name":', '"a"}', '') + 'x', `HTTP/1.1 100 Continue\r\n\r\n${withLength('{}')}`, withLength(BODY, BODY.length - 1)];

  it('reads every answer the same wherever the bytes are cut (seeded property)', () => {
    const whole = answers.map((text) => {
      const reader = read(text);
      return { body: reader.body.toString(), rest: reader.rest.toString(), status: reader.head?.status };
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: answers.length - 1 }), fc.array(fc.integer({ min: 1, max: 200 }), { maxLength: 40 }), (which, cuts) => {
        const bytes = Buffer.from(answers[which] ?? '', 'latin1');
        const reader = new ResponseReader({ method: 'POST', maxBodyBytes: MAX });
        let at = 0;
        for (const cut of cuts) {
          reader.push(bytes.subarray(at, Math.min(bytes.length, at + cut)));
          at = Math.min(bytes.length, at + cut);
        }
        reader.push(bytes.subarray(at));
        expect({ body: reader.body.toString(), rest: reader.rest.toString(), status: reader.head?.status }).toEqual(whole[which]);
      }),
      { seed: 20240611, numRuns: 300 },
    );
  });
});

describe('writeRequestHead', () => {
  it('writes the request line, Host, the fields, the body length and Connection: close when asked', () => {
    const head = writeRequestHead({ method: 'POST', target: '/plants?a=1', host: '127.0.0.1:3000', headers: { 'content-type': 'application/json', 'content-length': '999' }, bodyLength: 19, close: true }).toString('latin1');
    expect(head).toBe('POST /plants?a=1 HTTP/1.1\r\nhost: 127.0.0.1:3000\r\ncontent-type: application/json\r\ncontent-length: 19\r\nconnection: close\r\n\r\n');
  });

  it('keeps a Host the request brings, and refuses what cannot be sent', () => {
    expect(writeRequestHead({ method: 'POST', target: '/', host: 'h', headers: { host: 'other' }, bodyLength: 0, close: false }).toString()).not.toContain('host: h');
    expect(() => writeRequestHead({ method: 'POST', target: '/', host: 'h', headers: { authorization: 'Bearer a\nb' }, bodyLength: 0, close: false })).toThrow(/authorization/);
    expect(() => writeRequestHead({ method: 'POST', target: '/', host: 'h', headers: { 'bad name': 'x' }, bodyLength: 0, close: false })).toThrow(/header name/);
    expect(() => writeRequestHead({ method: 'POST', target: '/a b', host: 'h', headers: {}, bodyLength: 0, close: false })).toThrow(/request target/);
  });
});
