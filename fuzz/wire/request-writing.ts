/** Writing a request: its head (the bytes exactly as the engine means them), then its body. */
import type { Socket } from 'node:net';
import { headerLines } from './header-lines.js';
import { writeRequestHead, type OutgoingHead } from './http-wire.js';
import type { HttpRequest } from '../../oracle/index.js';
import type { Writable } from '../writable.js';
import { originForm } from '../../src/http/index.js';

/**
 * Whether the request goes with `Connection: close` when the client means to close its connection
 * after it (`close`). HTTP/1.0 closes unless asked to keep the connection (RFC 9112, section 9.3):
 * no `close` to add.
 */
export function asksToClose(request: HttpRequest, close: boolean): boolean {
  return close && request.framing?.version !== '1.0';
}

/** The request's head under the base URL; `close` asks for the connection to close after it. Throws when the request cannot be written. */
export function requestHead(base: URL, request: HttpRequest, close: boolean): Buffer {
  const path = originForm(base, request.path);
  const framing = request.framing;
  const closing = asksToClose(request, close);
  // urlFor keeps the base URL's scheme and host.
  const target = framing?.target !== undefined ? exactTarget(base, framing.target) : framing?.absoluteForm === true ? `${base.protocol}//${base.host}${path}` : path;
  const head: Writable<OutgoingHead> = { method: request.method, target, host: base.host, headers: headerLines(request), bodyLength: request.body.length, close: closing };
  if (framing !== undefined) head.framing = framing;
  return writeRequestHead(head);
}

/** A target written as it is (RequestFraming.target), under the base URL's path; the asterisk-form alone. */
function exactTarget(base: URL, target: string): string {
  return target === '*' ? target : `${base.pathname.replace(/\/$/, '')}${target}`;
}

/** The body as it goes on the wire: as it is, or in the chunked coding, in two chunks and the last (RFC 9112, section 7.1). */
export function bodyBytes(request: HttpRequest): Uint8Array {
  if (request.framing?.chunked !== true) return request.body;
  const half = Math.ceil(request.body.length / 2);
  const chunks = [request.body.subarray(0, half), request.body.subarray(half)].filter((c) => c.length > 0);
  return Buffer.concat([...chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
}

/**
 * Writes head and body. `hold`: all but the head's final CRLF goes first, then the connection gets
 * a turn (a poll for I/O included) to deliver what is pending on it - a second answer a server with
 * Nagle's algorithm holds until this segment acknowledges the first; the rest goes only if
 * `proceed` says so then (whatever came meanwhile cannot answer this request).
 */
export function writeRequest(socket: Socket, head: Buffer, body: Uint8Array, hold: boolean, proceed: () => boolean): void {
  const bytes = body.length === 0 ? head : Buffer.concat([head, body]);
  if (!hold) {
    socket.write(bytes);
    return;
  }
  socket.write(bytes.subarray(0, head.length - 2));
  setImmediate(() => {
    setImmediate(() => {
      if (proceed()) socket.write(bytes.subarray(head.length - 2));
    });
  });
}
