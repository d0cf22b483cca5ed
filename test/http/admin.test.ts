/**
 * The admin path's router (src/http/admin.ts), which every server of the kit asks first, and the
 * socket layer's listening and closing half (listenOn) on a server that is no pipeline.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/openapi/index.js';
import { adminRouter, answerClientErrors, listenOn, type AdminRoutes } from '../../src/http/index.js';
import { RawConnection, rawExchange, rawRequest, send } from '../support/http.js';

const contract = loadContract();
const seen: string[] = [];
const routes: AdminRoutes = (request, path, query) => {
  seen.push(`${request.method ?? ''} ${path} ${query}`);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
};

describe('adminRouter: the admin path first, nothing else', () => {
  it('a request under /__plant-store (the prefix itself or below it) gets the routes’ answer, with its path and query; any other undefined', () => {
    const router = adminRouter(contract, routes);
    seen.length = 0;
    expect(router({ method: 'GET', url: '/__plant-store/requests?after=3', headers: {} })?.status).toBe(200);
    expect(router({ method: 'GET', url: '/__plant-store', headers: {} })?.status).toBe(200);
    expect(router({ method: 'GET', url: '/__plant-storey', headers: {} })).toBeUndefined();
    expect(router({ method: 'GET', url: '/other?x=/__plant-store/', headers: {} })).toBeUndefined();
    expect(seen).toEqual(['GET /__plant-store/requests after=3', 'GET /__plant-store ']);
  });

  it('with cors, a preflight there is granted without asking the routes, and an answer is readable from any origin', () => {
    const router = adminRouter(contract, routes, { cors: true });
    seen.length = 0;
    const origin = { origin: 'http://page.example', 'access-control-request-method': 'DELETE' };
    const preflight = router({ method: 'OPTIONS', url: '/__plant-store/requests', headers: origin });
    expect(preflight?.status).toBe(204);
    expect(seen).toEqual([]);
    const answer = router({ method: 'GET', url: '/__plant-store/requests', headers: { origin: 'http://page.example' } });
    expect(answer?.headers['access-control-allow-origin']).toBeDefined();
  });

  it('a contract that declares a path under the admin path is refused: the admin path may never hide an operation', () => {
    const hiding: Contract = { ...contract, operations: [...contract.operations, { ...(contract.operations[0] as Contract['operations'][number]), path: '/__plant-store/x' }] };
    expect(() => adminRouter(hiding, routes)).toThrow(/reserved admin path/);
  });
});

describe('listenOn: the socket layer for a server that is no pipeline', () => {
  const answerLater = (ms: number) => (_req: IncomingMessage, res: ServerResponse): void => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('done');
    }, ms);
  };

  it('close(): a request in flight finishes; a connection that never sent a request does not hold it; idempotent', async () => {
    // A grace longer than the test's timeout: only close() ending the idle connection itself lets it pass.
    const running = await listenOn(createServer(answerLater(300)), { port: 0, shutdownGraceMs: 60_000 });
    const idle = await RawConnection.open(running.port);
    const inFlight = send(running.url, { method: 'GET', path: '/', headers: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = running.close();
    expect(running.close()).toBe(closing);
    await idle.closed;
    expect((await inFlight).body.toString()).toBe('done');
    await closing;
    expect(running.server.listening).toBe(false);
  });

  it('answerClientErrors: a request that is not HTTP gets a 400 Error, not node’s empty answer', async () => {
    const server = createServer((_req, res) => res.end());
    answerClientErrors(server);
    const running = await listenOn(server, { port: 0 });
    try {
      const answer = await rawExchange(running.port, rawRequest('GET / NOT-HTTP/9\nHost: x'));
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/json');
      expect((JSON.parse(answer.body.toString()) as { error: number }).error).toBe(400);
    } finally {
      await running.close();
    }
  });
});
