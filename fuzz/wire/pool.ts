/**
 * The connection pool: kept-alive connections (twice `concurrency`), handed out the one that rested
 * longest first, so that every connection rests between two exchanges and late bytes show there;
 * and connections of their own (`fresh`), opened for one exchange and closed after it.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as connectTls } from 'node:tls';
import type { HttpOutcome, HttpRequest } from '../../oracle/index.js';

/** A connection that rested less than this is not reused while the pool may still grow. */
const MIN_REST_MS = 1;

/** A connection to the base URL's host (TLS for https, HTTP/1.1 by ALPN), Nagle's algorithm off. */
export function connectTo(base: URL): Socket {
  const host = base.hostname.replace(/^\[|\]$/g, '');
  const secure = base.protocol === 'https:';
  const port = Number(base.port || (secure ? 443 : 80));
  const socket = secure ? connectTls({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) === 0 ? { servername: host } : {}) }) : connectTcp({ host, port });
  socket.setNoDelay(true);
  return socket;
}

export type ConnectionState = 'busy' | 'idle' | 'stray' | 'closed';

export interface Connection<E = unknown> {
  readonly id: number;
  readonly socket: Socket;
  readonly fresh: boolean;
  state: ConnectionState;
  /** Exchanges completed on it. */
  exchanges: number;
  current: E | undefined;
  last?: { readonly request: HttpRequest; readonly outcome: HttpOutcome; readonly endedAt: number };
  releasedAt: number;
  /** Set once the server closed its side. */
  ended: boolean;
  /** Bytes that came while it sat idle, and when the first came. */
  stray: Buffer[];
  strayAt?: number;
  strayTimer?: NodeJS.Timeout;
}

/** What the pool tells of its connections' sockets. */
export interface ConnectionEvents<E> {
  data(connection: Connection<E>, chunk: Buffer): void;
  /** The server closed its side, or the socket failed or closed. */
  end(connection: Connection<E>, error?: NodeJS.ErrnoException): void;
}

export class ConnectionPool<E> {
  /** Every connection open (or opening). */
  readonly all = new Set<Connection<E>>();
  /** Idle kept-alive connections, the one that rested longest first. */
  private readonly idle: Connection<E>[] = [];
  private readonly waiting: ((connection: Connection<E>) => void)[] = [];
  /** Kept-alive connections open (or opening), busy or idle. */
  private pooled = 0;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly base: URL,
    private readonly size: number,
    private readonly events: ConnectionEvents<E>,
  ) {}

  /** A new connection, busy: for the pool, or `fresh` (of its own). */
  open(fresh: boolean): Connection<E> {
    const socket = connectTo(this.base);
    const connection: Connection<E> = { id: this.nextId++, socket, fresh, state: 'busy', exchanges: 0, current: undefined, releasedAt: 0, ended: false, stray: [] };
    if (!fresh) this.pooled++;
    this.all.add(connection);
    socket.on('data', (chunk: Buffer) => {
      this.events.data(connection, chunk);
    });
    socket.on('end', () => {
      this.events.end(connection);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.events.end(connection, error);
    });
    socket.on('close', () => {
      if (connection.state !== 'closed') this.events.end(connection);
    });
    return connection;
  }

  /** The idle connection that rested longest, a new one while the pool may grow, or the next one released. */
  acquire(): Promise<Connection<E>> {
    const rested = this.idle[0];
    if (rested !== undefined && (performance.now() - rested.releasedAt >= MIN_REST_MS || this.pooled >= this.size)) {
      this.idle.shift();
      rested.state = 'busy';
      return Promise.resolve(rested);
    }
    if (this.pooled < this.size) return Promise.resolve(this.open(false));
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** An exchange on it is over and nothing is wrong with it: to whoever waits, or idle. */
  release(connection: Connection<E>): void {
    connection.current = undefined;
    if (connection.ended || this.closed) {
      this.discard(connection);
      return;
    }
    connection.releasedAt = performance.now();
    const next = this.waiting.shift();
    if (next !== undefined) {
      connection.state = 'busy';
      next(connection);
      return;
    }
    connection.state = 'idle';
    this.idle.push(connection);
  }

  /** An idle connection got bytes nobody asked for: no longer handed out. */
  stray(connection: Connection<E>): void {
    connection.state = 'stray';
    connection.strayAt = performance.now();
    const at = this.idle.indexOf(connection);
    if (at !== -1) this.idle.splice(at, 1);
  }

  /** Closes a connection for good (one that carried anything unexpected is never reused). */
  discard(connection: Connection<E>): void {
    if (connection.state === 'closed') return;
    connection.state = 'closed';
    clearTimeout(connection.strayTimer);
    connection.socket.destroy();
    this.all.delete(connection);
    const at = this.idle.indexOf(connection);
    if (at !== -1) this.idle.splice(at, 1);
    if (!connection.fresh) {
      this.pooled--;
      // Someone waits for a connection and there is room for one again.
      const next = this.closed ? undefined : this.waiting.shift();
      if (next !== undefined) next(this.open(false));
    }
  }

  /** No connection is handed out or kept from now on. */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
