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
 * no `close` to add. Nor where its Content-Length is invalid or beside Transfer-Encoding: the
 * server MUST close after its answer all the same (sections 6.1 and 6.3), and that is what is tested.
 */
export function asksToClose(request: HttpRequest, close: boolean): boolean {
  return close && request.framing?.version !== '1.0' && request.framing?.spelling?.contentLength === undefined;
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

/** The body as it goes on the wire: as it is, or in the chunked coding (RFC 9112, section 7.1), two chunks and the last unless the spelling says otherwise. */
export function bodyBytes(request: HttpRequest): Uint8Array {
  if (request.framing?.chunked !== true) return request.body;
  const spelling = request.framing.spelling?.chunks ?? { sizes: 'halves' };
  const body = request.body;
  const half = Math.ceil(body.length / 2);
  const chunks = spelling.sizes === 'bytes' ? [...body].map((_, i) => body.subarray(i, i + 1)) : [body.subarray(0, half), body.subarray(half)].filter((c) => c.length > 0);
  const size = (n: number): string => {
    const hex = `${'0'.repeat(spelling.zeros ?? 0)}${n.toString(16)}`;
    return `${spelling.upper === true ? hex.toUpperCase() : hex}${spelling.extension ?? ''}\r\n`;
  };
  const trailers = (spelling.trailers ?? []).map((line) => `${line}\r\n`).join('');
  return Buffer.concat([...chunks.flatMap((c) => [Buffer.from(size(c.length), 'latin1'), c, Buffer.from('\r\n')]), Buffer.from(`${size(0)}${trailers}\r\n`, 'latin1')]);
}

/**
 * Where a request written in pieces is cut (MessageSpelling.split): one cut in each class of
 * boundary a reader must carry across reads - inside the request line, inside a field name,
 * between a CR and its LF, before the empty line that ends the head, between head and body, and
 * inside the body (for a chunked one that is inside a chunk-size line and between a chunk and
 * its CRLF as well).
 */
export function cutPoints(head: Buffer, body: Uint8Array): number[] {
  const text = Buffer.concat([head, body]).toString('latin1');
  const firstCr = text.indexOf('\r');
  const secondLine = firstCr + 2;
  const cuts = [2, Math.floor(firstCr / 2), firstCr + 1, secondLine + 2, head.length - 2, head.length];
  const chunkLine = text.indexOf('\r', head.length);
  if (body.length > 2) cuts.push(head.length + 1, chunkLine + 1, head.length + Math.floor(body.length / 2), head.length + body.length - 1);
  return [...new Set(cuts)].filter((at) => at > 0 && at < head.length + body.length).sort((a, b) => a - b);
}

/**
 * Writes the bytes in pieces cut at `cuts`, each after the one before it has gone out and a pause:
 * long enough that a server which reads as it receives sees each piece in a read of its own even
 * on a loaded machine (at 1 ms, the pieces of a loaded run arrived together and a layer parsing
 * each read as a whole request went unseen).
 */
/** The pause between two pieces of a request written in pieces. */
const PIECE_PAUSE_MS = 25;

function writeInPieces(socket: Socket, bytes: Buffer, cuts: readonly number[]): void {
  const pieces = [0, ...cuts].map((from, i) => bytes.subarray(from, cuts[i] ?? bytes.length));
  const next = (i: number): void => {
    const piece = pieces[i];
    if (piece === undefined || socket.destroyed) return;
    socket.write(piece, () => {
      setTimeout(() => {
        next(i + 1);
      }, PIECE_PAUSE_MS);
    });
  };
  next(0);
}

/**
 * Writes head and body. `hold`: all but the head's final CRLF goes first, then the connection gets
 * a turn (a poll for I/O included) to deliver what is pending on it - a second answer a server with
 * Nagle's algorithm holds until this segment acknowledges the first; the rest goes only if
 * `proceed` says so then (whatever came meanwhile cannot answer this request). `split`: in
 * pieces (cutPoints), on a connection of its own.
 */
export function writeRequest(socket: Socket, head: Buffer, body: Uint8Array, hold: boolean, proceed: () => boolean, split = false): void {
  const bytes = body.length === 0 ? head : Buffer.concat([head, body]);
  if (split) {
    writeInPieces(socket, bytes, cutPoints(head, body));
    return;
  }
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
