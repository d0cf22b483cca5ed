/** The connection pool over real sockets: up to its size, the one that rested longest first, waiters served on release or discard. */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool, type Connection } from '../../../fuzz/wire/pool.js';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function target(onSocket: (socket: Socket) => void = () => undefined): Promise<URL> {
  const server = createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

const quiet = { data: () => undefined, end: () => undefined };

describe('ConnectionPool', () => {
  it('opens up to its size, then hands out the next one released', async () => {
    const pool = new ConnectionPool(await target(), 2, quiet);
    const a = await pool.acquire();
    const b = await pool.acquire();
    expect(a.id).not.toBe(b.id);
    const third = pool.acquire();
    let handed: Connection | undefined;
    void third.then((c) => (handed = c));
    await sleep(10);
    expect(handed).toBeUndefined();
    pool.release(a);
    expect(await third).toBe(a);
    expect(a.state).toBe('busy');
    pool.close();
    for (const c of [...pool.all]) pool.discard(c);
  });

  it('hands out the idle connection that rested longest', async () => {
    const pool = new ConnectionPool(await target(), 2, quiet);
    const a = await pool.acquire();
    const b = await pool.acquire();
    pool.release(b);
    pool.release(a);
    await sleep(5);
    expect(await pool.acquire()).toBe(b);
    for (const c of [...pool.all]) pool.discard(c);
  });

  it('opens a new one for a waiter when a pooled one is discarded; a fresh one is not counted', async () => {
    const pool = new ConnectionPool(await target(), 1, quiet);
    const fresh = pool.open(true);
    const a = await pool.acquire();
    const waiting = pool.acquire();
    pool.discard(a);
    const next = await waiting;
    expect(next.id).not.toBe(a.id);
    expect(a.state).toBe('closed');
    expect(pool.all.has(fresh)).toBe(true);
    pool.close();
    for (const c of [...pool.all]) pool.discard(c);
    expect(pool.all.size).toBe(0);
  });

  it('tells of the bytes and the end of each connection', async () => {
    const seen: string[] = [];
    const pool = new ConnectionPool(await target((socket) => socket.end('hello')), 1, {
      data: (c, chunk) => seen.push(`data ${c.id} ${chunk.toString()}`),
      end: (c) => seen.push(`end ${c.id}`),
    });
    const a = await pool.acquire();
    await sleep(100);
    expect(seen.slice(0, 2)).toEqual([`data ${a.id} hello`, `end ${a.id}`]);
    pool.discard(a);
  });
});
