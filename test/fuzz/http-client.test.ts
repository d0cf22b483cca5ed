/** The client survives hostile targets: every misbehaviour comes back as an outcome, never a throw or a hang. */
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, parseBaseUrl, urlFor } from '../../fuzz/http-client.js';
import type { HttpRequest } from '../../fuzz/types.js';

const request: HttpRequest = { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"a","id":1}') };
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
const raw = (onConnection: (socket: Socket) => void): Promise<string> =>
  listen(
    createNetServer((socket) => {
      sockets.add(socket);
      onConnection(socket);
    }),
  );

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

  it('cuts off a response body that never ends', async () => {
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
  });

  it('reports a refused connection, and header values node:http will not send', async () => {
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

describe('base URLs', () => {
  it('keeps a path prefix and refuses what cannot be a base URL', () => {
    expect(urlFor(parseBaseUrl('http://127.0.0.1:3000/api/'), '/plants').href).toBe('http://127.0.0.1:3000/api/plants');
    expect(urlFor(parseBaseUrl('http://127.0.0.1:3000'), '/plants').href).toBe('http://127.0.0.1:3000/plants');
    expect(() => parseBaseUrl('ftp://x')).toThrow(/only http and https/);
    expect(() => parseBaseUrl('http://x/?a=1')).toThrow(/query string/);
    expect(() => parseBaseUrl('http://u:p@x/')).toThrow(/credentials/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not a URL/);
  });
});

describe('fresh connections', () => {
  it('sends an exchange on a connection of its own, closed after it, when asked', async () => {
    const sockets = new Set<unknown>();
    const server = createHttpServer((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ connection: req.headers.connection ?? null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = createHttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { concurrency: 1 });
    try {
      for (let i = 0; i < 3; i++) await client.send(request);
      expect(sockets.size).toBe(1);
      const fresh = await Promise.all([1, 2, 3].map(() => client.send(request, { fresh: true })));
      expect(sockets.size).toBe(4);
      for (const outcome of fresh) expect(outcome.kind === 'response' && Buffer.from(outcome.body).toString()).toBe('{"connection":"close"}');
    } finally {
      client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
