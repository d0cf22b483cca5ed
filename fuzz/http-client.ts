/**
 * The engine's HTTP client: node:http(s) with keep-alive and a bounded pool, a deadline on every
 * exchange and a cap on response size. It never throws and never hangs: whatever a hostile target
 * does (garbage bytes, a reset, silence, an endless body) comes back as an HttpOutcome.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { headerLines } from './header-lines.js';
import type { HttpOutcome, HttpRequest, TransportFailure } from './types.js';

export interface ClientOptions {
  /** Sockets kept open at most (and so requests in flight). Default 8. */
  readonly concurrency?: number;
  /** Deadline for a whole exchange, from sending to the last byte of the response. Default 5000. */
  readonly timeoutMs?: number;
  /** A response body larger than this is cut off and reported. Default 1 MiB. */
  readonly maxResponseBytes?: number;
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
  /** Closes every socket. */
  close(): void;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

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
  if (code === 'ECONNRESET' || code === 'EPIPE' || error.message === 'socket hang up') return 'reset';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code.startsWith('HPE_') || code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') return 'malformed-response';
  return 'error';
}

function joinHeaders(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function createHttpClient(baseUrl: string | URL, options: ClientOptions = {}): HttpClient {
  const base = typeof baseUrl === 'string' ? parseBaseUrl(baseUrl) : baseUrl;
  const secure = base.protocol === 'https:';
  const concurrency = options.concurrency ?? 8;
  const agentOptions = { keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency };
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const send = secure ? httpsRequest : httpRequest;

  const once = (request: HttpRequest, fresh: boolean): Promise<HttpOutcome & { retry?: boolean }> =>
    new Promise((resolve) => {
      const started = performance.now();
      let settled = false;
      const url = urlFor(base, request.path);
      const finish = (outcome: HttpOutcome & { retry?: boolean }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const failure = (kind: TransportFailure, message: string, retry = false): void => {
        finish({ kind: 'failure', failure: kind, message, durationMs: performance.now() - started, ...(retry ? { retry } : {}) });
      };
      let req: ReturnType<typeof send>;
      try {
        const headers = { ...headerLines(request), 'content-length': String(request.body.length), ...(fresh ? { connection: 'close' } : {}) };
        req = send(url, { method: request.method, agent: fresh ? false : agent, headers });
      } catch (error) {
        // node:http refuses some header values before anything is sent (ERR_INVALID_CHAR).
        resolve({ kind: 'failure', failure: 'error', message: `the request could not be sent: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 });
        return;
      }
      const timer = setTimeout(() => {
        failure('timeout', `no complete response within ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        const kind = classify(error);
        // A keep-alive socket the server closed while it sat idle: not the target's fault, try again
        // on a fresh one (the case node:http documents req.reusedSocket for).
        finish({ kind: 'failure', failure: kind, message: `${error.code ?? 'error'}: ${error.message}`, durationMs: performance.now() - started, retry: kind === 'reset' && req.reusedSocket });
        // Never reuse a connection after an error: whatever is left on it cannot be trusted.
        req.destroy();
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            failure('oversized-response', `the response body went past ${maxBytes} bytes`);
            res.destroy();
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          failure(classify(error), `${error.code ?? 'error'} while reading the response: ${error.message}`);
        });
        res.on('aborted', () => {
          failure('reset', 'the connection closed before the response body was complete');
        });
        res.on('end', () => {
          if (!res.complete) {
            failure('reset', 'the connection closed before the response body was complete');
            return;
          }
          finish({ kind: 'response', status: res.statusCode ?? 0, headers: joinHeaders(res), body: Buffer.concat(chunks, size), durationMs: performance.now() - started });
        });
      });
      req.end(request.body);
    });

  return {
    baseUrl: base,
    async send(request, options = {}) {
      const fresh = options.fresh === true;
      const first = await once(request, fresh);
      const outcome = first.kind === 'failure' && first.retry === true ? await once(request, fresh) : first;
      if (outcome.kind === 'failure') return { kind: 'failure', failure: outcome.failure, message: outcome.message, durationMs: outcome.durationMs };
      return outcome;
    },
    close() {
      agent.destroy();
    },
  };
}
