/**
 * Lingering close. When the server answers a request before it has read the whole body (a body
 * over the limit, by declaration or while it is read; a refusal before the body, such as a 401
 * to a large upload) and will close the connection, closing at once would lose the answer:
 * bytes the client is still sending arrive at a closed socket, the kernel answers them with a
 * reset, and the reset makes the client's kernel drop the answer it has not read yet - the
 * client sees EPIPE or ECONNRESET instead of the Error.
 *
 * So the server closes in stages, as RFC 9112, section 9.6 describes (and as nginx's
 * `lingering_close` and Go's net/http do): it writes the answer, half-closes (a FIN after the
 * answer: nothing more will come), then goes on reading and discarding what the client sends
 * until the client has sent the whole request or closes its side, and only then closes. A
 * client can abuse this to hold a connection, so it is bounded three ways: the bytes discarded,
 * the time after the answer (nginx's `lingering_time`), and the time the client may stay silent
 * (`lingering_timeout`). Past a bound the connection is cut: by then the answer has long been
 * out, and a client still sending has had the time to read it.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface LingerLimits {
  /** Bytes read and discarded after the decision to close, at most. */
  readonly bytes: number;
  /** How long the connection may linger after the answer is out, at most (ms). */
  readonly ms: number;
  /** How long the client may send nothing while it lingers (ms). */
  readonly idleMs: number;
}

/**
 * 16 MiB covers any upload a client of a JSON interface plausibly starts; 5 s and 1 s are well
 * within the slow-client bounds the server has anyway (10 s for a head, 30 s for a request).
 */
export const DEFAULT_LINGER: LingerLimits = { bytes: 16 * 1024 * 1024, ms: 5_000, idleMs: 1_000 };

const lingering = new WeakSet<Socket>();

/** Whether the connection is closing after an early answer: another request on it is not to be answered (RFC 9112, section 9.6). */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Called when `req` is answered early and the connection is to close after the answer (which
 * carries `Connection: close`): the rest of the body is read and discarded from now on, and the
 * connection closes once the client has sent it all, or at a bound.
 */
export function lingerAfterAnswer(req: IncomingMessage, limits: LingerLimits): void {
  const socket = req.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  let discarded = 0;
  let answered = false;
  let idle: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const cut = (): void => {
    socket.destroy();
  };
  // The client has sent the whole request: close once the answer and the FIN are out.
  const close = (): void => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', cut);
  };
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.bytes) cut();
    else idle?.refresh();
  });
  req.once('end', () => {
    if (answered) close();
  });
  socket.once('close', () => {
    clearTimeout(idle);
    clearTimeout(deadline);
  });
  // node:http calls destroySoon() once the answer is written out; here it half-closes instead
  // and lingers. Only this socket is changed, and only when it lingers.
  socket.destroySoon = () => {
    answered = true;
    socket.end();
    if (req.complete) {
      close();
      return;
    }
    idle = setTimeout(cut, limits.idleMs).unref();
    deadline = setTimeout(cut, limits.ms).unref();
  };
}
