/**
 * A Plant Store whose HTTP layer is written by hand on node:net, as small services and embedded
 * servers write it: requests read by Content-Length or chunked, answered by the reference. Its
 * `layer` says how it handles the connection where hand-written layers differ (node:http cannot be
 * made to do these): whether it honours the client's `Connection: close`, what it does with bytes
 * after a request (a pipelined one, RFC 9112, section 9.3.2), and in which order it writes answers
 * whose handling takes different times.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, type App, type AppOptions, type AppRequest, type AppResponse } from '../../src/reference/index.js';
import { TEST_TOKEN } from '../support/servers.js';
import { errorResponse } from './helpers.js';

export interface RawLayer {
  /** `honoured`: the connection closes after the answer to `Connection: close` (and to HTTP/1.0 without keep-alive); `ignored`: it stays open. */
  readonly clientClose: 'honoured' | 'ignored';
  /** `kept`: bytes after a request are the start of the next; `dropped`: the buffer is emptied after each request. */
  readonly bytesAfterRequest: 'kept' | 'dropped';
  /** `arrival`: answers go in the order their requests came; `completion`: each as soon as it is ready. */
  readonly answerOrder: 'arrival' | 'completion';
  /** How long the store takes for a request (a tagged plant is two inserts, an untagged one). Default: no time. */
  readonly storeMs?: (request: AppRequest) => number;
  /**
   * How the store answers a request, where not as the reference does (a dispatcher of its own:
   * test/faulty/map-targets.ts), given its request line as read; `die`: the process dies (the
   * server stops and drops every connection). A request without Host is still answered 400 first.
   */
  readonly answer?: (request: AppRequest, line: string, app: App) => AppResponse | 'die';
  /** `ignored`: an HTTP/1.1 request without Host is answered as any other (RFC 9112, section 3.2 asks for 400). Default: `required`. */
  readonly host?: 'required' | 'ignored';
}

/** A request as the layer read it. */
interface ReadRequest {
  readonly request: AppRequest;
  readonly line: string;
  readonly closes: boolean;
  /** HTTP/1.1 without Host: 400 (RFC 9112, section 3.2). */
  readonly hostMissing: boolean;
}

function fieldsOf(head: string): { readonly line: string; readonly headers: Record<string, string> } {
  const [line = '', ...fields] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    // Only spaces and tabs around a value are whitespace (RFC 9110, section 5.5): String.trim would take a no-break space too.
    const name = field.slice(0, colon).toLowerCase();
    const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    // A field twice is one list (RFC 9110, section 5.3): two Authorization fields are one malformed value.
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { line, headers };
}

/** A chunked body from `start` (RFC 9112, section 7.1): the body and where it ends, or undefined while incomplete. */
function chunkedBody(buffer: Buffer, start: number): { readonly body: Buffer; readonly end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (size === 0) {
      const end = buffer.indexOf('\r\n\r\n', lineEnd);
      return end === -1 ? undefined : { body: Buffer.concat(parts), end: end + 4 };
    }
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The first whole request in the buffer and where it ends, or undefined while it is incomplete. */
function readRequest(buffer: Buffer): { readonly read: ReadRequest; readonly end: number } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const { line, headers } = fieldsOf(buffer.toString('latin1', 0, headEnd));
  const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '');
  const length = Number(headers['content-length'] ?? 0);
  const whole = chunked ? chunkedBody(buffer, headEnd + 4) : buffer.length >= headEnd + 4 + length ? { body: buffer.subarray(headEnd + 4, headEnd + 4 + length), end: headEnd + 4 + length } : undefined;
  if (whole === undefined) return undefined;
  const [method = 'GET', url = '/', version = 'HTTP/1.1'] = line.split(' ');
  const connection = (headers.connection ?? '').toLowerCase();
  const closes = connection.includes('close') || (version === 'HTTP/1.0' && !connection.includes('keep-alive'));
  return { read: { request: { method, url, headers, body: whole.body }, line, closes, hostMissing: version === 'HTTP/1.1' && headers.host === undefined }, end: whole.end };
}

function answerBytes(answer: AppResponse, close: boolean): string {
  const fields = [...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`), `date: ${new Date().toUTCString()}`, `content-length: ${Buffer.byteLength(answer.body)}`, ...(close ? ['connection: close'] : [])];
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${fields.join('\r\n')}\r\n\r\n${answer.body}`;
}

export async function startRawStore(layer: RawLayer, options: Partial<AppOptions> = {}): Promise<{ readonly url: string; close(): Promise<void> }> {
  const app = createApp({ tokens: [TEST_TOKEN], ...options });
  const serve = (socket: Socket): void => {
    let buffer = Buffer.alloc(0);
    // Answers in the order of their requests: each waits for the one before it.
    let previous: Promise<unknown> = Promise.resolve();
    const handle = ({ request, line, closes, hostMissing }: ReadRequest): void => {
      const close = closes && layer.clientClose === 'honoured';
      const answered = sleep(layer.storeMs?.(request) ?? 0).then(() => (hostMissing && layer.host !== 'ignored' ? errorResponse(400, 'an HTTP/1.1 request needs a Host field') : (layer.answer?.(request, line, app) ?? app.request(request))));
      const before = previous;
      const written = (layer.answerOrder === 'arrival' ? before.then(() => answered) : answered).then((answer) => {
        if (answer === 'die') return running.close();
        if (socket.destroyed) return;
        socket.write(answerBytes(answer, close));
        if (close) socket.end();
      });
      previous = written;
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (let next = readRequest(buffer); next !== undefined; next = readRequest(buffer)) {
        buffer = layer.bytesAfterRequest === 'kept' ? buffer.subarray(next.end) : Buffer.alloc(0);
        handle(next.read);
      }
    });
  };
  // Read only once a request came: the server is listening by then.
  const running = await listenRaw(serve);
  return running;
}

/** A node:net server on a loopback port, each connection given to `serve`; closing it destroys them all. */
export async function listenRaw(serve: (socket: Socket) => void): Promise<{ readonly url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    serve(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Correct: what a careful hand-written layer does. */
export const CAREFUL_LAYER: RawLayer = { clientClose: 'honoured', bytesAfterRequest: 'kept', answerOrder: 'arrival' };

/** A tagged plant is two inserts (the plant, its tag), an untagged one a single insert, 5 ms each. */
export function insertsMs(request: AppRequest): number {
  try {
    const body: unknown = JSON.parse(Buffer.from(request.body ?? []).toString('utf8'));
    return typeof body === 'object' && body !== null && 'tag' in body ? 10 : 5;
  } catch {
    return 0;
  }
}
