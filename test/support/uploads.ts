/**
 * Large uploads from a client on its own thread. A client on the server's own event loop never
 * writes while the server works, so it never sees what a real client sees: the server answering
 * and closing while the client is still sending. This one runs node:http's client in a worker
 * thread (its own event loop, on the other core) and reports what each request ended in.
 */
import { Worker } from 'node:worker_threads';

export interface UploadPlan {
  readonly port: number;
  /** How many requests, and how many at a time. */
  readonly count: number;
  readonly parallel: number;
  /** Body size in bytes; its bytes are `a`. */
  readonly bytes: number;
  /** With a Content-Length, or chunked (in five writes). */
  readonly framing: 'length' | 'chunked';
  readonly headers: Readonly<Record<string, string>>;
}

/** What one request ended in: the whole answer, or the error the client saw first. */
export type UploadOutcome = { readonly status: number; readonly body: string } | { readonly error: string };

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const { port, count, parallel, bytes, framing, headers } = workerData;
const body = Buffer.alloc(bytes, 0x61);
const one = () => new Promise((resolve) => {
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/plants', agent: false, headers: framing === 'length' ? { ...headers, 'content-length': String(bytes) } : headers }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => { text += chunk; });
    res.on('end', () => resolve({ status: res.statusCode, body: text }));
    res.on('error', (error) => resolve({ error: 'response: ' + (error.code || error.message) }));
  });
  // The first error before a whole answer is the outcome; one after it changes nothing.
  req.on('error', (error) => resolve({ error: error.code || error.message }));
  if (framing === 'length') req.end(body);
  else {
    const piece = Math.ceil(bytes / 5);
    for (let at = 0; at < bytes; at += piece) req.write(body.subarray(at, at + piece));
    req.end();
  }
});
(async () => {
  const outcomes = [];
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) {
      next++;
      outcomes.push(await one());
    }
  }));
  parentPort.postMessage(outcomes);
})();
`;

export function uploadFromWorker(plan: UploadPlan): Promise<UploadOutcome[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: plan });
    worker.once('message', (outcomes: UploadOutcome[]) => {
      resolve(outcomes);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
