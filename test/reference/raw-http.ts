/**
 * Clients for the socket tests: one battery case through node:http (`send`), and a raw TCP
 * client for what node:http's client cannot express: bytes that are
 * not HTTP, a head sent without its body, several requests on one connection, interim 100s.
 * Responses are read with Content-Length framing, which is all the reference server writes.
 */
import type { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { send as sendWire } from '../support/http.js';
import type { BatteryCase } from './battery.js';
import { decodeBody, type Answer } from './expect-answer.js';

export interface RawResponse extends Answer {
  readonly statusLine: string;
}

export class RawConnection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  #ended = false;
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.#ended = true;
        this.#wake();
        resolve();
      });
    });
    // A reset after the answer is the server closing a connection we still write to; `closed` tells it.
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(data: string | Uint8Array): void {
    this.#socket.write(data);
  }

  get isClosed(): boolean {
    return this.#ended;
  }

  /** The next response on the connection (an interim 1xx included); rejects if the connection ends first. */
  async next(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.#take();
      if (parsed) return parsed;
      if (this.#ended) throw new Error(`connection closed before a whole response; got ${JSON.stringify(this.#buffer.toString('latin1'))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no whole response within ${timeoutMs} ms; got ${JSON.stringify(this.#buffer.toString('latin1'))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  #take(): RawResponse | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine = '', ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? NaN);
    if (!Number.isInteger(length)) throw new Error(`a response without Content-Length: ${statusLine}`);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = decodeBody(this.#buffer.subarray(end + 4, end + 4 + length));
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    return { statusLine, status, headers, body };
  }
}

/**
 * One raw exchange: connect, send, read one response. `closedAfter` says whether the server then
 * closed the connection; it is only waited for (up to 2 s) when `waitForClose` is set, since a
 * kept-alive connection would make every exchange wait the whole time.
 */
export async function rawExchange(port: number, data: string | Uint8Array, options: { readonly waitForClose?: boolean } = {}): Promise<RawResponse & { readonly closedAfter: boolean }> {
  const connection = await RawConnection.open(port);
  try {
    connection.send(data);
    const response = await connection.next();
    const closedAfter =
      options.waitForClose === true
        ? await Promise.race([
            connection.closed.then(() => true),
            new Promise<boolean>((resolve) => {
              setTimeout(() => {
                resolve(false);
              }, 2_000);
            }),
          ])
        : connection.isClosed;
    return { ...response, closedAfter };
  } finally {
    connection.destroy();
  }
}

/** A request head (and optional body) as HTTP/1.1 text with CRLFs. */
export function rawRequest(head: string, body = ''): string {
  return `${head.trim().split('\n').map((line) => line.trim()).join('\r\n')}\r\n\r\n${body}`;
}

/** One battery case through node:http (the shared test client); resolves with the whole answer. */
export async function send(baseUrl: string, agent: Agent, c: Pick<BatteryCase, 'method' | 'url' | 'headers' | 'body'>): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers)) if (value !== undefined) headers[name] = value;
  const response = await sendWire(baseUrl, { method: c.method, path: c.url, headers, ...(c.body === undefined ? {} : { body: Buffer.from(c.body) }) }, agent);
  return { status: response.status, headers: response.headers, body: decodeBody(response.body) };
}
