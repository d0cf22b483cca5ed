/**
 * Servers for tests, always on an ephemeral loopback port: the reference implementation, the
 * mock, and "faulty" implementations made from the reference by one deliberate defect (a
 * transform of the request before it, or of the response after it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from '../../src/http/listen.js';
import { createApp, listen, type App, type AppOptions, type AppRequest, type AppResponse, type ListenOptions, type RunningServer } from '../../src/reference/index.js';
import { createMock, type Mock, type MockOptions } from '../../mock/index.js';

export const TEST_TOKEN = 'test-token';

/** The reference implementation on 127.0.0.1, port 0, with its app (and so its store) for tests to inspect. */
export async function startReference(options: Partial<AppOptions> = {}, listenOptions: Omit<ListenOptions, 'port' | 'host'> = {}): Promise<RunningServer & { readonly app: App }> {
  const app = createApp({ tokens: [TEST_TOKEN], ...options });
  return { ...(await listen(app, { ...listenOptions, port: 0, host: '127.0.0.1' })), app };
}

export interface RunningMock {
  readonly mock: Mock;
  readonly url: string;
  close(): Promise<void>;
}

/** The mock on 127.0.0.1, port 0. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const mock = await createMock(options);
  const running = await listen(mock, { port: 0, host: '127.0.0.1', shutdownGraceMs: 1_000 });
  return { mock, url: running.url, close: () => running.close() };
}

/**
 * One deliberate defect: given the request and what the reference would answer, what to answer
 * instead. A function takes over the raw response, for defects below HTTP semantics (bytes that
 * are not HTTP, a body that never ends).
 */
export type Fault = (request: AppRequest, correct: () => AppResponse, app: App) => AppResponse | 'reset' | 'hang' | ((res: ServerResponse) => void);

export interface RunningFaulty {
  readonly url: string;
  readonly app: App;
  close(): Promise<void>;
}

/**
 * A Plant Store with one defect. Bodies are read whole (no streaming limits): the fault sees
 * the request as the client sent it. 'reset' destroys the connection, 'hang' never answers, a
 * function writes to the raw response itself. `onServer` sees the node:http server before it
 * listens (for defects of the connection layer).
 */
export async function startFaulty(fault: Fault, options: Partial<AppOptions> = {}, onServer?: (server: Server) => void): Promise<RunningFaulty> {
  const app = createApp({ tokens: [TEST_TOKEN], ...options });
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: AppRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
      const answer = fault(request, () => app.request(request), app);
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      if (answer === 'hang') return;
      if (typeof answer === 'function') {
        answer(res);
        return;
      }
      // No Content-Length on a 204, as the kit's own server writes it (src/http/listen.ts; RFC 9110, section 8.6).
      res.writeHead(answer.status, answer.status === 204 ? answer.headers : { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  });
  // A request node:http cannot parse gets the kit's Error, Date included, as from the kit's own servers: the defect under test is elsewhere.
  answerClientErrors(server);
  onServer?.(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * For a test file that starts servers as it goes: `faulty(fault)` starts one and gives its URL,
 * `closeLater(close)` registers any other; all are closed after the file's tests.
 */
export function closedAfterAll(): { readonly faulty: (fault: Fault) => Promise<string>; readonly closeLater: (close: () => Promise<void>) => void } {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });
  return {
    faulty: async (fault) => {
      const server = await startFaulty(fault);
      closers.push(() => server.close());
      return server.url;
    },
    closeLater: (close) => closers.push(close),
  };
}
