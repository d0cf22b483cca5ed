/** Writing a request: its head (the bytes exactly as the engine means them), then its body. */
import type { Socket } from 'node:net';
import { headerLines } from './header-lines.js';
import { writeRequestHead } from './http-wire.js';
import type { HttpRequest } from '../types.js';
import { urlFor } from './base-url.js';

/** The request's head under the base URL; `close` asks for the connection to close after it. Throws when the request cannot be written. */
export function requestHead(base: URL, request: HttpRequest, close: boolean): Buffer {
  const url = urlFor(base, request.path);
  return writeRequestHead({ method: request.method, target: `${url.pathname}${url.search}`, host: base.host, headers: headerLines(request), bodyLength: request.body.length, close });
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
