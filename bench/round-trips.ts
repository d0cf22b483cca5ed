/**
 * What the shared store (issue 31) costs a request in Redis: the round trips, counted per request
 * kind from Redis's own `INFO commandstats`, and Redis's CPU from `INFO cpu`. Redis counts the
 * commands a script runs among its calls too: a round trip is one of the commands the reference
 * sends itself (ROUND_TRIPS: its scripts, the sequence's INCRBY; ioredis pipelines none of them);
 * the others are the work inside the scripts, reported beside. Measured against a
 * reference on PLANT_STORE_BENCH_REDIS_URL, one request at a time, so that nothing else is counted.
 */
import type { Redis } from 'ioredis';
import { JSON_AUTH } from './workload.js';

export interface Probe {
  readonly name: string;
  readonly method: string;
  /** The request's path and body for its `index`-th sending (each sending may name its own item). */
  readonly path: (index: number) => string;
  readonly body?: (index: number) => string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The commands src/reference/redis-store.ts sends itself (the scripts' own commands are others: GET, SET, ZADD, INCR, ...). */
const ROUND_TRIPS = new Set(['eval', 'evalsha', 'incrby', 'scan', 'unlink', 'ping']);

export interface RoundTripFigure {
  readonly kind: string;
  readonly sent: number;
  /** The statuses answered, each with how many times. */
  readonly statuses: Record<string, number>;
  /** Round trips per request (the commands the reference sent, over the requests sent). */
  readonly perRequest: number;
  /** The commands Redis ran inside the scripts, per request. */
  readonly inScripts: number;
  /** Each command, per request. */
  readonly commands: Record<string, number>;
}

export async function connectBenchRedis(url: string): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}

/** Calls of each command Redis processed so far (`cmdstat_<name>:calls=<n>,…`), the INFO that reads them left out. */
async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match !== null && match[1] !== 'info') calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

/** Redis's CPU time so far, in seconds (user + system, its main thread and children). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const text = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** Sends each probe `times` times, one at a time, and counts the commands Redis processed for it. */
export async function countRoundTrips(redis: Redis, url: string, probes: readonly Probe[], times: number, session: string): Promise<RoundTripFigure[]> {
  const figures: RoundTripFigure[] = [];
  for (const probe of probes) {
    const before = await commandCalls(redis);
    const statuses: Record<string, number> = {};
    for (let index = 0; index < times; index += 1) {
      const body = probe.body?.(index);
      const response = await fetch(url + probe.path(index), { method: probe.method, headers: { ...(probe.headers ?? JSON_AUTH), 'plant-store-session': session }, ...(body === undefined ? {} : { body }) });
      await response.arrayBuffer();
      statuses[String(response.status)] = (statuses[String(response.status)] ?? 0) + 1;
    }
    const after = await commandCalls(redis);
    const commands: Record<string, number> = {};
    let sent = 0;
    let inScripts = 0;
    for (const [name, calls] of after) {
      const made = calls - (before.get(name) ?? 0);
      if (made <= 0) continue;
      commands[name] = made / times;
      if (ROUND_TRIPS.has(name)) sent += made;
      else inScripts += made;
    }
    figures.push({ kind: probe.name, sent: times, statuses, perRequest: sent / times, inScripts: inScripts / times, commands });
  }
  return figures;
}

/**
 * A collection/item pattern's every kind of request, on the full store's `/plants` and
 * `/plants/{id}` (examples/contracts/plant-store-full.yaml): the `index`-th create makes the item
 * the `index`-th read, replace and delete name.
 */
export function fullStoreProbes(): Probe[] {
  const id = (index: number): string => String(9_007_199_254_740_993n + BigInt(index));
  const auth = { authorization: JSON_AUTH.authorization };
  return [
    { name: 'create (POST /plants)', method: 'POST', path: () => '/plants', body: (index) => `{"name":"Monstera","id":${id(index)}}` },
    { name: 'read (GET /plants/{id})', method: 'GET', path: (index) => `/plants/${id(index)}`, headers: auth },
    { name: 'read of an absent item (404)', method: 'GET', path: (index) => `/plants/${String(index + 1)}`, headers: auth },
    { name: 'replace (PUT /plants/{id})', method: 'PUT', path: (index) => `/plants/${id(index)}`, body: () => '{"name":"Monstera II"}' },
    { name: 'list (GET /plants)', method: 'GET', path: () => '/plants', headers: auth },
    { name: 'delete (DELETE /plants/{id})', method: 'DELETE', path: (index) => `/plants/${id(index)}`, headers: auth },
    { name: 'an invalid create (400)', method: 'POST', path: () => '/plants', body: () => '{"name":"Monstera"}' },
  ];
}
