/**
 * Pipelined requests over real sockets (RFC 9112, section 9.3.2): all written before any answer is
 * read, the answers read in order whatever segments they come in, each handed on with the other
 * requests of the pipeline as its neighbours; what a server closes on unanswered comes back
 * `unanswered`, and what it reads and never answers times out.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sendPipelined, type PipelinedResult } from '../../../fuzz/wire/pipelined-exchange.js';
import type { HttpRequest } from '../../../oracle/types.js';

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

const plant = (id: number): HttpRequest => ({ method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: Buffer.from(`{"name":"p${id}","id":${id}}`) });
const requests = [plant(1), plant(2), plant(3)];
const answer = (body: string, close = false): string => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${close ? 'connection: close\r\n' : ''}\r\n${body}`;

/** A raw server given every byte the connection brought so far; it writes what it likes. */
async function serve(onBytes: (socket: Socket, text: string) => void): Promise<URL> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      onBytes(socket, text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

/** The bodies the requests carried, in the order they came, once all three are in. */
const bodiesOf = (text: string): string[] => [...text.matchAll(/\{[^}]*\}/g)].map((m) => m[0]);

const bodyOf = (result: PipelinedResult | undefined): string => (result === undefined || result === 'unanswered' ? String(result) : result.kind === 'response' ? Buffer.from(result.body).toString() : `${result.failure}: ${result.message}`);

const options = { timeoutMs: 500, maxResponseBytes: 1024 * 1024 };

describe('sendPipelined', () => {
  it('writes every request before reading, and reads the answers in order from one segment or byte by byte', async () => {
    let seen = '';
    const oneSegment = await serve((socket, text) => {
      seen = text;
      if (bodiesOf(text).length === 3) socket.write(bodiesOf(text).map((b) => answer(b)).join(''));
    });
    const together = await sendPipelined(oneSegment, requests, options);
    expect(together.map(bodyOf)).toEqual(requests.map((r) => Buffer.from(r.body).toString()));
    expect(seen.match(/POST \/plants HTTP\/1\.1\r\n/g)).toHaveLength(3);
    expect(seen).not.toMatch(/connection: close/i);
    const byteByByte = await serve((socket, text) => {
      if (bodiesOf(text).length !== 3) return;
      for (const byte of Buffer.from(bodiesOf(text).map((b) => answer(b)).join(''))) socket.write(Buffer.from([byte]));
    });
    expect((await sendPipelined(byteByByte, requests, options)).map(bodyOf)).toEqual(together.map(bodyOf));
  });

  it('gives each answer the other requests of the pipeline as neighbours', async () => {
    const url = await serve((socket, text) => {
      if (bodiesOf(text).length === 3) socket.write(bodiesOf(text).map((b) => answer(b)).join(''));
    });
    const [first] = await sendPipelined(url, requests, options);
    if (first === undefined || first === 'unanswered' || first.kind !== 'response') throw new Error('no answer');
    expect(first.wire?.others.map((o) => [o.relation, Buffer.from(o.request.body).toString()])).toEqual([
      ['pipelined', '{"name":"p2","id":2}'],
      ['pipelined', '{"name":"p3","id":3}'],
    ]);
  });

  it('gives the bytes a body shorter than its Content-Length left in front of the next answer to the answer that left them', async () => {
    const url = await serve((socket, text) => {
      const bodies = bodiesOf(text);
      if (bodies.length === 3) socket.write(bodies.map((b, i) => (i === 0 ? answer(b).replace(/content-length: (\d+)/, (_m, n: string) => `content-length: ${Number(n) - 1}`) : answer(b))).join(''));
    });
    const [first, second, third] = await sendPipelined(url, requests, options);
    if (first === undefined || first === 'unanswered' || first.kind !== 'response') throw new Error('no first answer');
    expect(first.wire?.extraBytes).toMatchObject({ length: 1, seen: 'before-next' });
    expect([bodyOf(second), bodyOf(third)]).toEqual(['{"name":"p2","id":2}', '{"name":"p3","id":3}']);
  });

  it('leaves unanswered what the server closed on: after an answer that says close, or after a close without a word', async () => {
    const saysClose = await serve((socket, text) => {
      if (bodiesOf(text).length === 3) socket.end(answer(bodiesOf(text)[0] ?? '', true));
    });
    expect((await sendPipelined(saysClose, requests, options)).map(bodyOf)).toEqual(['{"name":"p1","id":1}', 'unanswered', 'unanswered']);
    const justCloses = await serve((socket, text) => {
      if (bodiesOf(text).length === 3) socket.end(answer(bodiesOf(text)[0] ?? ''));
    });
    expect((await sendPipelined(justCloses, requests, options)).map(bodyOf)).toEqual(['{"name":"p1","id":1}', 'unanswered', 'unanswered']);
  });

  it('times out what the server read and never answered, the connection open, and says which', async () => {
    const url = await serve((socket, text) => {
      if (bodiesOf(text).length === 3) socket.write(answer(bodiesOf(text)[0] ?? ''));
    });
    const results = await sendPipelined(url, requests, options);
    expect(bodyOf(results[0])).toBe('{"name":"p1","id":1}');
    expect(bodyOf(results[1])).toMatch(/^timeout: no complete response within 500 ms to request 2 of 3 pipelined on one connection \(the 1 before it were answered\)/);
    expect(bodyOf(results[2])).toMatch(/^timeout: .* request 3 of 3/);
  });
});
