/**
 * `Prefer: delay` and `Prefer: fault` over real sockets, as a client sees them: what bytes arrive
 * and how the connection ends - a reset (RST: ECONNRESET), bytes that are not HTTP, a head with
 * half its body, nothing at all until the server stops (without holding up its shutdown) - and,
 * without a Prefer, the normal answer on a kept connection. node's own HTTP client is asked too,
 * for the error a frontend's client library would see.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJournal, type Journal } from '../../src/http/index.js';
import { declaredExamples } from '../support/expect-answer.js';
import { rawRequest } from '../support/http.js';
import { startMock, type RunningMock } from '../support/servers.js';

const BODY = '{"name":"Fern","id":1}';
const EXAMPLE = JSON.stringify(declaredExamples()[0]?.[2]);

const head = (prefer?: string): string =>
  rawRequest(`POST /plants HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer any-token\nContent-Type: application/json\nContent-Length: ${String(BODY.length)}${prefer === undefined ? '' : `\nPrefer: ${prefer}`}`, BODY);

interface Seen {
  readonly bytes: Buffer;
  /** How the connection ended: reset by the server, closed by it, or still open when we stopped waiting. */
  readonly ended: 'reset' | 'closed' | 'open';
  /** When the first byte arrived, if one did. */
  readonly firstByteMs: number | undefined;
}

/** Sends raw bytes on a fresh connection and reads whatever comes back until the connection ends or `waitMs` passes. */
function exchange(port: number, data: string, waitMs = 3_000): Promise<Seen> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let reset = false;
    let firstByteMs: number | undefined;
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), ended: 'open', firstByteMs });
    }, waitMs);
    socket.on('data', (chunk: Buffer) => {
      firstByteMs ??= performance.now() - started;
      chunks.push(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reset = error.code === 'ECONNRESET';
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(chunks), ended: reset ? 'reset' : 'closed', firstByteMs });
    });
  });
}

/** What node's HTTP client makes of it: the status and body, or its error code. */
function nodeClient(port: number, prefer: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/plants', agent: false, headers: { authorization: 'Bearer any-token', 'content-type': 'application/json', prefer } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => {
        resolve(`${String(res.statusCode)} ${body}`);
      });
      res.on('error', (error: NodeJS.ErrnoException) => {
        resolve(`${String(res.statusCode)} then ${error.code ?? error.message}`);
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
    req.end(BODY);
  });
}

describe('faults and delays, over a socket', () => {
  let server: RunningMock;
  let journal: Journal;
  let port: number;
  beforeAll(async () => {
    journal = createJournal();
    server = await startMock({ journal });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  it('without Prefer: the normal answer, and the connection stays open', async () => {
    const seen = await exchange(port, head(), 500);
    const text = seen.bytes.toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.endsWith(`\r\n\r\n${EXAMPLE}`)).toBe(true);
    expect(seen.ended).toBe('open');
  });

  it('delay=300: the normal answer, no sooner than 300 ms', async () => {
    const seen = await exchange(port, head('delay=300'), 1_000);
    expect(seen.bytes.toString('utf8')).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{/);
    expect(seen.firstByteMs).toBeGreaterThanOrEqual(300);
    expect(journal.list().at(-1)).toMatchObject({ answer: { status: 200, delayMs: 300 } });
    expect(journal.list().at(-1)?.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('fault=reset: nothing arrives and the connection is reset (ECONNRESET)', async () => {
    const seen = await exchange(port, head('fault=reset'));
    expect([seen.bytes.length, seen.ended]).toEqual([0, 'reset']);
    expect(await nodeClient(port, 'fault=reset')).toBe('ECONNRESET');
  });

  it('fault=garbage: bytes that are not HTTP, then the connection closes', async () => {
    const seen = await exchange(port, head('fault=garbage'));
    expect(seen.bytes.length).toBeGreaterThan(0);
    expect(seen.bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
    expect(seen.ended).toBe('closed');
    expect(await nodeClient(port, 'fault=garbage')).toMatch(/^HPE_/);
  });

  it('fault=truncated: the head declares the whole body, half of it arrives, then the connection closes', async () => {
    const seen = await exchange(port, head('fault=truncated'));
    const text = seen.bytes.toString('utf8');
    const split = text.indexOf('\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.slice(0, split)).toContain(`content-length: ${String(Buffer.byteLength(EXAMPLE))}`);
    expect(text.slice(split + 4)).toBe(EXAMPLE.slice(0, Math.floor(EXAMPLE.length / 2)));
    expect(seen.ended).toBe('closed');
    expect(await nodeClient(port, 'fault=truncated')).toMatch(/^200 then (ECONNRESET|aborted)/);
  });

  it('a fault on a refusal too: a request without credentials and fault=reset is reset', async () => {
    const seen = await exchange(port, rawRequest(`POST /plants HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: 2\nPrefer: fault=reset`, '{}'));
    expect([seen.bytes.length, seen.ended]).toEqual([0, 'reset']);
    expect(journal.list().at(-1)).toMatchObject({ verdict: { outcome: 'refused', rule: 'credentials' }, answer: { status: 401, fault: 'reset' } });
  });

  it('the journal holds every fault, each with the answer that was not (or half) sent', () => {
    const faults = journal.list().flatMap((entry) => (entry.answer.fault === undefined ? [] : [entry.answer.fault]));
    expect(new Set(faults)).toEqual(new Set(['reset', 'garbage', 'truncated']));
  });
});

describe('fault=timeout', () => {
  it('sends nothing, holds the connection until the server stops, and does not hold up its shutdown', async () => {
    const server = await startMock();
    const port = Number(new URL(server.url).port);
    const pending = exchange(port, head('fault=timeout'), 10_000);
    // Nothing for a while: the client would give up on its own timeout.
    const early = await exchange(port, head('fault=timeout'), 700);
    expect([early.bytes.length, early.ended]).toEqual([0, 'open']);
    const stopping = performance.now();
    await server.close();
    // Well under the mock's one-second grace: a withheld answer is not a request in flight worth waiting for.
    expect(performance.now() - stopping).toBeLessThan(500);
    const seen = await pending;
    expect(seen.bytes.length).toBe(0);
    expect(seen.ended).not.toBe('open');
  });
});
