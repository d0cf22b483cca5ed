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
 *
 * Its parts: the pool (pool.ts), request writing (request-writing.ts), answer reading (answer.ts),
 * late bytes (late-bytes.ts), the exchanges in flight (exchange.ts), base URLs (base-url.ts).
 */
import { performance } from 'node:perf_hooks';
import { ResponseReader, WireError, type ReaderOptions } from './http-wire.js';
import { closeDemanded, DEFAULT_MAX_RESPONSE_BYTES, type ExtraBytes, type HttpOutcome, type HttpRequest, type NeighbourRequest, type TransportFailure } from '../../oracle/index.js';
import type { Writable } from '../writable.js';
import { DEFAULT_CONFORM_TIMEOUT_MS } from '../defaults.js';
import { answerOf, closedMessage, failureOfError, partialOf, timeoutMessage, type AnswerFacts } from './answer.js';
import { parseBaseUrl } from '../../src/http/index.js';
import { InFlightExchanges, type InFlightExchange, type Result } from './exchange.js';
import { extraOf, isGoodbye, STRAY_WINDOW_MS, withExtra } from './late-bytes.js';
import { ConnectionPool, type Connection } from './pool.js';
import { bodyBytes, requestHead, writeRequest } from './request-writing.js';

export interface HttpClientOptions {
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


export function createHttpClient(baseUrl: string | URL, options: HttpClientOptions = {}): HttpClient {
  return new EngineClient(typeof baseUrl === 'string' ? parseBaseUrl(baseUrl) : baseUrl, options);
}

type Conn = Connection<InFlightExchange>;

class EngineClient implements HttpClient {
  private readonly pool: ConnectionPool<InFlightExchange>;
  private readonly inFlight = new InFlightExchanges();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    readonly baseUrl: URL,
    private readonly options: HttpClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CONFORM_TIMEOUT_MS;
    this.maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const concurrency = Math.max(1, options.concurrency ?? 8);
    this.pool = new ConnectionPool<InFlightExchange>(baseUrl, concurrency * 2, {
      data: (connection, chunk) => {
        this.onData(connection, chunk);
      },
      end: (connection, error) => {
        this.onEnd(connection, error);
      },
    });
  }

  async send(request: HttpRequest, sendOptions: SendOptions = {}): Promise<HttpOutcome> {
    // A request framed otherwise (HTTP/1.0, no Host...) goes on a connection of its own, closed after it.
    const fresh = sendOptions.fresh === true || request.framing !== undefined;
    let head: Buffer;
    try {
      head = requestHead(this.baseUrl, request, fresh);
    } catch (error) {
      return { kind: 'failure', failure: 'error', message: `the request could not be sent: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
    }
    if (this.pool.isClosed) return { kind: 'failure', failure: 'error', message: 'the client is closed', durationMs: 0 };
    const first = await this.exchangeOn(fresh ? await this.warmed(request) : await this.pool.acquire(), request, head);
    if (first !== 'retry') return first;
    const again = await this.exchangeOn(this.pool.open(fresh), request, head);
    return again === 'retry' ? { kind: 'failure', failure: 'reset', message: 'the connection closed before the response was complete', durationMs: 0 } : again;
  }

  /**
   * A connection of its own for a framed request; for one sent second on its connection
   * (RequestFraming.after), one that has carried a first request kept alive - a new one if the
   * server closed it after that.
   */
  private async warmed(request: HttpRequest): Promise<Conn> {
    const connection = this.pool.open(true);
    const after = request.framing?.after;
    if (after === undefined) return connection;
    const first: HttpRequest = { method: request.method, path: request.path, headers: request.headers, body: Buffer.from(after, 'utf8') };
    const outcome = await this.exchangeOn(connection, first, requestHead(this.baseUrl, first, false), true);
    return outcome !== 'retry' && outcome.kind === 'response' && connection.state === 'busy' && !connection.ended ? connection : this.pool.open(true);
  }

  close(): void {
    this.pool.close();
    for (const connection of [...this.pool.all]) {
      const exchange = connection.current;
      if (exchange !== undefined && !exchange.settled) this.fail(connection, exchange, 'error', 'the client was closed');
      else this.pool.discard(connection);
    }
  }

  /** Late bytes, against the exchange the connection carried last. */
  private late(connection: Conn, extra: ExtraBytes): void {
    const last = connection.last;
    if (last === undefined || this.options.onLateBytes === undefined) return;
    this.options.onLateBytes({ after: last.outcome, outcome: withExtra(last.outcome, extra) });
  }

  private reportStray(connection: Conn): void {
    const bytes = Buffer.concat(connection.stray);
    const afterMs = (connection.strayAt ?? 0) - (connection.last?.endedAt ?? 0);
    if (!(connection.ended && isGoodbye(bytes))) this.late(connection, extraOf([bytes], afterMs, 'idle'));
    this.pool.discard(connection);
  }

  /** Ends an exchange that got no (complete) answer, and the connection with it. */
  private fail(connection: Conn, exchange: InFlightExchange, failure: TransportFailure, message: string, retry = false): void {
    if (!this.settleOnce(exchange)) return;
    this.pool.discard(connection);
    exchange.resolve(retry ? 'retry' : { kind: 'failure', failure, message, durationMs: performance.now() - exchange.started, ...partialOf(exchange.reader, this.maxBytes) });
  }

  /** Marks the exchange settled; false if it already was. */
  private settleOnce(exchange: InFlightExchange): boolean {
    if (exchange.settled) return false;
    exchange.settled = true;
    clearTimeout(exchange.timer);
    this.inFlight.leave(exchange);
    return true;
  }

  /** The answer is complete and has settled: hand it on, and keep the connection if nothing is wrong with it. */
  private finish(connection: Conn, exchange: InFlightExchange): void {
    if (!this.settleOnce(exchange)) return;
    const reader = exchange.reader;
    const head = reader.head;
    const endedAt = exchange.endedAt ?? performance.now();
    if (head === undefined) {
      this.pool.discard(connection);
      exchange.resolve({ kind: 'failure', failure: 'reset', message: 'the connection closed before the response was complete', durationMs: endedAt - exchange.started });
      return;
    }
    const facts: Writable<AnswerFacts> = { connection: connection.id, exchangesBefore: connection.exchanges, others: exchange.others, started: exchange.started, endedAt, extra: exchange.extra, extraAt: exchange.extraAt, maxBytes: this.maxBytes };
    if (exchange.leftOpenMs !== undefined) facts.leftOpenMs = exchange.leftOpenMs;
    const { outcome, extraBytes } = answerOf(reader, facts);
    connection.exchanges++;
    connection.last = { request: exchange.request, outcome, endedAt };
    if (exchange.keep === true && head.persistent && extraBytes === undefined && connection.state === 'busy' && !connection.ended) connection.current = undefined;
    else if (head.persistent && !connection.fresh && extraBytes === undefined && connection.state === 'busy') this.pool.release(connection);
    else this.pool.discard(connection);
    exchange.resolve(outcome);
  }

  private onData(connection: Conn, chunk: Buffer): void {
    const exchange = connection.current;
    if (connection.state === 'idle' || connection.state === 'stray') {
      this.onStray(connection, chunk);
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
      if (error instanceof WireError) this.fail(connection, exchange, error.failure, error.message);
      else this.fail(connection, exchange, 'error', `the response could not be read: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (!hadLeftover && reader.leftover !== undefined) {
      // What the previous answer left on the connection: its finding, not this answer's.
      this.late(connection, extraOf([reader.leftover], performance.now() - (connection.last?.endedAt ?? 0), 'before-next'));
    }
    if (reader.complete) this.settle(connection, exchange);
  }

  /** Nobody asked for these bytes: collect them a moment, then report them against the last exchange. */
  private onStray(connection: Conn, chunk: Buffer): void {
    if (connection.state === 'idle') {
      this.pool.stray(connection);
      connection.strayTimer = setTimeout(() => {
        this.reportStray(connection);
      }, STRAY_WINDOW_MS);
    }
    connection.stray.push(chunk);
  }

  /** Waits one more turn of the event loop (a poll for I/O included) before the outcome is handed on. */
  private settle(connection: Conn, exchange: InFlightExchange): void {
    exchange.endedAt = performance.now();
    if (connection.ended) {
      this.finish(connection, exchange);
      return;
    }
    if (exchange.awaitsClose) {
      this.awaitClose(connection, exchange);
      return;
    }
    setImmediate(() => {
      setImmediate(() => {
        this.finish(connection, exchange);
      });
    });
  }

  /**
   * The request asked the server to close the connection after its answer (RFC 9112, section 9.6):
   * the outcome waits for the close (onEnd finishes it), within the request's timeout; bytes that
   * come meanwhile are bytes after the answer.
   */
  private awaitClose(connection: Conn, exchange: InFlightExchange): void {
    clearTimeout(exchange.timer);
    exchange.timer = setTimeout(() => {
      exchange.leftOpenMs = performance.now() - (exchange.endedAt ?? exchange.started);
      this.finish(connection, exchange);
    }, this.timeoutMs);
  }

  private onEnd(connection: Conn, error?: NodeJS.ErrnoException): void {
    connection.ended = true;
    const exchange = connection.current;
    if (connection.state === 'stray') {
      clearTimeout(connection.strayTimer);
      this.reportStray(connection);
      return;
    }
    if (connection.state !== 'busy' || exchange === undefined || exchange.settled) {
      this.pool.discard(connection);
      return;
    }
    if (exchange.endedAt !== undefined) {
      this.finish(connection, exchange);
      return;
    }
    const reader = exchange.reader;
    if (error === undefined && reader.end()) {
      this.settle(connection, exchange);
      return;
    }
    // A kept-alive connection the server closed while it sat idle, as our request went out: not
    // the target's fault; the request is sent again on a new connection (RFC 9112, section 9.3.1).
    const retry = connection.exchanges > 0 && !reader.started;
    if (error !== undefined) {
      const kind = failureOfError(error);
      this.fail(connection, exchange, kind, `${error.code ?? 'error'}: ${error.message}`, retry && kind === 'reset');
      return;
    }
    this.fail(connection, exchange, 'reset', closedMessage(reader), retry);
  }

  /** How the answer to a request on a connection is read. */
  private readerOptions(request: HttpRequest, connection: Conn): ReaderOptions {
    const options: Writable<ReaderOptions> = { method: request.method, maxBodyBytes: this.maxBytes, allowLeftover: connection.exchanges > 0 };
    if (request.framing?.version !== undefined) options.requestVersion = request.framing.version;
    return options;
  }

  /** One exchange on the connection; `keep`: a fresh connection stays open after it, for the next request (RequestFraming.after). */
  private exchangeOn(connection: Conn, request: HttpRequest, head: Buffer, keep = false): Promise<Result> {
    return new Promise((resolve) => {
      const others: NeighbourRequest[] = [];
      if (connection.last !== undefined) others.push({ request: connection.last.request, relation: 'previous', connection: connection.id });
      const exchange: InFlightExchange = {
        request,
        connection: connection.id,
        reader: new ResponseReader(this.readerOptions(request, connection)),
        started: performance.now(),
        others,
        timer: setTimeout(() => {
          this.fail(connection, exchange, 'timeout', timeoutMessage(exchange.reader, this.timeoutMs));
        }, this.timeoutMs),
        // Judged for the framed requests only: a server that never closes costs each its timeout.
        awaitsClose: connection.fresh && closeDemanded(request) !== undefined,
        keep,
        resolve,
        extra: [],
        settled: false,
        holding: connection.exchanges > 0,
        early: [],
      };
      this.inFlight.join(exchange);
      connection.current = exchange;
      // On a reused connection, whatever comes before the request is complete cannot answer it: it
      // is the previous exchange's, and the request goes again on a new connection.
      const split = request.framing?.spelling?.split === true && connection.exchanges === 0;
      writeRequest(connection.socket, head, bodyBytes(request), exchange.holding, () => {
        if (exchange.settled) return false;
        exchange.holding = false;
        if (exchange.early.length === 0) return true;
        this.late(connection, extraOf(exchange.early, performance.now() - (connection.last?.endedAt ?? 0), 'before-next'));
        this.fail(connection, exchange, 'reset', 'bytes came before the request was complete', true);
        return false;
      }, split);
    });
  }
}
