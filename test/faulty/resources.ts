/**
 * Tools for faults of time and resources (see faults.ts): a pool of threads that run a regular
 * expression, as a server with a thread per request runs its validation, and an answer written
 * once some work is done.
 */
import type { ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import type { AppResponse } from '../../src/reference/index.js';

/** A thread that tests strings against one pattern; the pattern arrives as workerData. */
const MATCHER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (text) => parentPort.postMessage(pattern.test(text)));
`;

export interface RegexPool {
  /** Whether the pattern matches; undefined when the match took longer than the pool's match timeout. */
  test(text: string): Promise<boolean | undefined>;
  close(): Promise<void>;
}

interface Thread {
  worker: Worker;
  busy: boolean;
}

/**
 * `size` threads matching `pattern`, first come first served. A match that runs past
 * `matchTimeoutMs` has its thread terminated and replaced (what .NET's Regex.MatchTimeout or a
 * watchdog does), so one input can hold a thread for that long at most, and never the server's
 * own event loop: the other requests are answered meanwhile, as on a thread-per-request server.
 */
export function regexPool(pattern: RegExp, size: number, matchTimeoutMs: number): RegexPool {
  const spawn = (): Thread => {
    const worker = new Worker(MATCHER_SOURCE, { eval: true, workerData: { source: pattern.source, flags: pattern.flags } });
    worker.unref();
    return { worker, busy: false };
  };
  const threads = Array.from({ length: size }, spawn);
  const queue: { text: string; done: (result: boolean | undefined) => void }[] = [];
  const pump = (): void => {
    const at = threads.findIndex((t) => !t.busy);
    const job = at === -1 ? undefined : queue.shift();
    if (job === undefined) return;
    const thread = threads[at] as Thread;
    thread.busy = true;
    const finish = (result: boolean | undefined): void => {
      clearTimeout(timer);
      thread.worker.off('message', onMessage);
      thread.busy = false;
      job.done(result);
      pump();
    };
    const onMessage = (result: boolean): void => {
      finish(result);
    };
    const timer = setTimeout(() => {
      void thread.worker.terminate();
      thread.worker = spawn().worker;
      finish(undefined);
    }, matchTimeoutMs);
    thread.worker.on('message', onMessage);
    thread.worker.postMessage(job.text);
  };
  return {
    test: (text) =>
      new Promise((done) => {
        queue.push({ text, done });
        pump();
      }),
    close: async () => {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** Writes `answer` once `work` is done: a fault whose answer is right but late. */
export function answerAfter(work: Promise<unknown>, answer: AppResponse): (res: ServerResponse) => void {
  return (res) => {
    void work.then(() => {
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  };
}
