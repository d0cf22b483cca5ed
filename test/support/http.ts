/**
 * A small HTTP client for the batteries of the reference and the mock: exact bytes, any method,
 * any header value node:http lets through, chunked bodies, and raw bytes on a socket for what is
 * not HTTP at all.
 */
import { request as httpRequest, type Agent } from 'node:http';
import { connect } from 'node:net';

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

/** Writes bytes on a fresh connection and reads one HTTP/1.1 response (the server closes after it). */
function sendRaw(baseUrl: string, bytes: Uint8Array): Promise<WireResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks);
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(new Error(`not an HTTP response: ${JSON.stringify(text.toString('latin1').slice(0, 200))}`));
        return;
      }
      const [statusLine = '', ...lines] = text.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.subarray(split + 4) });
    });
  });
}
