/**
 * The client sends every framing of the `framing` kind as RFC 9112 writes it (the bytes, seen by a
 * raw server), and the kit's reference answers each as it answers the plain request: 200 for a
 * valid body however framed, 400 without Host, never a 5xx for a percent-escape.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { coverageCases } from '../../../fuzz/generation/kinds/index.js';
import { createHttpClient } from '../../../fuzz/wire/http-client.js';
import { loadContract } from '../../../src/openapi/index.js';
import { startReference, TEST_TOKEN } from '../../support/servers.js';

const contract = loadContract();
const cases = coverageCases(contract, { token: TEST_TOKEN, kinds: ['framing'] });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** A server that keeps the bytes of the first request and answers 204, closing. */
async function recorder(): Promise<{ url: string; heads: Promise<string> }> {
  let resolveHead: (text: string) => void = () => undefined;
  const heads = new Promise<string>((resolve) => {
    resolveHead = resolve;
  });
  const server = createServer((socket: Socket) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n/.test(text) && (text.endsWith('0\r\n\r\n') || text.endsWith('}'))) {
        resolveHead(text);
        socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => { resolve(); })));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads };
}

async function sentBytes(variant: RegExp): Promise<string> {
  const request = cases.find((c) => variant.test(c.variant));
  if (request === undefined) throw new Error(`no case ${String(variant)}`);
  const { url, heads } = await recorder();
  const client = createHttpClient(url);
  await client.send(request);
  client.close();
  return heads;
}

describe('the client writes each framing (RFC 9112)', () => {
  it('an absolute-form target', async () => {
    expect(await sentBytes(/absolute-form/)).toMatch(/^POST http:\/\/127\.0\.0\.1:[0-9]+\/plants HTTP\/1\.1\r\n/);
  });
  it('HTTP/1.0, with no Connection field, and with keep-alive', async () => {
    const plain = await sentBytes(/^HTTP\/1\.0 \(/);
    expect(plain).toMatch(/^POST \/plants HTTP\/1\.0\r\n/);
    expect(plain).not.toMatch(/connection:/i);
    expect(await sentBytes(/keep-alive/)).toMatch(/connection: keep-alive\r\n/);
  });
  it('no Host, Expect: 100-continue, Connection: close', async () => {
    expect(await sentBytes(/no Host/)).not.toMatch(/\r\nhost:/i);
    expect(await sentBytes(/Expect/)).toMatch(/\r\nexpect: 100-continue\r\n/);
    expect(await sentBytes(/Connection: close/)).toMatch(/\r\nconnection: close\r\n/);
  });
  it('a chunked body, without Content-Length', async () => {
    const bytes = await sentBytes(/chunked/);
    expect(bytes).toMatch(/\r\ntransfer-encoding: chunked\r\n/);
    expect(bytes).not.toMatch(/content-length/i);
    const body = bytes.slice(bytes.indexOf('\r\n\r\n') + 4);
    expect(body).toMatch(/^[0-9a-f]+\r\n\{.*\r\n[0-9a-f]+\r\n.*\}\r\n0\r\n\r\n$/s);
  });
});

describe('the reference answers each framing as the plain request', () => {
  // A spelling whose reading is open (RFC 9112 lets the server refuse it) gets node:http's 400, turned into an Error.
  it('200 to every valid one, 400 without Host or to what RFC 9112 lets it refuse, no 5xx to an escape', async () => {
    const server = await startReference();
    closers.push(() => server.close());
    const client = createHttpClient(server.url);
    const outcomes = await Promise.all(cases.map(async (c) => [c.variant, c.content, c.open !== undefined, await client.send(c)] as const));
    client.close();
    for (const [variant, content, open, outcome] of outcomes) {
      const status = outcome.kind === 'response' ? outcome.status : outcome.failure;
      expect([variant, status]).toEqual([variant, content === 'valid' && !open ? 200 : open ? expect.toBeOneOf([200, 400]) : 400]);
      if (outcome.kind === 'response') expect([variant, outcome.wire?.senderFaults]).toEqual([variant, undefined]);
    }
  });
});

describe('the server closes after its answer to Connection: close (RFC 9112, section 9.6)', () => {
  const request = cases.find((c) => /^Connection: close/.test(c.variant));
  if (request === undefined) throw new Error('no Connection: close case');

  /** A raw server that answers 200 and then closes the connection, or keeps it open. */
  async function answering(closes: boolean): Promise<string> {
    const server = createServer((socket: Socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        const answer = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';
        if (closes) socket.end(answer);
        else socket.write(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
      server.unref();
    }));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('notes nothing when the server closes', async () => {
    const client = createHttpClient(await answering(true), { timeoutMs: 2000 });
    const outcome = await client.send(request);
    client.close();
    expect(outcome.kind === 'response' ? outcome.wire?.leftOpenMs : outcome).toBeUndefined();
  });

  it('waits the request timeout for the close, then gives the answer with how long the connection stayed open', async () => {
    const client = createHttpClient(await answering(false), { timeoutMs: 300 });
    const outcome = await client.send(request);
    client.close();
    expect(outcome.kind).toBe('response');
    if (outcome.kind !== 'response') return;
    expect(outcome.status).toBe(200);
    expect(outcome.wire?.leftOpenMs).toBeGreaterThanOrEqual(250);
  });

  it('does not wait for the close after a request of the pool', async () => {
    const client = createHttpClient(await answering(false), { timeoutMs: 5000 });
    const started = Date.now();
    const { method, path, headers, body } = request;
    const outcome = await client.send({ method, path, headers, body }, { fresh: true });
    client.close();
    expect(outcome.kind === 'response' ? outcome.wire?.leftOpenMs : outcome).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
