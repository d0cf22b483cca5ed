/**
 * A real redis-server for the shared store's tests (no Redis mock): started on a free port with
 * no persistence, stopped after. PLANT_STORE_REDIS_SERVER names the binary (default
 * /usr/bin/redis-server, Debian's package; .ci/run installs it); without one the tests that need it
 * are skipped, with the reason `REDIS_SKIP`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';

export const REDIS_SERVER = process.env.PLANT_STORE_REDIS_SERVER ?? '/usr/bin/redis-server';
export const HAS_REDIS = existsSync(REDIS_SERVER);
export const REDIS_SKIP = `no redis-server at ${REDIS_SERVER} (install Debian's redis-server, or set PLANT_STORE_REDIS_SERVER)`;

export interface RunningRedis {
  readonly port: number;
  readonly url: string;
  /** Stops it (SIGKILL: as if it were lost), resolving once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port: empty, or with what it had written to disk (`persistIn`). */
  restart(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => { resolve(false); });
  });
}

/**
 * Without `dir`, no persistence: a restart comes back empty. With it, an append-only file there,
 * written to disk before each write is answered (`appendfsync always`): what Redis acknowledged
 * survives a SIGKILL and a restart, as with a Redis configured for durability.
 */
function persistence(dir: string | undefined): string[] {
  return dir === undefined ? ['--appendonly', 'no'] : ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always'];
}

async function launch(port: number, dir?: string): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence(dir)], { stdio: 'ignore' });
  for (let tries = 0; tries < 200; tries += 1) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${String(child.exitCode)}`);
    if (await accepts(port)) return child;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not listen on ${port}`);
}

/** A redis-server on a free port; with `persistIn` (a directory of the test's own), its writes kept there across a restart. */
export async function startRedis(options: { readonly persistIn?: string } = {}): Promise<RunningRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, options.persistIn);
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop: async () => {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      child = await launch(port, options.persistIn);
    },
  };
}

/** A reference of `contract` on a fresh redis-server for a describe block: its URL once started; both stopped after. */
export function referenceOnRedis(start: (redisUrl: string) => Promise<{ readonly url: string; close(): Promise<void> }>): { readonly url: () => string; readonly redis: () => RunningRedis } {
  let redis: RunningRedis | undefined;
  let server: { readonly url: string; close(): Promise<void> } | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    server = await start(redis.url);
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });
  return {
    url: () => server?.url ?? '',
    redis: () => {
      if (redis === undefined) throw new Error('redis-server not started');
      return redis;
    },
  };
}
