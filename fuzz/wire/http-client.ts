/**
 * The engine's HTTP client: HTTP/1.1 over its own kept-alive connections (node:net, node:tls),
 * read with the strict reader of http-wire.ts, a deadline on every exchange and a cap on response
 * size. It never throws and never hangs: whatever a hostile target does (garbage bytes, a reset,
 * silence, an endless body) comes back as an HttpOutcome.
 *
 * It reads the wire itself because the checks need to see it, and the field's clients hide it:
 * - node:http drops a second answer that arrives with the first (it destroys the socket
 *   quietly), reads bytes a kept-alive connection received while idle as the answer to its next
 *   request, reports a Content-Length one byte short as a parse error of the *next* answer, and
 *   one byte long as a bare timeout;
 * - undici is strict about framing and closes a connection that carries anything unexpected, but
 *   says so only in a `disconnect` event of the connection, after the request it belongs to has
 *   succeeded - with the truncated body of a short Content-Length as its answer - and with the
 *   same "bad response" whatever the bytes were. It would also be a new runtime dependency.
 * So every exchange here reports what came on the wire: how the body was framed, the content
 * codings (decoded: gzip, deflate, br), bytes after the answer, and the requests whose answer it
 * could have been instead (WireFacts in types.ts).
 *
 * Keeping answers attributable to their request, at any concurrency:
 * - after an answer is complete, the exchange waits one more turn of the event loop before it
 *   hands the outcome on: bytes the server wrote right after the answer (a second answer, the rest
 *   of a body longer than its Content-Length) arrive by then and belong to this exchange;
 * - an idle kept-alive connection is read all the time: bytes on it belong to the exchange it
 *   carried last, and are reported through `onLateBytes` (a server may say goodbye with a 408
 *   before it closes an idle connection, RFC 9110, section 15.5.9: that is not reported);
 * - on a reused connection the request's head goes out without its final CRLF first, and the
 *   rest only after the connection had a turn to deliver what is pending: an answer that comes
 *   before its request was complete cannot be its answer. This is what catches a second answer a
 *   server with Nagle's algorithm on holds back until the client's next segment acknowledges the
 *   first - it would otherwise arrive as the answer to the next request, at every concurrency.
 *   The bytes are reported against the previous exchange and the request goes on a new connection;
 * - the pool keeps twice `concurrency` connections and hands out the one that rested longest, so
 *   that every connection rests between two exchanges and late bytes show there; bytes in front of
 *   an answer's status line are recognised as left over and reported all the same;
 * - a connection that carried anything unexpected is closed, never reused.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as connectTls } from 'node:tls';
import { codingList, codingName, decodeCodings } from '../codings.js';
import { headerLines } from '../header-lines.js';
import { ResponseReader, WireError, writeRequestHead } from '../http-wire.js';
import type { ExtraBytes, HttpOutcome, HttpRequest, NeighbourRequest, PartialResponse, TransportFailure, WireFacts } from '../types.js';

export interface ClientOptions {
  /** Requests in flight at most; the pool keeps up to twice as many connections. Default 8. */
  readonly concurrency?: number;
  /** Deadline for a whole exchange, from sending to the last byte of the response. Default 5000. */
  readonly timeoutMs?: number;
  /** A response body larger than this (as received, or decoded) is cut off and reported. Default 1 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Bytes that came on a kept-alive connection after the outcome of its last exchange was handed
   * on: called with that outcome, and the same outcome with the bytes in its wire facts.
   */
  readonly onLateBytes?: (late: LateBytes) => void;
}

export interface LateBytes {
  /** The outcome of the exchange the connection carried last, as `send` returned it. */
  readonly after: HttpOutcome;
  /** That outcome with the late bytes in `wire.extraBytes`: what the checks judge again. */
  readonly outcome: HttpOutcome;
}

export interface SendOptions {
  readonly fresh?: boolean;
}

export interface HttpClient {
  readonly baseUrl: URL;
  /**
   * One exchange. `fresh`: on a connection of its own, opened for it and closed after it
   * (`Connection: close`), instead of one of the kept-alive pool's.
   */
  send(request: HttpRequest, options?: SendOptions): Promise<HttpOutcome>;
  /** Closes every connection. */
  close(): void;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** A connection that rested less than this is not reused while the pool may still grow. */
const MIN_REST_MS = 1;
/** How long bytes on an idle connection are collected before they are reported. */
const STRAY_WINDOW_MS = 20;
/** Extra bytes kept for messages. */
const EXTRA_KEPT = 512;
/** Neighbouring requests kept per exchange (a slow exchange overlaps many). */
const MAX_OTHERS = 256;

/** Base URLs the engine can talk to: http and https, no credentials, query or fragment. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`only http and https base URLs are supported, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new TypeError('the base URL cannot have a query string or a fragment');
  if (url.username !== '' || url.password !== '') throw new TypeError('the base URL cannot carry credentials; use --token');
  return url;
}

/** The full URL of a request: the base URL's path, then the operation's path and query string. */
export function urlFor(baseUrl: URL, path: string): URL {
  const url = new URL(baseUrl.href);
  const mark = path.indexOf('?');
  url.pathname = url.pathname.replace(/\/+$/, '') + (mark === -1 ? path : path.slice(0, mark));
  if (mark !== -1) url.search = path.slice(mark);
  return url;
}

function classify(error: NodeJS.ErrnoException): TransportFailure {
  const code = error.code ?? '';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  return 'error';
}

type Result = HttpOutcome | 'retry';

interface Exchange {
  readonly request: HttpRequest;
  readonly connection: number;
  readonly reader: ResponseReader;
  readonly started: number;
  readonly others: NeighbourRequest[];
  readonly timer: NodeJS.Timeout;
  readonly resolve: (result: Result) => void;
  /** When the answer was complete. */
  endedAt?: number;
  /** Bytes after the answer, while it settled. */
  extra: Buffer[];
  extraAt?: number;
  settled: boolean;
  /** On a reused connection, until the end of the request's head is sent: bytes now cannot answer it. */
  holding: boolean;
  early: Buffer[];
}

type ConnectionState = 'busy' | 'idle' | 'stray' | 'closed';

interface Connection {
  readonly id: number;
  readonly socket: Socket;
  readonly fresh: boolean;
  state: ConnectionState;
  /** Exchanges completed on it. */
  exchanges: number;
  current: Exchange | undefined;
  last?: { readonly request: HttpRequest; readonly outcome: HttpOutcome; readonly endedAt: number };
  releasedAt: number;
  /** Set once the server closed its side. */
  ended: boolean;
  stray: Buffer[];
  strayAt?: number;
  strayTimer?: NodeJS.Timeout;
}

/** Whether bytes on an idle connection are a 408 the server sent before closing it (RFC 9110, section 15.5.9). */
function isGoodbye(bytes: Buffer): boolean {
  try {
    const reader = new ResponseReader({ method: 'GET', maxBodyBytes: 64 * 1024 });
    reader.push(bytes);
    reader.end();
    return reader.complete && reader.head?.status === 408 && reader.rest.length === 0;
  } catch {
    return false;
  }
}

function extraOf(chunks: readonly Buffer[], afterMs: number, seen: ExtraBytes['seen']): ExtraBytes {
  const all = Buffer.concat(chunks);
  return { bytes: Uint8Array.from(all.subarray(0, EXTRA_KEPT)), length: all.length, afterMs, seen };
}

/** An outcome with late bytes added to what the client saw. */
function withExtra(outcome: HttpOutcome, extra: ExtraBytes): HttpOutcome {
  if (outcome.kind !== 'response' || outcome.wire === undefined) return outcome;
  return { ...outcome, wire: { ...outcome.wire, extraBytes: extra } };
}

export function createHttpClient(baseUrl: string | URL, options: ClientOptions = {}): HttpClient {
  const base = typeof baseUrl === 'string' ? parseBaseUrl(baseUrl) : baseUrl;
  const secure = base.protocol === 'https:';
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const port = Number(base.port || (secure ? 443 : 80));
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const poolSize = concurrency * 2;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const onLateBytes = options.onLateBytes;

  let nextId = 1;
  /** Kept-alive connections open (or opening), busy or idle. */
  let pooled = 0;
  /** Idle kept-alive connections, the one that rested longest first. */
  const idle: Connection[] = [];
  const waiting: ((connection: Connection) => void)[] = [];
  const all = new Set<Connection>();
  const active = new Set<Exchange>();
  let closed = false;

  const late = (connection: Connection, extra: ExtraBytes): void => {
    const last = connection.last;
    if (last === undefined || onLateBytes === undefined) return;
    onLateBytes({ after: last.outcome, outcome: withExtra(last.outcome, extra) });
  };

  const discard = (connection: Connection): void => {
    if (connection.state === 'closed') return;
    connection.state = 'closed';
    clearTimeout(connection.strayTimer);
    connection.socket.destroy();
    all.delete(connection);
    const at = idle.indexOf(connection);
    if (at !== -1) idle.splice(at, 1);
    if (!connection.fresh) {
      pooled--;
      // Someone waits for a connection and there is room for one again.
      const next = closed ? undefined : waiting.shift();
      if (next !== undefined) next(open(false));
    }
  };

  const release = (connection: Connection): void => {
    connection.current = undefined;
    if (connection.ended || closed) {
      discard(connection);
      return;
    }
    connection.releasedAt = performance.now();
    const next = waiting.shift();
    if (next !== undefined) {
      connection.state = 'busy';
      next(connection);
      return;
    }
    connection.state = 'idle';
    idle.push(connection);
  };

  const reportStray = (connection: Connection): void => {
    const bytes = Buffer.concat(connection.stray);
    const afterMs = (connection.strayAt ?? 0) - (connection.last?.endedAt ?? 0);
    if (!(connection.ended && isGoodbye(bytes))) late(connection, extraOf([bytes], afterMs, 'idle'));
    discard(connection);
  };

  const partialOf = (reader: ResponseReader): { partial?: PartialResponse } => {
    const head = reader.head;
    if (head === undefined) return {};
    const body = reader.body;
    return {
      partial: { status: head.status, headers: head.headers, framing: head.framing, ...(head.contentLength === undefined ? {} : { contentLength: head.contentLength }), body: Uint8Array.from(body.subarray(0, maxBytes)) },
    };
  };

  /** Ends an exchange that got no (complete) answer, and the connection with it. */
  const fail = (connection: Connection, exchange: Exchange, failure: TransportFailure, message: string, retry = false): void => {
    if (exchange.settled) return;
    exchange.settled = true;
    clearTimeout(exchange.timer);
    active.delete(exchange);
    discard(connection);
    exchange.resolve(retry ? 'retry' : { kind: 'failure', failure, message, durationMs: performance.now() - exchange.started, ...partialOf(exchange.reader) });
  };

  /** The answer is complete and has settled: hand it on, and keep the connection if nothing is wrong with it. */
  const finish = (connection: Connection, exchange: Exchange): void => {
    if (exchange.settled) return;
    exchange.settled = true;
    clearTimeout(exchange.timer);
    active.delete(exchange);
    const reader = exchange.reader;
    const head = reader.head;
    const endedAt = exchange.endedAt ?? performance.now();
    if (head === undefined) {
      discard(connection);
      exchange.resolve({ kind: 'failure', failure: 'reset', message: 'the connection closed before the response was complete', durationMs: endedAt - exchange.started });
      return;
    }
    const received = reader.body;
    const contentCodings = codingList(head.headers['content-encoding']).filter((c) => c !== 'identity');
    const transferCodings = head.transferCodings.filter((c) => c !== 'chunked').map(codingName);
    // Content codings were applied first, transfer codings after them (RFC 9112, section 7).
    const decoded = contentCodings.length + transferCodings.length === 0 ? { body: received, rawDeflate: false } : decodeCodings([...contentCodings, ...transferCodings], received, maxBytes);
    const extraChunks = [reader.rest, ...exchange.extra].filter((b) => b.length > 0);
    const extraBytes = extraChunks.length === 0 ? undefined : extraOf(extraChunks, (reader.rest.length > 0 ? endedAt : (exchange.extraAt ?? endedAt)) - endedAt, 'settling');
    const wire: WireFacts = {
      connection: connection.id,
      exchangesBefore: connection.exchanges,
      framing: head.framing,
      ...(head.contentLength === undefined ? {} : { contentLength: head.contentLength }),
      ...(head.lengthWithTransferEncoding ? { lengthWithTransferEncoding: true } : {}),
      receivedLength: received.length,
      contentCodings,
      transferCodings,
      ...('error' in decoded ? { undecodable: decoded.error } : {}),
      ...('rawDeflate' in decoded && decoded.rawDeflate ? { rawDeflate: true } : {}),
      ...(extraBytes === undefined ? {} : { extraBytes }),
      others: exchange.others,
    };
    const durationMs = endedAt - exchange.started;
    const outcome: HttpOutcome =
      'error' in decoded && decoded.oversized === true
        ? { kind: 'failure', failure: 'oversized-response', message: decoded.error, durationMs }
        : { kind: 'response', status: head.status, headers: head.headers, body: 'body' in decoded ? decoded.body : received, durationMs, wire };
    connection.exchanges++;
    connection.last = { request: exchange.request, outcome, endedAt };
    if (head.persistent && !connection.fresh && extraBytes === undefined && connection.state === 'busy') release(connection);
    else discard(connection);
    exchange.resolve(outcome);
  };

  const onData = (connection: Connection, chunk: Buffer): void => {
    const exchange = connection.current;
    if (connection.state === 'idle' || connection.state === 'stray') {
      // Nobody asked for these bytes: collect them a moment, then report them against the last exchange.
      if (connection.state === 'idle') {
        connection.state = 'stray';
        connection.strayAt = performance.now();
        const at = idle.indexOf(connection);
        if (at !== -1) idle.splice(at, 1);
        connection.strayTimer = setTimeout(() => {
          reportStray(connection);
        }, STRAY_WINDOW_MS);
      }
      connection.stray.push(chunk);
      return;
    }
    if (connection.state !== 'busy' || exchange === undefined || exchange.settled) return;
    if (exchange.holding) {
      exchange.early.push(chunk);
      return;
    }
    if (exchange.endedAt !== undefined) {
      exchange.extra.push(chunk);
      exchange.extraAt ??= performance.now();
      return;
    }
    const reader = exchange.reader;
    const hadLeftover = reader.leftover !== undefined;
    try {
      reader.push(chunk);
    } catch (error) {
      if (error instanceof WireError) fail(connection, exchange, error.failure, error.message);
      else fail(connection, exchange, 'error', `the response could not be read: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (!hadLeftover && reader.leftover !== undefined) {
      // What the previous answer left on the connection: its finding, not this answer's.
      late(connection, extraOf([reader.leftover], performance.now() - (connection.last?.endedAt ?? 0), 'before-next'));
    }
    if (reader.complete) settle(connection, exchange);
  };

  /** Waits one more turn of the event loop (a poll for I/O included) before the outcome is handed on. */
  const settle = (connection: Connection, exchange: Exchange): void => {
    exchange.endedAt = performance.now();
    if (connection.ended) {
      finish(connection, exchange);
      return;
    }
    setImmediate(() => {
      setImmediate(() => {
        finish(connection, exchange);
      });
    });
  };

  const onEnd = (connection: Connection, error?: NodeJS.ErrnoException): void => {
    connection.ended = true;
    const exchange = connection.current;
    if (connection.state === 'stray') {
      clearTimeout(connection.strayTimer);
      reportStray(connection);
      return;
    }
    if (connection.state !== 'busy' || exchange === undefined || exchange.settled) {
      discard(connection);
      return;
    }
    if (exchange.endedAt !== undefined) {
      finish(connection, exchange);
      return;
    }
    const reader = exchange.reader;
    if (error === undefined && reader.end()) {
      settle(connection, exchange);
      return;
    }
    // A kept-alive connection the server closed while it sat idle, as our request went out: not
    // the target's fault; the request is sent again on a new connection (RFC 9112, section 9.3.1).
    const retry = connection.exchanges > 0 && !reader.started;
    if (error !== undefined) {
      const kind = classify(error);
      fail(connection, exchange, kind, `${error.code ?? 'error'}: ${error.message}`, retry && kind === 'reset');
      return;
    }
    const what = reader.head === undefined ? 'before the response was complete' : `after ${reader.bodyLength} bytes of the body${reader.head.contentLength === undefined ? '' : ` (Content-Length: ${reader.head.contentLength})`}`;
    fail(connection, exchange, 'reset', `the connection closed ${what}`, retry);
  };

  const open = (fresh: boolean): Connection => {
    const socket = secure ? connectTls({ host: hostname, port, ALPNProtocols: ['http/1.1'], ...(isIP(hostname) === 0 ? { servername: hostname } : {}) }) : connectTcp({ host: hostname, port });
    socket.setNoDelay(true);
    const connection: Connection = { id: nextId++, socket, fresh, state: 'busy', exchanges: 0, current: undefined, releasedAt: 0, ended: false, stray: [] };
    if (!fresh) pooled++;
    all.add(connection);
    socket.on('data', (chunk: Buffer) => {
      onData(connection, chunk);
    });
    socket.on('end', () => {
      onEnd(connection);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      onEnd(connection, error);
    });
    socket.on('close', () => {
      if (connection.state !== 'closed') onEnd(connection);
    });
    return connection;
  };

  /** The idle connection that rested longest, a new one while the pool may grow, or the next one released. */
  const acquire = (): Promise<Connection> => {
    const rested = idle[0];
    if (rested !== undefined && (performance.now() - rested.releasedAt >= MIN_REST_MS || pooled >= poolSize)) {
      idle.shift();
      rested.state = 'busy';
      return Promise.resolve(rested);
    }
    if (pooled < poolSize) return Promise.resolve(open(false));
    return new Promise((resolve) => waiting.push(resolve));
  };

  const exchangeOn = (connection: Connection, request: HttpRequest, head: Buffer): Promise<Result> =>
    new Promise((resolve) => {
      const others: NeighbourRequest[] = [];
      if (connection.last !== undefined) others.push({ request: connection.last.request, relation: 'previous', connection: connection.id });
      const exchange: Exchange = {
        request,
        connection: connection.id,
        reader: new ResponseReader({ method: request.method, maxBodyBytes: maxBytes, allowLeftover: connection.exchanges > 0 }),
        started: performance.now(),
        others,
        timer: setTimeout(() => {
          const what = exchange.reader.head === undefined ? '' : ` (the head came; ${exchange.reader.bodyLength} bytes of the body${exchange.reader.head.contentLength === undefined ? '' : ` of ${exchange.reader.head.contentLength}`})`;
          fail(connection, exchange, 'timeout', `no complete response within ${timeoutMs} ms${what}`);
        }, timeoutMs),
        resolve,
        extra: [],
        settled: false,
        holding: connection.exchanges > 0,
        early: [],
      };
      for (const other of active) {
        if (others.length < MAX_OTHERS) others.push({ request: other.request, relation: 'concurrent', connection: other.connection });
        if (other.others.length < MAX_OTHERS) other.others.push({ request, relation: 'concurrent', connection: connection.id });
      }
      active.add(exchange);
      connection.current = exchange;
      const bytes = request.body.length === 0 ? head : Buffer.concat([head, request.body]);
      if (!exchange.holding) {
        connection.socket.write(bytes);
        return;
      }
      // A reused connection: all but the head's final CRLF goes first, then the connection gets a
      // turn to deliver what is pending on it - a second answer a server with Nagle's algorithm
      // holds until this segment acknowledges the first. Whatever comes now came before the
      // request was complete, so it cannot answer it: it is the previous exchange's, and the
      // request goes again on a new connection.
      connection.socket.write(bytes.subarray(0, head.length - 2));
      setImmediate(() => {
        setImmediate(() => {
          if (exchange.settled) return;
          exchange.holding = false;
          if (exchange.early.length > 0) {
            late(connection, extraOf(exchange.early, performance.now() - (connection.last?.endedAt ?? 0), 'before-next'));
            fail(connection, exchange, 'reset', 'bytes came before the request was complete', true);
            return;
          }
          connection.socket.write(bytes.subarray(head.length - 2));
        });
      });
    });

  return {
    baseUrl: base,
    async send(request, sendOptions = {}) {
      const fresh = sendOptions.fresh === true;
      const url = urlFor(base, request.path);
      let head: Buffer;
      try {
        head = writeRequestHead({ method: request.method, target: `${url.pathname}${url.search}`, host: base.host, headers: headerLines(request), bodyLength: request.body.length, close: fresh });
      } catch (error) {
        return { kind: 'failure', failure: 'error', message: `the request could not be sent: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
      }
      if (closed) return { kind: 'failure', failure: 'error', message: 'the client is closed', durationMs: 0 };
      const first = await exchangeOn(fresh ? open(true) : await acquire(), request, head);
      if (first !== 'retry') return first;
      const again = await exchangeOn(open(fresh), request, head);
      return again === 'retry' ? { kind: 'failure', failure: 'reset', message: 'the connection closed before the response was complete', durationMs: 0 } : again;
    },
    close() {
      closed = true;
      for (const connection of [...all]) {
        const exchange = connection.current;
        if (exchange !== undefined && !exchange.settled) fail(connection, exchange, 'error', 'the client was closed');
        else discard(connection);
      }
    },
  };
}
