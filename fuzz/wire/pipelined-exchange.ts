/**
 * Requests pipelined on one connection (RFC 9112, section 9.3.2): written back to back before any
 * answer is read. A server may handle them at once, but MUST send the answers in the order of
 * the requests, one each. Each answer is read where it starts (after the one before it) and
 * handed on with the other requests of the pipeline as its neighbours, so that an answer carrying
 * another request's plant shows as delivered to the wrong request (`one-answer-per-request`); a
 * request the server reads and never answers, while the connection stays open, times out.
 *
 * A server may close a connection at any time (RFC 9112, section 9.6), pipelined requests still
 * unanswered included, and the client then SHOULD send them again (section 9.3.2): those come back
 * `unanswered`, for the caller to send again alone. An HTTP/1.0 server that answers the first
 * and closes keeps HTTP.
 */
import { performance } from 'node:perf_hooks';
import type { HttpOutcome, HttpRequest, NeighbourRequest } from '../../oracle/index.js';
import { answerOf, closedMessage, failureOfError, partialOf } from './answer.js';
import type { HeldOptions } from './held-exchange.js';
import { ResponseReader, WireError } from './http-wire.js';
import { extraOf, withExtra } from './late-bytes.js';
import { connectTo } from './pool.js';
import { requestHead } from './request-writing.js';

/** An answer, or `unanswered`: the connection closed before its answer began. */
export type PipelinedResult = HttpOutcome | 'unanswered';

type Failure = Extract<HttpOutcome, { kind: 'failure' }>;

/** The requests' bytes back to back, every one kept alive (the client closes after the last answer). */
function pipelineBytes(base: URL, requests: readonly HttpRequest[]): Buffer {
  return Buffer.concat(requests.flatMap((request) => [requestHead(base, request, false), request.body]));
}

/** Each request's neighbours: the other requests of the pipeline. */
function neighbours(requests: readonly HttpRequest[], i: number): NeighbourRequest[] {
  return requests.flatMap((request, j) => (j === i ? [] : [{ request, relation: 'pipelined' as const, connection: 0 }]));
}

/** Reads the answers of one pipeline in order: each reader gets what the one before it left. */
class PipelineReading {
  readonly results: (PipelinedResult | undefined)[];
  private readonly readers: ResponseReader[];
  private at = 0;
  private readonly started = performance.now();

  constructor(
    private readonly requests: readonly HttpRequest[],
    private readonly maxBytes: number,
  ) {
    this.results = requests.map(() => undefined);
    // Bytes in front of a later answer's status line are what the answer before it left (a body
    // longer than its Content-Length): that answer's finding, as on the client's kept-alive connections.
    this.readers = requests.map((request, i) => new ResponseReader({ method: request.method, maxBodyBytes: maxBytes, allowLeftover: i > 0 }));
  }

  get done(): boolean {
    return this.at >= this.requests.length;
  }

  /** Bytes from the server; false once nothing more can be read. */
  push(chunk: Buffer): boolean {
    let data = chunk;
    while (!this.done && data.length > 0) {
      const reader = this.readers[this.at] as ResponseReader;
      const hadLeftover = reader.leftover !== undefined;
      try {
        reader.push(data);
      } catch (error) {
        this.fail('malformed-response', error instanceof WireError ? error.message : String(error));
        return false;
      }
      if (!hadLeftover && reader.leftover !== undefined) this.leftBefore(reader.leftover);
      if (!reader.complete) return true;
      data = this.last() ? Buffer.alloc(0) : reader.rest;
      if (!this.last()) reader.rest = Buffer.alloc(0);
      const persistent = reader.head?.persistent === true;
      this.answer(reader);
      // The server said it closes after this answer: what follows gets no answer here.
      if (!persistent) this.unanswered();
    }
    return !this.done;
  }

  /** The server closed its side (or the socket failed). */
  end(error?: NodeJS.ErrnoException): void {
    if (this.done) return;
    const reader = this.readers[this.at] as ResponseReader;
    if (error === undefined && reader.end()) this.answer(reader);
    else if (reader.started) this.fail(error === undefined ? 'reset' : failureOfError(error), error === undefined ? closedMessage(reader) : `${error.code ?? 'error'}: ${error.message}`);
    this.unanswered();
  }

  /** The deadline passed: every request still without an answer. */
  timeout(timeoutMs: number): void {
    while (!this.done) {
      const answered = this.at;
      this.fail('timeout', `no complete response within ${timeoutMs} ms to request ${answered + 1} of ${this.requests.length} pipelined on one connection${answered === 0 ? '' : ` (the ${answered} before it were answered)`}: a server MUST answer every pipelined request, in order (RFC 9112, section 9.3.2)`);
    }
  }

  /** Bytes in front of the current answer: the previous answer's bytes after its end. */
  private leftBefore(bytes: Buffer): void {
    const previous = this.results[this.at - 1];
    if (previous !== undefined && previous !== 'unanswered') this.results[this.at - 1] = withExtra(previous, extraOf([bytes], 0, 'before-next'));
  }

  private last(): boolean {
    return this.at === this.requests.length - 1;
  }

  private answer(reader: ResponseReader): void {
    const facts = { connection: 0, exchangesBefore: this.at, others: neighbours(this.requests, this.at), started: this.started, endedAt: performance.now(), extra: [], extraAt: undefined, maxBytes: this.maxBytes };
    this.results[this.at++] = answerOf(reader, facts).outcome;
  }

  private fail(failure: Failure['failure'], message: string): void {
    const reader = this.readers[this.at] as ResponseReader;
    this.results[this.at++] = { kind: 'failure', failure, message, durationMs: performance.now() - this.started, ...partialOf(reader, this.maxBytes) };
  }

  private unanswered(): void {
    while (!this.done) this.results[this.at++] = 'unanswered';
  }
}

/**
 * Sends `requests` pipelined on one new connection and reads their answers in order (see above),
 * all within `timeoutMs`.
 */
export function sendPipelined(base: URL, requests: readonly HttpRequest[], options: HeldOptions): Promise<PipelinedResult[]> {
  let bytes: Buffer;
  try {
    bytes = pipelineBytes(base, requests);
  } catch (error) {
    const failed: HttpOutcome = { kind: 'failure', failure: 'error', message: `the requests could not be sent: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
    return Promise.resolve(requests.map(() => failed));
  }
  const reading = new PipelineReading(requests, options.maxResponseBytes);
  const socket = connectTo(base);
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reading.results.map((result) => result ?? 'unanswered'));
    };
    const timer = setTimeout(() => {
      reading.timeout(options.timeoutMs);
      finish();
    }, options.timeoutMs);
    socket.once(base.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      if (!reading.push(chunk)) finish();
    });
    socket.on('end', () => {
      reading.end();
      finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reading.end(error);
      finish();
    });
  });
}
