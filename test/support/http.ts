/**
 * The HTTP clients of the tests, for the kit's servers and any other target:
 * - `send`: one request through node:http (exact bytes, any method, any header value node:http
 *   lets through, chunked bodies), or raw bytes on a socket for what is not HTTP at all;
 * - `RawConnection` / `rawExchange`: a raw TCP client for what node:http's client cannot
 *   express - a head sent without its body, several requests on one connection, interim 100s,
 *   whether the server closed the connection afterwards.
 * Raw responses are read with Content-Length framing, which is all the kit's servers write, or
 * to the end of the connection when a response has no length.
 */
import { request as httpRequest, type Agent } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface WireRequest {
  readonly method: string;
  /** Path and query, as they go on the request line. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** Send the body with Transfer-Encoding: chunked, in pieces, instead of with a Content-Length. */
  readonly chunked?: boolean;
  /** Bytes written to the socket as they are, instead of an HTTP request built from the fields above. */
  readonly raw?: Uint8Array;
}

export interface WireResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface RawResponse extends WireResponse {
  readonly statusLine: string;
}

const TIMEOUT_MS = 10_000;

/** One request; `agent` keeps connections alive across calls (a fresh connection each time without one). */
export function send(baseUrl: string, request: WireRequest, agent?: Agent): Promise<WireResponse> {
  return request.raw ? sendRaw(baseUrl, request.raw) : sendHttp(baseUrl, request, agent);
}

function sendHttp(baseUrl: string, request: WireRequest, agent: Agent | undefined): Promise<WireResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: request.method, path: request.path, agent: agent ?? false, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    // An early answer may close the connection while the body is still going out; once the
    // answer is in, the write error that follows rejects a settled promise and changes nothing.
    req.on('error', reject);
    req.setHeader('host', new URL(baseUrl).host);
    for (const [name, value] of Object.entries(request.headers)) req.setHeader(name, value);
    const body = request.body;
    if (body === undefined) {
      req.end();
    } else if (request.chunked === true) {
      req.setHeader('transfer-encoding', 'chunked');
      const piece = Math.max(1, Math.ceil(body.length / 3));
      for (let at = 0; at < body.length; at += piece) req.write(body.subarray(at, at + piece));
      req.end();
    } else {
      req.setHeader('content-length', String(body.length));
      req.end(body);
    }
  });
}

/** Writes bytes on a fresh connection and reads one HTTP/1.1 response. */
async function sendRaw(baseUrl: string, bytes: Uint8Array): Promise<WireResponse> {
  const { hostname, port } = new URL(baseUrl);
  const connection = await RawConnection.open(Number(port), hostname);
  try {
    connection.send(bytes);
    return await connection.next(TIMEOUT_MS);
  } finally {
    connection.destroy();
  }
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

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => {
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
      if (this.#ended) throw new Error(`connection closed before a whole response; got ${JSON.stringify(this.#buffer.toString('latin1').slice(0, 200))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no whole response within ${timeoutMs} ms; got ${JSON.stringify(this.#buffer.toString('latin1').slice(0, 200))}`);
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
    const declared = headers['content-length'];
    // Without Content-Length (and not chunked) the body runs to the end of the connection (RFC 9112, section 6.3).
    if (status >= 200 && headers['transfer-encoding'] !== undefined) throw new Error(`a chunked response, which this client does not read: ${statusLine}`);
    if (declared === undefined && status >= 200 && !this.#ended) return undefined;
    const length = status < 200 ? 0 : declared === undefined ? this.#buffer.length - end - 4 : Number(declared);
    if (!Number.isInteger(length) || length < 0) throw new Error(`a response without a length this client reads: ${statusLine}`);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = Buffer.from(this.#buffer.subarray(end + 4, end + 4 + length));
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

/** How a TCP connection to the port ends: 'accepted', or the error's code (ECONNREFUSED when nothing listens). */
export function connectOutcome(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
  });
}

/** A loopback port something already listens on, to see a server refuse it; close it after. */
export async function occupiedPort(): Promise<{ readonly port: number; readonly close: () => void }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
