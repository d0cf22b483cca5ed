/**
 * The reference server on a real socket (node:http): reads the head, answers from `admit()`
 * before reading any of the body, reads the body up to the size limit, and answers every
 * failure - including the ones node:http would answer with an empty body - with an Error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { errorBodyText, ERROR_CATALOGUE, type ErrorCode } from '../http/index.js';
import { internalError, type Admitted, type AppResponse, type Headers } from './app.js';

/**
 * What the socket layer drives: the reference app, or the mock's front. `admit` sees the head
 * only, so that a request can be refused before any of its body is read; `complete` answers from
 * the whole body - synchronously for the reference, asynchronously where the answer comes from
 * elsewhere (Prism, for the mock).
 */
export interface Gate<A extends object = Admitted> {
  readonly maxBodyBytes: number;
  /** The request may go on (its body is then read), or the answer to give at once. */
  admit(method: string, url: string, headers: Headers): A | AppResponse;
  complete(admitted: A, body: Uint8Array): AppResponse | Promise<AppResponse>;
  /** The answer to a body that went over the limit while it was read. */
  bodyTooLarge(): AppResponse;
  /** Applied to every answer of the gate just before it is written (the mock adds CORS headers and latency). */
  finish?(response: AppResponse, request: { readonly method: string; readonly headers: Headers }): AppResponse | Promise<AppResponse>;
}

function isResponse(value: object): value is AppResponse {
  return 'status' in value;
}

export interface ListenOptions {
  readonly port?: number;
  readonly host?: string;
  /** One line per request (no credentials); undefined for none. */
  readonly log?: (line: string) => void;
  /** How long shutdown waits for requests in flight before closing their connections. */
  readonly shutdownGraceMs?: number;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/** A body this many times over the limit is not drained any further: the connection is cut. */
const DRAIN_FACTOR = 16;

export function createPlantServer<A extends object>(app: Gate<A>, options: Pick<ListenOptions, 'log'> = {}): Server {
  const log = options.log;
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }, (req, res) => {
    const started = log ? performance.now() : 0;
    if (log) {
      res.once('finish', () => {
        // The path only: a query string may carry an access_token (RFC 6750, section 2.3).
        log(`${new Date().toISOString()} ${req.method ?? '-'} ${(req.url ?? '-').split('?', 1)[0] ?? '-'} ${res.statusCode} ${(performance.now() - started).toFixed(2)}ms`);
      });
    }
    handle(app, server, req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'malformed_request';
    const status = ERROR_CATALOGUE[code].status;
    const message = code === 'request_timeout' ? 'request: not received in time' : code === 'headers_too_large' ? 'headers: larger than the limit' : `request: not valid HTTP/1.1 (${error.code ?? 'parse error'})`;
    const body = errorBodyText(status, message);
    socket.end(`HTTP/1.1 ${status} ${code.replace(/_/g, ' ')}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  return server;
}

function handle<A extends object>(app: Gate<A>, server: Server, req: IncomingMessage, res: ServerResponse): void {
  let admitted: A | AppResponse;
  try {
    admitted = app.admit(req.method ?? '', req.url ?? '/', req.headers);
  } catch (cause) {
    admitted = internalError(cause);
  }
  if (isResponse(admitted)) {
    respond(app, server, req, res, admitted, false);
    req.resume(); // discard a body nobody will read; the connection stays usable
    return;
  }
  const head = admitted;
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (over) {
      if (size > app.maxBodyBytes * DRAIN_FACTOR) req.destroy();
      return;
    }
    if (size > app.maxBodyBytes) {
      over = true;
      chunks.length = 0;
      // Answer at once and close after: the rest of the body is read and thrown away.
      respond(app, server, req, res, app.bodyTooLarge(), true);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return;
    let response: AppResponse | Promise<AppResponse>;
    try {
      response = app.complete(head, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    } catch (cause) {
      response = internalError(cause);
    }
    respond(app, server, req, res, response, false);
  });
  req.on('error', () => {
    // The client went away mid-body: there is nobody to answer, and nothing was stored.
  });
}

/** Writes the gate's answer; a synchronous answer with no `finish` step is written at once (the reference's hot path). */
function respond<A extends object>(app: Gate<A>, server: Server, req: IncomingMessage, res: ServerResponse, answer: AppResponse | Promise<AppResponse>, close: boolean): void {
  if (app.finish === undefined && !(answer instanceof Promise)) {
    send(res, answer, close || !server.listening);
    return;
  }
  const request = { method: req.method ?? '', headers: req.headers };
  Promise.resolve(answer)
    .then((response) => (app.finish ? app.finish(response, request) : response))
    .catch(internalError)
    .then((response) => {
      send(res, response, close || !server.listening);
    }, () => undefined);
}

function send(res: ServerResponse, response: AppResponse, close: boolean): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...response.headers };
  // RFC 9110, section 8.6: no Content-Length on a 204 (the mock's answer to a CORS preflight).
  if (response.status !== 204) headers['content-length'] = Buffer.byteLength(response.body);
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.body);
}

/** Starts the server; resolves once it listens. Port 0 picks a free port. */
export function listen<A extends object>(app: Gate<A>, options: ListenOptions = {}): Promise<RunningServer> {
  const server = createPlantServer(app, options.log ? { log: options.log } : {});
  const grace = options.shutdownGraceMs ?? 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { port, address, family } = server.address() as AddressInfo;
      const host = family === 'IPv6' ? `[${address}]` : address;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        port,
        url: `http://${host}:${port}`,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            const force = setTimeout(() => {
              server.closeAllConnections();
            }, grace);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          })),
      });
    });
  });
}

/** Lines written in batches off the request path, so logging never blocks a response. */
export function batchedLog(write: (text: string) => void): { log: (line: string) => void; flush: () => void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('\n') + '\n';
    pending = [];
    write(text);
  };
  return {
    log: (line) => {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

