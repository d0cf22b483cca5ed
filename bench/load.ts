/**
 * One load run with autocannon's programmatic API: a fixed number of keep-alive connections
 * cycling through a list of requests for a fixed time. Latencies are recorded per response at
 * sub-millisecond resolution (autocannon's own histogram rounds to whole milliseconds, too
 * coarse for a p50 around 1 ms).
 */
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { percentile, Samples } from './stats.js';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: autocannon.Request[];
  /** Seconds before autocannon counts a request as timed out. */
  readonly timeoutSeconds?: number;
}

export interface LoadResult {
  readonly responses: number;
  readonly durationSeconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Responses by HTTP status. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Connection errors and timeouts, by message. */
  readonly errors: Readonly<Record<string, number>>;
  readonly timeouts: number;
  /** Responses in each whole second of the run, in order. */
  readonly perSecond: readonly number[];
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies = new Samples();
  const errors: Record<string, number> = {};
  const perSecond: number[] = [];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: options.timeoutSeconds ?? 10,
        requests: options.requests,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const statuses: Record<string, number> = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = count;
        const values = latencies.values();
        resolve({
          responses: latencies.length,
          durationSeconds: result.duration,
          requestsPerSecond: latencies.length / result.duration,
          p50Ms: percentile(values, 50),
          p99Ms: percentile(values, 99),
          maxMs: percentile(values, 100),
          statuses,
          errors,
          timeouts: result.timeouts,
          // A second without a single response stays in the timeline as 0.
          perSecond: Array.from({ length: perSecond.length }, (_, i) => perSecond[i] ?? 0),
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
      const second = Math.floor((performance.now() - started) / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + 1;
    });
    instance.on('reqError', (error) => {
      const key = (error as NodeJS.ErrnoException).code ?? error.message;
      errors[key] = (errors[key] ?? 0) + 1;
    });
  });
}
