/**
 * The socket layer (node:http) that serves any pipeline - the reference's or the mock's: it reads
 * the head and asks the pipeline before reading any of the body, reads the body up to the size
 * limit, answers every failure - including the ones node:http would answer with an empty body
 * (408, 431, a request that is not HTTP, CONNECT, a missing Host) - with an Error, closes after an
 * early answer without losing it (linger.ts), and shuts down gracefully. A server of the kit that
 * is not a pipeline (the checking proxy) takes the parts it needs: `listenOn` (listening and
 * graceful shutdown), `answerClientErrors` and `answerWith`.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PlantStoreError, type ErrorCode } from './errors.js';
import { errorResponse, type AppResponse, type Fault } from './exchange.js';
import { DEFAULT_LINGER, isLingering, lingerAfterAnswer, type LingerLimits } from './linger.js';
import { isAnswered, type Admitted, type Answered, type Pipeline } from './pipeline.js';
import { requestLine } from './request-log.js';
import { ROUTE_RULE, tooLarge } from './rules.js';

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
  /** After an early answer, the most bytes of the rest of the body read and discarded before the connection closes (linger.ts; default 16 MiB). */
  readonly lingerBytes?: number;
  /** After an early answer, the longest the connection waits for the rest of the body before it closes (default 5 s). */
  readonly lingerMs?: number;
  /** After an early answer, the longest the client may send nothing before the connection closes (default 1 s). */
  readonly lingerIdleMs?: number;
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

/** The servers createPlantServer made: they mark their connections in use themselves (listenOn). */
const plantServers = new WeakSet<Server>();

/** Requests that sent `Expect: 100-continue` and wait for a 100 before they send their body. */
const continuing = new WeakSet<IncomingMessage>();

/** Connections held without an answer on purpose (`fault=timeout`): close() ends them at once. */
const withheld = new WeakSet<Socket>();

/** Answers the socket layer broke on purpose, for the request log. */
const faulted = new WeakMap<ServerResponse, Fault>();

/**
 * What `fault=garbage` writes: bytes no HTTP client can read as a status line (a NUL, bytes that
 * are not ASCII), then words for whoever looks at them in a capture.
 */
const GARBAGE = Buffer.concat([Buffer.from([0x00, 0xff, 0xfe, 0x9c, 0x01]), Buffer.from(' plant-store: not HTTP, as asked (Prefer: fault=garbage)\r\n\r\n', 'latin1')]);

export function createPlantServer<A extends Admitted>(pipeline: Pipeline<A>, options: Omit<ListenOptions, 'port' | 'host' | 'shutdownGraceMs'> = {}): Server {
  const log = options.log;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const linger: LingerLimits = { bytes: options.lingerBytes ?? DEFAULT_LINGER.bytes, ms: options.lingerMs ?? DEFAULT_LINGER.ms, idleMs: options.lingerIdleMs ?? DEFAULT_LINGER.idleMs };
  const logLine = (method: string | undefined, url: string | undefined, status: number | string, started: number): void => {
    log?.(requestLine(method, url, status, started));
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // A request after an early answer that closes the connection is not answered (RFC 9112,
    // section 9.6): the connection closes once the answer before it is out.
    if (isLingering(req.socket)) return;
    served.add(req.socket);
    if (log) {
      const started = performance.now();
      // One listener per request (the hot path): 'close' follows every answer, finished or
      // broken on purpose (which never finishes), and only once (so no once() wrapper); an answer
      // to a client gone is not logged.
      res.on('close', () => {
        const fault = faulted.get(res);
        if (fault !== undefined) logLine(req.method, req.url, `fault=${fault}`, started);
        else if (res.writableFinished) logLine(req.method, req.url, res.statusCode, started);
      });
    }
    handle(pipeline, server, req, res, linger);
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
    const head = pipeline.head(req);
    const answer = isAnswered(head) ? head : pipeline.refuse(req, new PlantStoreError('method_not_allowed', 'method: CONNECT is not allowed'), ROUTE_RULE);
    void Promise.resolve(answer).then((response) => {
      if (response.fault === undefined) writeRaw(socket, response);
      else commitFault(socket, response, false);
      logLine(req.method, req.url, response.fault === undefined ? response.status : `fault=${response.fault}`, started);
    });
  });
  answerClientErrors(server);
  plantServers.add(server);
  return server;
}

/**
 * What node:http would answer with an empty body - a request that is not HTTP, a head over the
 * limit, a request not received in time - answered with an Error instead, on any server of the kit.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'malformed_request';
    const message = code === 'request_timeout' ? 'request: not received in time' : code === 'headers_too_large' ? 'headers: larger than the limit' : `request: not valid HTTP/1.1 (${error.code ?? 'parse error'})`;
    writeRaw(socket, errorResponse(new PlantStoreError(code, message)));
  });
}

/** An answer written straight to a socket that node:http no longer manages; the connection closes after it. */
function writeRaw(socket: Socket, response: AppResponse): void {
  const body = Buffer.from(response.body, 'utf8');
  socket.end(Buffer.concat([rawHead(response, body.length, true), body]));
}

/** The status line and header fields of an answer, as bytes. */
function rawHead(response: AppResponse, contentLength: number, close: boolean): Buffer {
  // Date, as node:http writes it on every other answer (RFC 9110, section 6.6.1: an origin server with a clock MUST send it).
  const fields = Object.entries({ ...response.headers, date: new Date().toUTCString(), 'content-length': String(contentLength), ...(close ? { connection: 'close' } : {}) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.from(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${fields}\r\n`, 'latin1');
}

function handle<A extends Admitted>(pipeline: Pipeline<A>, server: Server, req: IncomingMessage, res: ServerResponse, linger: LingerLimits): void {
  const head =
    req.httpVersion === '1.1' && req.headers.host === undefined
      ? pipeline.refuse(req, new PlantStoreError('malformed_request', 'host: the Host header is required in HTTP/1.1 (RFC 9112, section 3.2)'), 'host')
      : pipeline.head(req);
  if (isAnswered(head)) {
    // A body nobody will read is discarded and the connection kept, unless the client declared
    // (or may send, chunked) more than the limit: then the connection closes after the answer,
    // and lingers until the client has sent the rest (bounded).
    const declared = req.headers['content-length'];
    const smallBody = req.headers['transfer-encoding'] === undefined && (declared === undefined || Number(declared) <= pipeline.maxBodyBytes);
    if (smallBody) req.resume();
    else lingerAfterAnswer(req, linger);
    respond(server, res, head, !smallBody);
    return;
  }
  const admitted = head;
  if (continuing.delete(req)) res.writeContinue();
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > pipeline.maxBodyBytes) {
      // Answered at once; the rest of the body is read and thrown away while the connection lingers.
      req.off('data', onData);
      chunks.length = 0;
      lingerAfterAnswer(req, linger);
      respond(server, res, pipeline.refuse(req, tooLarge(pipeline.maxBodyBytes), 'size'), true);
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => {
    if (size > pipeline.maxBodyBytes) return;
    respond(server, res, pipeline.body(req, admitted, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)), false);
  });
  // No 'error' listener: node emits a request's 'error' (a client gone mid-body) only to listeners,
  // and there is nobody to answer then; nothing was stored.
}

/** Writes the pipeline's answer; a synchronous one at once (the reference's hot path). */
function respond(server: Server, res: ServerResponse, answer: Answered, close: boolean): void {
  if (answer instanceof Promise) {
    void answer.then((response) => {
      send(res, response, close || !server.listening);
    });
    return;
  }
  send(res, answer, close || !server.listening);
}

/** Writes an answer of the server's own (the admin path's, say) to a request whose body it does not need: that body is read and dropped. */
export function answerWith(req: IncomingMessage, res: ServerResponse, response: AppResponse): void {
  req.resume();
  send(res, response, false);
}

function send(res: ServerResponse, response: AppResponse, close: boolean): void {
  if (res.headersSent || res.destroyed) return;
  if (response.fault !== undefined) {
    faulted.set(res, response.fault);
    commitFault(res.socket, response, res.req.method === 'HEAD');
    return;
  }
  // A flat [name, value, ...] list: node takes it as it is, where an object would be copied and
  // its keys walked once more on every response (the hot path of every request).
  const headers: (string | number)[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  // RFC 9110, section 8.6: no Content-Length on a 204 (the answer to a CORS preflight); an answer
  // to HEAD carries GET's own (pipeline.ts).
  if (response.status !== 204 && response.headers['content-length'] === undefined) headers.push('content-length', Buffer.byteLength(response.body));
  if (close) headers.push('connection', 'close');
  res.writeHead(response.status, headers as string[]);
  res.end(response.body);
}

/**
 * Breaks an answer on purpose, as asked (the mock's `Prefer: fault=…`, outside the contract by
 * design). node:http still thinks the request is being answered; the connection ends (or, for a
 * timeout, waits) without it.
 */
function commitFault(socket: Socket | null, response: AppResponse, head: boolean): void {
  if (socket === null || socket.destroyed) return;
  switch (response.fault) {
    case 'reset':
      // A TCP RST instead of a FIN: the client reads ECONNRESET.
      socket.resetAndDestroy();
      return;
    case 'timeout':
      // Nothing is written; close() of the server ends the connection at once.
      withheld.add(socket);
      return;
    case 'garbage':
      socket.end(GARBAGE);
      return;
    case 'truncated': {
      // The head declares the whole body; half of it follows, then the connection closes.
      const body = Buffer.from(response.body, 'utf8');
      socket.end(Buffer.concat([rawHead(response, body.length, false), head ? Buffer.alloc(0) : body.subarray(0, Math.floor(body.length / 2))]));
      return;
    }
    case undefined:
      return;
  }
}

/** Serves a pipeline; resolves once it listens. Port 0 picks a free port. */
export function listen<A extends Admitted>(pipeline: Pipeline<A>, options: ListenOptions = {}): Promise<RunningServer> {
  return listenOn(createPlantServer(pipeline, options), { ...options, port: options.port ?? 3000 });
}

/** Where a server listens and how it shuts down (`listenOn`). */
export interface SocketOptions {
  /** Default 3000; 0 picks a free port. */
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** How long shutdown waits for requests in flight before closing their connections (default 10 s). */
  readonly shutdownGraceMs?: number | undefined;
}

/**
 * The listening and closing half of the socket layer, for any node:http server of the kit (the
 * pipeline's, the checking proxy's): resolves once it listens. Its `close()` stops accepting
 * connections, closes idle ones and those that never sent a request (or are withheld on purpose),
 * lets requests in flight finish for the grace period, then closes the rest. Idempotent.
 */
export function listenOn(server: Server, options: SocketOptions = {}): Promise<RunningServer> {
  const grace = options.shutdownGraceMs ?? 10_000;
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // A request marks its connection as in use, whoever answers it; createPlantServer's servers mark
  // their own, so that every request of theirs calls one listener, not two (the hot path).
  if (!plantServers.has(server)) {
    server.on('request', (req: IncomingMessage) => {
      served.add(req.socket);
    });
  }
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
            for (const socket of connections) if (!served.has(socket) || withheld.has(socket)) socket.destroy();
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

