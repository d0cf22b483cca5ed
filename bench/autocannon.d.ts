/**
 * The part of autocannon 9's programmatic API the benchmarks use. autocannon ships no types and
 * @types/autocannon lags its releases; this declares only what bench/ calls, so a change in
 * autocannon's surface shows up here and nowhere else.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each send of this request; return the request to send (or a falsy value to skip). */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    /** Called with every response to this request (the body as a string). */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    requests?: Request[];
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    excludeErrorStats?: boolean;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p99: number;
  }

  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter {
    stop(): void;
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, responseTime: number) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
    on(event: 'done', listener: (result: Result) => void): this;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;

  namespace autocannon {
    export type { Options, Request, Result, Instance };
  }
  export default autocannon;
}
