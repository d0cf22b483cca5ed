/**
 * `serve --workers N`: N processes answering on one port (node:cluster), each a whole `serve` on
 * the shared store (--store redis://…). The primary answers nothing: it checks the store once,
 * gives every worker the same token, prints the one banner once all listen, forks a worker again
 * where one dies, and stops them all on SIGINT or SIGTERM. With the store in memory each worker
 * would keep plants of its own, so more than one is refused.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { connectRedis, StoreUnreachable } from '../../src/reference/index.js';
import type { Io } from '../command.js';
import { HELD, UsageError, type Outcome } from '../outcome.js';
import type { ServeCommandOptions } from '../serve.js';

interface Listening {
  readonly plantStoreListening: string;
}

export function isWorker(): boolean {
  return cluster.isWorker;
}

/** A worker tells the primary where it listens. */
export function tellPrimary(url: string): void {
  process.send?.({ plantStoreListening: url } satisfies Listening);
}

/** A worker that has stopped serving lets go of the primary: the IPC channel would keep it alive. */
export function leavePrimary(): void {
  cluster.worker?.disconnect();
}

function listeningUrl(message: unknown): string | undefined {
  return typeof message === 'object' && message !== null && 'plantStoreListening' in message ? (message as Listening).plantStoreListening : undefined;
}

/** What serve.ts lends (it imports this file, so this one does not import it). */
export interface ServeParts {
  readonly banner: (url: string, token: string, generated: boolean) => string;
  readonly untilSignal: () => Promise<NodeJS.Signals>;
}

export async function serveWorkers(options: ServeCommandOptions, io: Io, { banner, untilSignal }: ServeParts): Promise<Outcome> {
  if (options.store === 'memory') throw new UsageError(`--workers ${String(options.workers)}: with the store in memory each worker would keep plants of its own; give --store redis://host:port/db (or PLANT_STORE_REDIS_URL), or serve one process`);
  await checkStore(options.store);
  const generated = options.token.length === 0;
  // Every worker accepts the same tokens: the generated one is handed to them all.
  const tokens = generated ? [randomBytes(18).toString('base64url')] : options.token;
  const env = { PLANT_STORE_TOKENS: tokens.join(',') };
  let stopping = false;
  const workers = new Set<Worker>();
  const fork = (): Worker => {
    const worker = cluster.fork(env);
    workers.add(worker);
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      io.err(`plant-store: a worker stopped (exit code ${String(code)}, signal ${signal}); starting another\n`);
      fork();
    });
    return worker;
  };
  const first = await Promise.race([
    Promise.all(Array.from({ length: options.workers }, () => listened(fork()))),
    untilSignal().then(() => undefined),
  ]).catch((error: unknown) => {
    stopping = true;
    return Promise.all([...workers].map(stopped)).then(() => {
      throw error;
    });
  });
  if (first === undefined) {
    stopping = true;
    await Promise.all([...workers].map(stopped));
    return HELD;
  }
  io.out(banner(first[0] as string, tokens[0] as string, generated));
  await untilSignal();
  stopping = true;
  await Promise.all([...workers].map(stopped));
  return HELD;
}

/** Redis reachable now, or bad usage (exit 2) before any worker starts. */
async function checkStore(url: string): Promise<void> {
  try {
    const redis = await connectRedis(url);
    await redis.quit();
  } catch (error) {
    if (error instanceof StoreUnreachable) throw new UsageError(`--store: ${error.message}; start it, or serve without --store (in memory)`);
    throw error;
  }
}

/** Where a worker listens, once it does; rejects where it exits first (its message is on stderr). */
function listened(worker: Worker): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      const url = listeningUrl(message);
      if (url === undefined) return;
      worker.off('exit', onExit);
      worker.off('message', onMessage);
      resolve(url);
    };
    const onExit = (code: number | null): void => {
      worker.off('message', onMessage);
      reject(new UsageError(`--workers: a worker could not start (exit ${String(code)}); see its message above`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** Asks a worker to stop gracefully (SIGTERM: requests in flight finish); resolves once it has. */
function stopped(worker: Worker): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    worker.once('exit', () => {
      resolve();
    });
    worker.process.kill('SIGTERM');
  });
}
