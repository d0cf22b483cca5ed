/**
 * The reference server on a real socket (node:http): reads the head, answers from `admit()`
 * before reading any of the body, reads the body up to the size limit, and answers every
 * failure - including the ones node:http would answer with an empty body - with an Error.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PlantStoreError, type ErrorCode } from '../http/index.js';
import { errorResponse, internalError, type Admitted, type AppResponse, type Headers } from './app.js';

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
  /** A request whose head has not arrived by then gets a 408 Error (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** A request not received whole by then gets a 408 Error (default 30 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Told the exception behind every 500 (a defect of the kit; the client gets only an Error that
   * says so). Default: its stack trace on stderr, whether or not requests are logged.
   */
  readonly onDefect?: (cause: unknown) => void;
}

/** The default `onDefect`: a defect is never silent, even with `--quiet`. */
export function reportDefect(cause: unknown): void {
  const detail = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
  process.stderr.write(`plant-store: a request was answered 500 because of a defect of the kit: ${detail}\n`);
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Connections on which a request has begun. node's closeIdleConnections() leaves alone a
 * connection that has not sent one yet (browsers open such connections ahead of need), which
 * would hold shutdown for the whole grace period; close() ends those itself.
 */
const served = new WeakSet<Socket>();

/** Requests that sent `Expect: 100-continue` and wait for a 100 before they send their body. */
const continuing = new WeakSet<IncomingMessage>();

/** A body this many times over the limit is not drained any further: the connection is cut. */
const DRAIN_FACTOR = 16;

export function createPlantServer<A extends object>(app: Gate<A>, options: Omit<ListenOptions, 'port' | 'host' | 'shutdownGraceMs'> = {}): Server {
  const log = options.log;
  const onDefect = options.onDefect ?? reportDefect;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const logLine = (method: string | undefined, url: string | undefined, status: number, started: number): void => {
    // The path only: a query string may carry an access_token (RFC 6750, section 2.3).
    log?.(`${new Date().toISOString()} ${method ?? '-'} ${(url ?? '-').split('?', 1)[0] ?? '-'} ${status} ${(performance.now() - started).toFixed(2)}ms`);
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    served.add(req.socket);
    const started = log ? performance.now() : 0;
    if (log) {
      res.once('finish', () => {
        logLine(req.method, req.url, res.statusCode, started);
      });
    }
    handle(app, server, req, res, onDefect);
  };
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: 5_000,
      // Timeouts are only looked at this often (node's default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
      // node would answer a missing Host with an empty 400; handle() answers it with an Error.
      requireHostHeader: false,
      // node keeps the first of two Authorization (or Content-Type) fields and drops the other;
      // joined, two sets of credentials are one malformed set (a 401), never a silent choice.
      joinDuplicateHeaders: true,
    },
    onRequest,
  );
  // Expect: 100-continue - the head is judged (credentials first) before the client is told to
  // send the body, so a refused request gets its final status instead (RFC 9110, section 10.1.1).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continuing.add(req);
    onRequest(req, res);
  });
  // Any other expectation is ignored rather than answered with node's empty 417 (RFC 9110 allows both).
  server.on('checkExpectation', onRequest);
  // CONNECT is no operation of the contract; without this node would drop the connection silently.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    served.add(socket);
    const started = log ? performance.now() : 0;
    let response: AppResponse;
    try {
      const admitted = app.admit(req.method ?? 'CONNECT', req.url ?? '', req.headers);
      response = isResponse(admitted) ? admitted : errorResponse(new PlantStoreError('method_not_allowed', 'method: CONNECT is not allowed'));
    } catch (cause) {
      response = internalError(cause);
    }
    if (response.cause !== undefined) onDefect(response.cause);
    writeRaw(socket, response);
    logLine(req.method, req.url, response.status, started);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'malformed_request';
    const message = code === 'request_timeout' ? 'request: not received in time' : code === 'headers_too_large' ? 'headers: larger than the limit' : `request: not valid HTTP/1.1 (${error.code ?? 'parse error'})`;
    writeRaw(socket, errorResponse(new PlantStoreError(code, message)));
  });
  return server;
}

/** An answer written straight to a socket that node:http no longer manages; the connection closes after it. */
function writeRaw(socket: Socket, response: AppResponse): void {
  const head = Object.entries({ ...response.headers, 'content-length': String(Buffer.byteLength(response.body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${head}\r\n${response.body}`);
}

function handle<A extends object>(app: Gate<A>, server: Server, req: IncomingMessage, res: ServerResponse, onDefect: (cause: unknown) => void): void {
  let admitted: A | AppResponse;
  try {
    admitted =
      req.httpVersion === '1.1' && req.headers.host === undefined
        ? errorResponse(new PlantStoreError('malformed_request', 'host: the Host header is required in HTTP/1.1 (RFC 9112, section 3.2)'))
        : app.admit(req.method ?? '', req.url ?? '/', req.headers);
  } catch (cause) {
    admitted = internalError(cause);
  }
  if (isResponse(admitted)) {
    // A body nobody will read is discarded and the connection kept, unless the client declared
    // (or may send, chunked) more than the limit: then it closes rather than reading it all.
    const declared = req.headers['content-length'];
    const smallBody = req.headers['transfer-encoding'] === undefined && (declared === undefined || Number(declared) <= app.maxBodyBytes);
    respond(app, server, req, res, admitted, !smallBody, onDefect);
    req.resume();
    return;
  }
  const head = admitted;
  if (continuing.delete(req)) res.writeContinue();
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
      respond(app, server, req, res, app.bodyTooLarge(), true, onDefect);
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
    respond(app, server, req, res, response, false, onDefect);
  });
  // No 'error' listener: node emits a request's 'error' (a client gone mid-body) only to listeners,
  // and there is nobody to answer then; nothing was stored.
}

/** Writes the gate's answer; a synchronous answer with no `finish` step is written at once (the reference's hot path). */
function respond<A extends object>(
  app: Gate<A>,
  server: Server,
  req: IncomingMessage,
  res: ServerResponse,
  answer: AppResponse | Promise<AppResponse>,
  close: boolean,
  onDefect: (cause: unknown) => void,
): void {
  if (app.finish === undefined && !(answer instanceof Promise)) {
    if (answer.cause !== undefined) onDefect(answer.cause);
    send(res, answer, close || !server.listening);
    return;
  }
  const request = { method: req.method ?? '', headers: req.headers };
  Promise.resolve(answer)
    .then((response) => (app.finish ? app.finish(response, request) : response))
    .catch(internalError)
    .then(
      (response) => {
        if (response.cause !== undefined) onDefect(response.cause);
        send(res, response, close || !server.listening);
      },
      () => undefined,
    );
}

function send(res: ServerResponse, response: AppResponse, close: boolean): void {
  if (res.headersSent) return;
  // A flat [name, value, ...] list: node takes it as it is, where an object would be copied and
  // its keys walked once more on every response (the hot path of every request).
  const headers: (string | number)[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  // RFC 9110, section 8.6: no Content-Length on a 204 (the mock's answer to a CORS preflight).
  if (response.status !== 204) headers.push('content-length', Buffer.byteLength(response.body));
  if (close) headers.push('connection', 'close');
  res.writeHead(response.status, headers as string[]);
  res.end(response.body);
}

/** Starts the server; resolves once it listens. Port 0 picks a free port. */
export function listen<A extends object>(app: Gate<A>, options: ListenOptions = {}): Promise<RunningServer> {
  const server = createPlantServer(app, options);
  const grace = options.shutdownGraceMs ?? 10_000;
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
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
            for (const socket of connections) if (!served.has(socket)) socket.destroy();
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

