/**
 * The client over real sockets: it survives hostile targets (every misbehaviour comes back as an
 * outcome, never a throw or a hang), and it shows what came on the wire - bytes after an answer,
 * on an idle connection, in front of the next answer; how each body was framed and coded; which
 * other requests an answer could have been for - while a correct server's answers come back as
 * they are, over kept-alive, fresh and closing connections alike.
 */
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type LateBytes } from '../../../fuzz/wire/http-client.js';
import type { HttpOutcome, HttpRequest, WireFacts } from '../../../oracle/types.js';

const request: HttpRequest = { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"a","id":1}') };
const withId = (id: number): HttpRequest => ({ ...request, body: Buffer.from(`{"name":"a","id":${id}}`) });
const servers: Server[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const httpServers: ReturnType<typeof createHttpServer>[] = [];
const http = (handler: RequestListener): Promise<string> => {
  const server = createHttpServer(handler);
  httpServers.push(server);
  return listen(server);
};
const sockets = new Set<Socket>();
const idleTimers = new Map<Socket, NodeJS.Timeout>();
const raw = (onConnection: (socket: Socket) => void): Promise<string> =>
  listen(
    createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      onConnection(socket);
    }),
  );

interface RawRequest {
  readonly body: string;
  /** Requests on this connection so far, this one included. */
  readonly n: number;
}

/** A hand-written HTTP/1.1 server: each request (head and Content-Length body) is passed to `answer` with its socket. */
const rawHttp = (answer: (socket: Socket, request: RawRequest) => void): Promise<string> =>
  raw((socket) => {
    let buffer = Buffer.alloc(0);
    let n = 0;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffer.toString('latin1', 0, end))?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.toString('utf8', end + 4, end + 4 + length);
        buffer = buffer.subarray(end + 4 + length);
        answer(socket, { body, n: ++n });
      }
    });
  });

const ok = (body: string, length = Buffer.byteLength(body), extra = ''): string => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}${extra}\r\n\r\n${body}`;

function wireOf(outcome: HttpOutcome): WireFacts {
  if (outcome.kind !== 'response' || outcome.wire === undefined) throw new Error(`no response: ${JSON.stringify(outcome)}`);
  return outcome.wire;
}

const text = (outcome: HttpOutcome): string => (outcome.kind === 'response' ? Buffer.from(outcome.body).toString() : `${outcome.failure}: ${outcome.message}`);

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const server of httpServers.splice(0)) server.closeAllConnections();
  for (const server of servers.splice(0)) {
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('createHttpClient', () => {
  it('returns status, lower-case headers and the body bytes, over keep-alive', async () => {
    const url = await http((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Twice': ['a', 'b'] });
      req.pipe(res);
    });
    const client = createHttpClient(url);
    const outcomes = await Promise.all([client.send(request), client.send(request)]);
    client.close();
    for (const outcome of outcomes) {
      expect(outcome.kind).toBe('response');
      if (outcome.kind !== 'response') return;
      expect(outcome.status).toBe(200);
      expect(outcome.headers['x-twice']).toBe('a, b');
      expect(Buffer.from(outcome.body).toString()).toBe('{"name":"a","id":1}');
    }
  });

  it('reports bytes that are not HTTP as a malformed response', async () => {
    const url = await raw((socket) => socket.end(Buffer.from([0x00, 0xff, 0x47, 0x41, 0x52, 0x42, 0x41, 0x47, 0x45, 0x0d, 0x0a, 0x0d, 0x0a])));
    const client = createHttpClient(url);
    expect(await client.send(request)).toMatchObject({ kind: 'failure', failure: 'malformed-response' });
    client.close();
  });

  it('reports a connection reset before and during the response', async () => {
    const before = await raw((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const during = await raw((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"name"')));
    for (const url of [before, during]) {
      const client = createHttpClient(url);
      expect(await client.send(request)).toMatchObject({ kind: 'failure', failure: 'reset' });
      client.close();
    }
  });

  it('gives up on a target that never answers, within its timeout', async () => {
    const url = await http(() => undefined);
    const client = createHttpClient(url, { timeoutMs: 150 });
    const started = Date.now();
    expect(await client.send(request)).toMatchObject({ kind: 'failure', failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    client.close();
  });

  it('cuts off a response body that never ends, and one that inflates past the limit', async () => {
    const url = await http((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let open = true;
      res.on('close', () => (open = false));
      const pump = (): void => {
        while (open && res.write(chunk));
        if (open) res.once('drain', pump);
      };
      pump();
    });
    const client = createHttpClient(url, { maxResponseBytes: 256 * 1024 });
    expect(await client.send(request)).toMatchObject({ kind: 'failure', failure: 'oversized-response' });
    client.close();
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const bombing = await http((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb));
    const another = createHttpClient(bombing, { maxResponseBytes: 256 * 1024 });
    const inflated = await another.send(request);
    expect(inflated).toMatchObject({ kind: 'failure', failure: 'oversized-response' });
    expect(text(inflated)).toMatch(/decoded/);
    another.close();
  });

  it('reports a refused connection, and header values that cannot be sent', async () => {
    const url = await http((_req, res) => res.end());
    servers.pop()?.close();
    const refused = createHttpClient(url);
    expect(await refused.send(request)).toMatchObject({ kind: 'failure', failure: 'connection-refused' });
    refused.close();
    const open = await http((_req, res) => res.end());
    const client = createHttpClient(open);
    expect(await client.send({ ...request, headers: { authorization: 'Bearer a\nb' } })).toMatchObject({ kind: 'failure', failure: 'error' });
    client.close();
  });
});

describe('connections', () => {
  it('keeps up to twice `concurrency` connections alive, and sends a fresh exchange on a connection of its own, closed after it', async () => {
    const seen = new Set<unknown>();
    const url = await http((req, res) => {
      seen.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ connection: req.headers.connection ?? null }));
    });
    const client = createHttpClient(url, { concurrency: 1 });
    try {
      for (let i = 0; i < 6; i++) await client.send(request);
      expect(seen.size).toBe(2);
      const fresh = await Promise.all([1, 2, 3].map(() => client.send(request, { fresh: true })));
      expect(seen.size).toBe(5);
      for (const outcome of fresh) expect(text(outcome)).toBe('{"connection":"close"}');
      expect(fresh.map((o) => wireOf(o).exchangesBefore)).toEqual([0, 0, 0]);
    } finally {
      client.close();
    }
  });

  it('sends a field with several values on a line each, in order (extraLines: a second Authorization)', async () => {
    let head = '';
    const url = await raw((socket) =>
      socket.once('data', (chunk: Buffer) => {
        head = chunk.toString('latin1');
        socket.end(ok('{}'));
      }),
    );
    const client = createHttpClient(url);
    await client.send({ ...request, headers: { ...request.headers, authorization: 'Bearer a' }, extraLines: [['authorization', 'Bearer b']] });
    client.close();
    expect(head).toMatch(/\r\nauthorization: Bearer a\r\nauthorization: Bearer b\r\n/);
    expect(head).toMatch(/^POST \/plants HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
  });

  it('numbers connections and counts their exchanges; says how each body was framed', async () => {
    const url = await http((req, res) => {
      if (req.headers['x-framing'] === 'chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"name":');
        res.end('"a"}');
      } else res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}');
    });
    const client = createHttpClient(url, { concurrency: 1 });
    const first = await client.send(request);
    await sleep(5);
    const second = await client.send({ ...request, headers: { ...request.headers, 'x-framing': 'chunked' } });
    client.close();
    expect(wireOf(first)).toMatchObject({ connection: 1, exchangesBefore: 0, framing: 'content-length', contentLength: 2, receivedLength: 2 });
    expect(wireOf(second)).toMatchObject({ connection: 1, exchangesBefore: 1, framing: 'chunked' });
    expect(text(second)).toBe('{"name":"a"}');
    expect(wireOf(second).others).toEqual([{ request, relation: 'previous', connection: 1 }]);
  });

  it('answers a server that closes every connection (Connection: close, or a body delimited by the close)', async () => {
    const closing = await http((_req, res) => res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{}'));
    const untilClose = await raw((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"name":"a"}')));
    for (const url of [closing, untilClose]) {
      const client = createHttpClient(url, { concurrency: 2 });
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => client.send(request)));
      client.close();
      expect(outcomes.map((o) => o.kind)).toEqual(Array(10).fill('response'));
      expect(new Set(outcomes.map((o) => wireOf(o).connection)).size).toBe(10);
    }
  });

  it('opens a new connection when the server closed an idle one (a 100 ms keep-alive timeout), reporting nothing', async () => {
    const url = await rawHttp((socket) => {
      socket.write(ok('{}'));
      clearTimeout(idleTimers.get(socket));
      idleTimers.set(
        socket,
        setTimeout(() => socket.end(), 100),
      );
    });
    const late: LateBytes[] = [];
    const client = createHttpClient(url, { concurrency: 1, onLateBytes: (l) => late.push(l) });
    const first = await client.send(request);
    await sleep(300);
    const second = await client.send(request);
    client.close();
    expect([first.kind, second.kind]).toEqual(['response', 'response']);
    expect(wireOf(second).exchangesBefore).toBe(0);
    expect(late).toEqual([]);
  });

  it('sends a request again, once, when a reused connection closes before any byte of its answer (RFC 9112, section 9.3.1)', async () => {
    const url = await rawHttp((socket, { n }) => {
      if (n === 1) socket.write(ok('{}'));
      else socket.destroy();
    });
    const client = createHttpClient(url, { concurrency: 1 });
    await client.send(request);
    await sleep(5);
    const again = await client.send(request);
    client.close();
    expect(again.kind).toBe('response');
    expect(wireOf(again).exchangesBefore).toBe(0);
  });

  it('lists the requests in flight at the same time as neighbours of each other', async () => {
    const url = await http((req, res) => {
      setTimeout(() => req.pipe(res.writeHead(200, { 'content-type': 'application/json' })), 30);
    });
    const client = createHttpClient(url, { concurrency: 4 });
    const [a, b] = [withId(1), withId(2)];
    const outcomes = await Promise.all([client.send(a), client.send(b)]);
    client.close();
    expect(wireOf(outcomes[0]).others.map((o) => [o.request, o.relation])).toEqual([[b, 'concurrent']]);
    expect(wireOf(outcomes[1]).others.map((o) => [o.request, o.relation])).toEqual([[a, 'concurrent']]);
  });
});

describe('bytes nobody asked for', () => {
  it('keeps the byte after a Content-Length one short with its answer, and never reuses that connection', async () => {
    const url = await rawHttp((socket, { body }) => socket.write(ok(body, Buffer.byteLength(body) - 1)));
    const client = createHttpClient(url, { concurrency: 1 });
    const first = await client.send(withId(1));
    await sleep(5);
    const second = await client.send(withId(2));
    client.close();
    expect(text(first)).toBe('{"name":"a","id":1');
    expect(wireOf(first).extraBytes).toMatchObject({ length: 1, seen: 'settling' });
    expect(Buffer.from(wireOf(first).extraBytes?.bytes ?? []).toString()).toBe('}');
    expect(text(second)).toBe('{"name":"a","id":2');
    expect(wireOf(second).exchangesBefore).toBe(0);
  });

  it('sees every second answer written with the first (Nagle holds it until the next request), at concurrency 1 and 8, and gives every request its own answer', async () => {
    let seconds = 0;
    const url = await rawHttp((socket, { body, n }) => {
      socket.write(ok(body));
      if (n % 3 === 0) {
        seconds++;
        socket.write('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n');
      }
    });
    for (const concurrency of [1, 8]) {
      seconds = 0;
      const late: LateBytes[] = [];
      const client = createHttpClient(url, { concurrency, onLateBytes: (l) => late.push(l) });
      const requests = Array.from({ length: 60 }, (_v, i) => withId(i));
      const outcomes = await Promise.all(requests.map((r) => client.send(r)));
      // The last ones come when the delayed acknowledgement (40 ms and up) releases them.
      await sleep(300);
      client.close();
      outcomes.forEach((outcome, i) => {
        expect(text(outcome)).toBe(`{"name":"a","id":${i}}`);
      });
      // Each second answer is seen once, with its exchange or late, against the exchange it followed.
      const seen = [...outcomes.flatMap((o) => wireOf(o).extraBytes ?? []), ...late.map((l) => wireOf(l.outcome).extraBytes)];
      expect(seen).toHaveLength(seconds);
      for (const extra of seen) expect(Buffer.from(extra?.bytes ?? []).toString()).toMatch(/^HTTP\/1\.1 500/);
      for (const { after } of late) expect(outcomes).toContain(after);
    }
  });

  it('reports bytes that come on an idle connection against the exchange it carried last, and closes it', async () => {
    const url = await rawHttp((socket, { body, n }) => {
      socket.write(ok(body));
      if (n === 1) setTimeout(() => socket.write('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n'), 20);
    });
    const late: LateBytes[] = [];
    const client = createHttpClient(url, { concurrency: 1, onLateBytes: (l) => late.push(l) });
    const first = await client.send(withId(1));
    await sleep(80);
    const second = await client.send(withId(2));
    client.close();
    expect(late).toHaveLength(1);
    expect(late[0]?.after).toBe(first);
    expect(wireOf(late[0]?.outcome as HttpOutcome).extraBytes).toMatchObject({ seen: 'idle' });
    expect(Buffer.from(wireOf(late[0]?.outcome as HttpOutcome).extraBytes?.bytes ?? []).toString()).toMatch(/^HTTP\/1\.1 503/);
    expect(text(second)).toBe('{"name":"a","id":2}');
    expect(wireOf(second).connection).not.toBe(wireOf(first).connection);
  });

  it('takes a 408 before the server closes an idle connection as a goodbye, not as a stray answer (RFC 9110, section 15.5.9)', async () => {
    const url = await rawHttp((socket, { body }) => {
      socket.write(ok(body));
      setTimeout(() => socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'), 20);
    });
    const late: LateBytes[] = [];
    const client = createHttpClient(url, { concurrency: 1, onLateBytes: (l) => late.push(l) });
    await client.send(request);
    await sleep(80);
    expect((await client.send(request)).kind).toBe('response');
    client.close();
    expect(late).toEqual([]);
  });

  it('reports what the previous answer left in front of the next one against the previous one, and reads the next one', async () => {
    let held = '';
    const url = await rawHttp((socket, { body, n }) => {
      if (n === 1) {
        // The last byte of the first answer goes out with the second one.
        const answer = ok(body, Buffer.byteLength(body) - 1);
        socket.write(answer.slice(0, -1));
        held = answer.slice(-1);
      } else socket.write(held + ok(body));
    });
    const late: LateBytes[] = [];
    const client = createHttpClient(url, { concurrency: 1, onLateBytes: (l) => late.push(l) });
    const first = await client.send(withId(1));
    await sleep(5);
    const second = await client.send(withId(2));
    client.close();
    expect(text(second)).toBe('{"name":"a","id":2}');
    expect(late).toHaveLength(1);
    expect(late[0]?.after).toBe(first);
    expect(wireOf(late[0]?.outcome as HttpOutcome).extraBytes).toMatchObject({ seen: 'before-next', length: 1 });
  });

  it('gives what came of a body shorter than its Content-Length with the timeout or the close', async () => {
    const hanging = await rawHttp((socket, { body }) => socket.write(ok(body, Buffer.byteLength(body) + 1)));
    const closing = await rawHttp((socket, { body }) => socket.end(ok(body, Buffer.byteLength(body) + 1)));
    for (const [url, failure] of [
      [hanging, 'timeout'],
      [closing, 'reset'],
    ] as const) {
      const client = createHttpClient(url, { timeoutMs: 200 });
      const outcome = await client.send(request);
      client.close();
      expect(outcome).toMatchObject({ kind: 'failure', failure, partial: { status: 200, framing: 'content-length', contentLength: 20 } });
      expect(outcome.kind === 'failure' && Buffer.from(outcome.partial?.body ?? []).toString()).toBe('{"name":"a","id":1}');
    }
  });

  it('notes Content-Length with Transfer-Encoding, and does not reuse that connection', async () => {
    const url = await rawHttp((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'));
    const client = createHttpClient(url, { concurrency: 1 });
    const first = await client.send(request);
    await sleep(5);
    const second = await client.send(request);
    client.close();
    expect(wireOf(first)).toMatchObject({ lengthWithTransferEncoding: true, framing: 'chunked' });
    expect(text(first)).toBe('{}');
    expect(wireOf(second).exchangesBefore).toBe(0);
  });
});

describe('content codings', () => {
  it('decodes gzip and says so; keeps a body it cannot decode as it came, and says why', async () => {
    const url = await http((req, res) => {
      const coding = req.headers['x-coding'] as string;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(coding === 'gzip' ? gzipSync('{"name":"a"}') : '{"name":"a"}');
    });
    const client = createHttpClient(url);
    const gzip = await client.send({ ...request, headers: { 'x-coding': 'gzip' } });
    const zstd = await client.send({ ...request, headers: { 'x-coding': 'zstd' } });
    client.close();
    expect(text(gzip)).toBe('{"name":"a"}');
    expect(wireOf(gzip)).toMatchObject({ contentCodings: ['gzip'], receivedLength: gzipSync('{"name":"a"}').length });
    expect(wireOf(gzip).undecodable).toBeUndefined();
    expect(text(zstd)).toBe('{"name":"a"}');
    expect(wireOf(zstd).undecodable).toMatch(/zstd/);
  });
});
