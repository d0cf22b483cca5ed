/**
 * Implementations whose defect lives below HTTP semantics - bytes that are not HTTP, a response
 * that never ends - which a Fault (test/support/servers.ts) cannot express: a node:http server in
 * front of the reference app that, when its trigger fires, misbehaves on the raw socket.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App, type AppRequest } from '../../src/server/index.js';
import { TEST_TOKEN } from '../support/servers.js';

export type Misbehaviour = (request: AppRequest, res: ServerResponse, app: App) => boolean;

export interface RunningHostile {
  readonly url: string;
  close(): Promise<void>;
}

export async function startHostile(misbehave: Misbehaviour): Promise<RunningHostile> {
  const app = createApp({ tokens: [TEST_TOKEN] });
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: AppRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
      if (misbehave(request, res, app)) return;
      const answer = app.request(request);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Bytes that are not an HTTP response (a crashed proxy, a TLS or binary protocol on the port). */
export function sendGarbage(res: ServerResponse): void {
  res.socket?.end(Buffer.from([0x00, 0xff, 0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x0a, 0x47, 0x41, 0x52, 0x42, 0x41, 0x47, 0x45, 0x0d, 0x0a, 0x0d, 0x0a]));
}

/** A 200 whose JSON body never ends, written as fast as the client reads, until it hangs up. */
export function sendEndlessBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const chunk = Buffer.from('{"name":"Monstera","id":1},'.repeat(2048));
  let open = true;
  res.on('close', () => {
    open = false;
  });
  const pump = (): void => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  pump();
}
