/**
 * Slow clients for the soak, in their own process (forked with IPC) so their timers never
 * share an event loop with the load generator: `count` connections that each send a request
 * head one byte every `intervalMs` and never finish it (a slowloris). Reports to the parent
 * how many are open, how many the server answered (and with what status) or cut.
 *
 *   node dist/bench/slow-clients.js <port> <count> <intervalMs>
 */
import { connect, type Socket } from 'node:net';

export interface SlowReport {
  /** Connections established so far. */
  readonly connected: number;
  /** Connections open right now. */
  readonly open: number;
  /** Answers the server sent on slow connections, by status. */
  readonly answered: Readonly<Record<string, number>>;
  /** Connections the server closed. */
  readonly closedByServer: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly bytesSent: number;
}

// The head never ends: the trailing header value keeps growing by one byte at a time.
const HEAD = 'POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Trickle: ' + 'a'.repeat(16_000);

function main(): void {
  const [port, count, interval] = process.argv.slice(2).map(Number);
  if (!port || !count || !interval) throw new Error('usage: slow-clients <port> <count> <intervalMs>');
  const sockets = new Set<Socket>();
  let connected = 0;
  let closedByServer = 0;
  let bytesSent = 0;
  const answered: Record<string, number> = {};
  const errors: Record<string, number> = {};
  let stopping = false;

  const open = (index: number): void => {
    const socket = connect(port, '127.0.0.1');
    let position = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('connect', () => {
      connected++;
      // Spread the bytes of all connections evenly over the interval.
      const start = setTimeout(() => {
        timer = setInterval(() => {
          if (position < HEAD.length) {
            socket.write(HEAD[position++] ?? 'a');
            bytesSent++;
          }
        }, interval);
      }, (index * interval) / count);
      socket.once('close', () => {
        clearTimeout(start);
      });
    });
    socket.once('data', (chunk: Buffer) => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'not-http';
      answered[status] = (answered[status] ?? 0) + 1;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const key = error.code ?? error.message;
      errors[key] = (errors[key] ?? 0) + 1;
    });
    socket.once('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (!stopping) closedByServer++;
    });
  };
  // Open them a few at a time: hundreds of SYNs at once would only measure the listen backlog.
  let next = 0;
  const opener = setInterval(() => {
    for (let i = 0; i < 25 && next < count; i++) open(next++);
    if (next >= count) clearInterval(opener);
  }, 20);

  const report = (): SlowReport => ({ connected, open: sockets.size, answered, closedByServer, errors, bytesSent });
  const reporter = setInterval(() => process.send?.(report()), 250);
  const stop = (): void => {
    stopping = true;
    clearInterval(opener);
    clearInterval(reporter);
    process.send?.(report(), () => {
      process.disconnect();
    });
  };
  process.once('message', stop);
  // The parent went away (or stopped us): nothing may outlive it.
  process.once('disconnect', () => {
    stopping = true;
    clearInterval(opener);
    clearInterval(reporter);
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  });
}

main();
