/**
 * Requests held open at the server: each on a connection of its own, its head and part of its
 * body sent, the rest only when every request of the group has got that far and the server has
 * had time to read them (`HOLD_MS`). A server then has the whole group in flight at once - what
 * a fast target never sees from the kept-alive pool, where each request arrives whole and is
 * answered before the next is read. A request whose body is still coming is in flight (RFC 9112,
 * section 6: the message is not complete), so overlap is the server's ordinary lot, not an abuse.
 */
import { performance } from 'node:perf_hooks';
import type { HttpOutcome, HttpRequest } from '../../oracle/index.js';
import { answerOf, closedMessage, failureOfError, partialOf, timeoutMessage } from './answer.js';
import { ResponseReader, WireError } from './http-wire.js';
import { connectTo } from './pool.js';
import { requestHead } from './request-writing.js';

/**
 * How long the group is held, its parts sent, before the rest of every body goes: long enough for
 * a server's event loop to read them all. A node:http server in another process on a 2-core
 * machine had all eight requests of a group open in 200 of 200 groups held 50 ms with two busy
 * loops beside it (100 of 100 with four), and in 100 of 100 held 10 ms; network delay moves both
 * parts alike (TCP keeps their order), so it needs no margin of its own. Every ms of it is a ms
 * the engine only waits.
 */
export const HOLD_MS = 50;

export interface HeldOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** A request's bytes cut where it is held: the head and half the body, or the head without its final CRLF when there is no body. */
function cut(base: URL, request: HttpRequest): [Buffer, Buffer] {
  const head = requestHead(base, request, true);
  const bytes = Buffer.concat([head, request.body]);
  const at = request.body.length > 1 ? head.length + Math.floor(request.body.length / 2) : head.length - 2;
  return [bytes.subarray(0, at), bytes.subarray(at)];
}

interface Held {
  /** Resolves once the first part is written (or the exchange is over). */
  readonly ready: Promise<void>;
  /** Sends the rest. */
  release(): void;
  readonly outcome: Promise<HttpOutcome>;
}

function hold(base: URL, request: HttpRequest, options: HeldOptions): Held {
  let first: Buffer;
  let rest: Buffer;
  try {
    [first, rest] = cut(base, request);
  } catch (error) {
    const outcome: HttpOutcome = { kind: 'failure', failure: 'error', message: `the request could not be sent: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
    return { ready: Promise.resolve(), release: () => undefined, outcome: Promise.resolve(outcome) };
  }
  // An answer's time counts from when its request was whole: the hold is the engine's, not the server's.
  let started = performance.now();
  const socket = connectTo(base);
  const reader = new ResponseReader({ method: request.method, maxBodyBytes: options.maxResponseBytes });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  // Connection 0: not one of the client's numbered connections; nothing else travels on it.
  const answered = (): HttpOutcome => answerOf(reader, { connection: 0, exchangesBefore: 0, others: [], started, endedAt: performance.now(), extra: [], extraAt: undefined, maxBytes: options.maxResponseBytes }).outcome;
  const outcome = new Promise<HttpOutcome>((resolve) => {
    const finish = (result: HttpOutcome): void => {
      clearTimeout(timer);
      markReady();
      socket.destroy();
      resolve(result);
    };
    const fail = (failure: Extract<HttpOutcome, { kind: 'failure' }>['failure'], message: string): void => {
      finish({ kind: 'failure', failure, message, durationMs: performance.now() - started, ...partialOf(reader, options.maxResponseBytes) });
    };
    const timer = setTimeout(() => {
      fail('timeout', timeoutMessage(reader, options.timeoutMs));
    }, options.timeoutMs);
    const begin = (): void => {
      socket.write(first, markReady);
    };
    socket.once(base.protocol === 'https:' ? 'secureConnect' : 'connect', begin);
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        fail('malformed-response', error instanceof WireError ? error.message : String(error));
        return;
      }
      if (reader.complete) finish(answered());
    });
    socket.on('end', () => {
      if (reader.end()) finish(answered());
      else fail('reset', closedMessage(reader));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      fail(failureOfError(error), error.message);
    });
  });
  const release = (): void => {
    if (socket.destroyed || reader.head !== undefined) return;
    started = performance.now();
    socket.write(rest);
  };
  return { ready, release, outcome };
}

/**
 * Sends a group of requests held open together (see above): their outcomes, in order. Each takes
 * at most `timeoutMs` from its connection's opening.
 */
export async function sendHeldTogether(base: URL, requests: readonly HttpRequest[], options: HeldOptions): Promise<HttpOutcome[]> {
  const held = requests.map((request) => hold(base, request, options));
  await Promise.all(held.map((h) => h.ready));
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
  for (const h of held) h.release();
  return Promise.all(held.map((h) => h.outcome));
}
