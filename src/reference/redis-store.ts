/**
 * The reference's store in Redis (`--store redis://host:port/db`): one truth for several `serve`
 * processes. Node only; ioredis is imported when a Redis store is asked for, never at start-up.
 *
 * The answers stay synchronous (resource-answers.ts, lists.ts). A request runs its answer against
 * a `RequestView`: what the run reads that the view does not hold yet is loaded from Redis in one
 * atomic read (a Lua script), and the answer runs again, until a run reads nothing new. Its writes
 * are then committed by one Lua script that first checks that everything the run read is still as
 * it was read (the item's text, a scope's version): all or nothing, atomic in Redis, no lock of
 * our own; where something changed, the request runs again on fresh reads. So two processes
 * writing one key end in one of the writes, never a mix, and a PATCH merges into what is stored.
 *
 * Keys, under a prefix naming the contract's title and version and the session
 * (`plant-store:<title>:<version>:<session>:`, each part percent-encoded):
 *   `i:<scope>\0<key>` an item, its JSON text exactly as answered (int64 digit for digit);
 *   `s:<scope>` a sorted set of the scope's keys by insertion counter (the list's order);
 *   `v:<scope>` the scope's version, raised by every write to it (what a list's read is checked by);
 *   `age` a sorted set of `<scope>\0<key>` by insertion counter (eviction, oldest first);
 *   `n` the insertion counter; `seq` the sequence of server-assigned keys (INCR: unique across processes).
 */
import type { Redis, RedisOptions } from 'ioredis';
import { parseJson, stringifyJson, type Contract, type JsonObject } from '../openapi/portable.js';
import { PlantStoreError } from '../http/portable.js';
import type { ItemStore } from './store.js';

const SEPARATOR = '\u0000';

/** One atomic read: for each `i scope key`, the item's text (nil when absent); for each `s scope`, {version, key, text, key, text, ...}. */
const READ_SCRIPT = `
local p = ARGV[1]
local out = {}
local i = 2
while i <= #ARGV do
  local kind, scope = ARGV[i], ARGV[i + 1]
  if kind == 'i' then
    out[#out + 1] = redis.call('GET', p .. 'i:' .. scope .. '\\0' .. ARGV[i + 2])
    i = i + 3
  else
    local listed = { redis.call('GET', p .. 'v:' .. scope) or '0' }
    for _, key in ipairs(redis.call('ZRANGE', p .. 's:' .. scope, 0, -1)) do
      listed[#listed + 1] = key
      listed[#listed + 1] = redis.call('GET', p .. 'i:' .. scope .. '\\0' .. key) or ''
    end
    out[#out + 1] = listed
    i = i + 2
  end
end
return out`;

/**
 * One atomic commit: ARGV = prefix, maxEntries, the number of checks, the checks (`i scope key text`:
 * the item is this text; `n scope key`: there is none; `s scope version`), then the writes
 * (`p scope key text`, `d scope key`). Returns 0, changing nothing, where a check fails; else 1,
 * after the writes and the eviction of the oldest items beyond maxEntries.
 */
const COMMIT_SCRIPT = `
local p, max, checks = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local i = 4
for _ = 1, checks do
  local kind, scope = ARGV[i], ARGV[i + 1]
  if kind == 's' then
    if (redis.call('GET', p .. 'v:' .. scope) or '0') ~= ARGV[i + 2] then return 0 end
    i = i + 3
  elseif kind == 'n' then
    if redis.call('EXISTS', p .. 'i:' .. scope .. '\\0' .. ARGV[i + 2]) == 1 then return 0 end
    i = i + 3
  else
    if redis.call('GET', p .. 'i:' .. scope .. '\\0' .. ARGV[i + 2]) ~= ARGV[i + 3] then return 0 end
    i = i + 4
  end
end
local function forget(scope, key)
  redis.call('DEL', p .. 'i:' .. scope .. '\\0' .. key)
  redis.call('ZREM', p .. 's:' .. scope, key)
  redis.call('ZREM', p .. 'age', scope .. '\\0' .. key)
  redis.call('INCR', p .. 'v:' .. scope)
end
while i <= #ARGV do
  local kind, scope, key = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if kind == 'p' then
    local n = redis.call('INCR', p .. 'n')
    redis.call('SET', p .. 'i:' .. scope .. '\\0' .. key, ARGV[i + 3])
    redis.call('ZADD', p .. 's:' .. scope, n, key)
    redis.call('ZADD', p .. 'age', n, scope .. '\\0' .. key)
    redis.call('INCR', p .. 'v:' .. scope)
    i = i + 4
  else
    forget(scope, key)
    i = i + 3
  end
end
while redis.call('ZCARD', p .. 'age') > max do
  local member = redis.call('ZRANGE', p .. 'age', 0, 0)[1]
  local at = string.find(member, '\\0', 1, true)
  forget(string.sub(member, 1, at - 1), string.sub(member, at + 1))
end
return 1`;

/** The ioredis settings of the shared store (docs/reference-server.md, "Sharing one reference"). */
export const REDIS_SETTINGS = {
  // A request while Redis is away fails at once (a 503) rather than waiting in a queue.
  enableOfflineQueue: false,
  // A command in flight when the connection drops fails with it: never resent later, half-known.
  maxRetriesPerRequest: 0,
  // A Redis that accepts the connection but does not answer: the request fails after 5 s.
  commandTimeout: 5_000,
  connectTimeout: 5_000,
  // Reconnect for ever, 100 ms more each time, at most every 2 s: service resumes when Redis returns.
  retryStrategy: (times: number) => Math.min(times * 100, 2_000),
  lazyConnect: true,
} satisfies RedisOptions;

interface Scripted {
  plantRead(...args: string[]): Promise<(string | null | string[])[]>;
  plantCommit(...args: string[]): Promise<number>;
}

/** The 503 of a request that needs the store while Redis cannot be reached. */
export function storeUnavailable(): PlantStoreError {
  return new PlantStoreError('store_unavailable', 'store: the shared store (Redis) cannot be reached; nothing was changed, try again');
}

/** The part of a key name that comes from outside (a title, a session): percent-encoded, so that `:` never appears in it. */
function part(text: string): string {
  return encodeURIComponent(text);
}

/** A prefix as a SCAN MATCH pattern: its glob characters escaped. */
function matchAll(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/** The shared store of one contract in one Redis: each session's keys under their own prefix. */
export class RedisStore {
  readonly redis: Redis;
  readonly maxEntries: number;
  readonly #base: string;

  constructor(redis: Redis, contract: Pick<Contract, 'title' | 'version'>, maxEntries: number) {
    this.redis = redis;
    this.maxEntries = maxEntries;
    this.#base = `plant-store:${part(contract.title)}:${part(contract.version)}:`;
    redis.defineCommand('plantRead', { numberOfKeys: 0, lua: READ_SCRIPT });
    redis.defineCommand('plantCommit', { numberOfKeys: 0, lua: COMMIT_SCRIPT });
  }

  /** The prefix of a session's keys (`-` the default store's). */
  prefix(session: string | undefined): string {
    return `${this.#base}${session === undefined ? '-' : `s=${part(session)}`}:`;
  }

  get #scripted(): Scripted {
    return this.redis as unknown as Scripted;
  }

  /** A view of a session's store for one request. */
  view(session: string | undefined): RequestView {
    return new RequestView(this, this.prefix(session));
  }

  /** Empties a session's store (the default store for undefined): SCAN + UNLINK of its keys; how many items it held. */
  async clear(session: string | undefined): Promise<number> {
    const prefix = this.prefix(session);
    const held = await this.redis.zcard(`${prefix}age`);
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', matchAll(prefix), 'COUNT', 500);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    return held;
  }

  async read(prefix: string, wanted: readonly string[]): Promise<(string | null | string[])[]> {
    return this.#scripted.plantRead(prefix, ...wanted);
  }

  async commit(prefix: string, checks: readonly string[], checkCount: number, writes: readonly string[]): Promise<boolean> {
    return (await this.#scripted.plantCommit(prefix, String(this.maxEntries), String(checkCount), ...checks, ...writes)) === 1;
  }

  async sequences(prefix: string, count: number): Promise<bigint[]> {
    const last = BigInt(await this.redis.incrby(`${prefix}seq`, count));
    return Array.from({ length: count }, (_, index) => last - BigInt(count - 1 - index));
  }
}

interface ScopeRead {
  readonly version: string;
  readonly entries: [string, JsonObject][];
}

/** An item as read: its text (what the commit checks) and its value; null where none is stored. */
interface ItemRead {
  readonly text: string;
  readonly item: JsonObject;
}

/**
 * One request's view of a session's store: the `ItemStore` an answer runs against
 * synchronously. A read it does not hold is answered as absent and noted (`incomplete`); `load`
 * fetches every noted read, and the answer runs again. Its writes are kept until `commit`.
 */
export class RequestView implements ItemStore {
  readonly #store: RedisStore;
  readonly #prefix: string;
  readonly #items = new Map<string, ItemRead | null>();
  readonly #scopes = new Map<string, ScopeRead>();
  readonly #wantedItems = new Map<string, readonly [string, string]>();
  readonly #wantedScopes = new Set<string>();
  /** What this run read, for the commit's checks. */
  readonly #readItems = new Set<string>();
  readonly #readScopes = new Set<string>();
  /** This run's writes in order, by member: the item, or null for a delete. */
  readonly #writes = new Map<string, { scope: string; key: string; item: JsonObject | null }>();
  #sequences: bigint[] = [];
  #sequenceUsed = 0;
  #sequenceWanted = 0;
  /** The UUIDs handed out, the same again in order on each run (a run must read what the last one read to finish). */
  readonly #uuids: string[] = [];
  #uuidUsed = 0;

  constructor(store: RedisStore, prefix: string) {
    this.#store = store;
    this.#prefix = prefix;
  }

  /** Whether the run read something the view does not hold (its answer is to be thrown away). */
  get incomplete(): boolean {
    return this.#wantedItems.size > 0 || this.#wantedScopes.size > 0 || this.#sequenceWanted > 0;
  }

  get written(): boolean {
    return this.#writes.size > 0;
  }

  /** Before each run of the answer: no reads or writes noted, the sequence's numbers handed out again. */
  begin(): void {
    this.#readItems.clear();
    this.#readScopes.clear();
    this.#writes.clear();
    this.#sequenceUsed = 0;
    this.#uuidUsed = 0;
  }

  /** Forgets what was read (after a failed commit: someone wrote in between). The sequence's numbers are kept. */
  forget(): void {
    this.#items.clear();
    this.#scopes.clear();
  }

  get(id: bigint | string, scope = ''): JsonObject | undefined {
    const key = typeof id === 'string' ? id : id.toString();
    const member = scope + SEPARATOR + key;
    const written = this.#writes.get(member);
    if (written !== undefined) return written.item ?? undefined;
    const read = this.#items.get(member);
    if (read === undefined) {
      this.#wantedItems.set(member, [scope, key]);
      return undefined;
    }
    this.#readItems.add(member);
    return read?.item;
  }

  put(id: bigint | string, item: JsonObject, scope = ''): JsonObject {
    const key = typeof id === 'string' ? id : id.toString();
    const member = scope + SEPARATOR + key;
    // A replaced item counts as the newest (as in PlantStore): written after the others.
    this.#writes.delete(member);
    this.#writes.set(member, { scope, key, item });
    return item;
  }

  delete(id: bigint | string, scope = ''): boolean {
    const existed = this.get(id, scope) !== undefined;
    const key = typeof id === 'string' ? id : id.toString();
    if (existed) this.#writes.set(scope + SEPARATOR + key, { scope, key, item: null });
    return existed;
  }

  entries(scope = ''): Iterable<[string, JsonObject]> {
    const read = this.#scopes.get(scope);
    if (read === undefined) {
      this.#wantedScopes.add(scope);
      return [];
    }
    this.#readScopes.add(scope);
    return read.entries;
  }

  randomUuid(): string {
    let uuid = this.#uuids[this.#uuidUsed];
    if (uuid === undefined) {
      uuid = globalThis.crypto.randomUUID();
      this.#uuids.push(uuid);
    }
    this.#uuidUsed += 1;
    return uuid;
  }

  nextSequence(): bigint {
    const next = this.#sequences[this.#sequenceUsed];
    this.#sequenceUsed += 1;
    if (next !== undefined) return next;
    this.#sequenceWanted += 1;
    // A number no run commits with: the run is incomplete, and runs again with a real one.
    return 0n;
  }

  /** Fetches every read the last run noted, in one atomic read, and the sequence's numbers it asked for. */
  async load(): Promise<void> {
    if (this.#sequenceWanted > 0) {
      this.#sequences = [...this.#sequences, ...(await this.#store.sequences(this.#prefix, this.#sequenceWanted))];
      this.#sequenceWanted = 0;
    }
    const items = [...this.#wantedItems];
    const scopes = [...this.#wantedScopes];
    this.#wantedItems.clear();
    this.#wantedScopes.clear();
    if (items.length === 0 && scopes.length === 0) return;
    const answer = await this.#store.read(this.#prefix, [...items.flatMap(([, [scope, key]]) => ['i', scope, key]), ...scopes.flatMap((scope) => ['s', scope])]);
    items.forEach(([member], index) => {
      const text = answer[index];
      this.#items.set(member, typeof text === 'string' ? { text, item: parseJson(text) as JsonObject } : null);
    });
    scopes.forEach((scope, index) => {
      const listed = answer[items.length + index] as string[];
      const entries: [string, JsonObject][] = [];
      for (let at = 1; at + 1 < listed.length; at += 2) entries.push([listed[at] as string, parseJson(listed[at + 1] as string) as JsonObject]);
      this.#scopes.set(scope, { version: listed[0] as string, entries });
    });
  }

  /** Commits the run's writes, if everything it read is still as read; whether it did. */
  async commit(): Promise<boolean> {
    const checks: string[] = [];
    let count = 0;
    for (const member of this.#readItems) {
      const read = this.#items.get(member);
      const at = member.indexOf(SEPARATOR);
      const [scope, key] = [member.slice(0, at), member.slice(at + 1)];
      checks.push(...(read === null || read === undefined ? ['n', scope, key] : ['i', scope, key, read.text]));
      count += 1;
    }
    for (const scope of this.#readScopes) {
      checks.push('s', scope, this.#scopes.get(scope)?.version ?? '0');
      count += 1;
    }
    const writes: string[] = [];
    for (const { scope, key, item } of this.#writes.values()) writes.push(...(item === null ? ['d', scope, key] : ['p', scope, key, stringifyJson(item)]));
    return this.#store.commit(this.#prefix, checks, count, writes);
  }
}

/** How many times a request runs its answer before it gives up (reads that keep changing under it). */
const MAX_RUNS = 64;

/**
 * Runs a synchronous answer against the shared store: until a run reads nothing new, then commits
 * its writes, running again on fresh reads where someone wrote in between. Redis unreachable: the 503.
 */
export async function runShared<T>(view: RequestView, run: (store: ItemStore) => T): Promise<T | PlantStoreError> {
  try {
    for (let runs = 0; runs < MAX_RUNS; runs += 1) {
      view.begin();
      const answered = run(view);
      if (view.incomplete) {
        await view.load();
        continue;
      }
      if (!view.written || (await view.commit())) return answered;
      view.forget();
    }
  } catch (cause) {
    if (isRedisFailure(cause)) return storeUnavailable();
    throw cause;
  }
  return new PlantStoreError('internal', `internal: the shared store kept changing under one request (${MAX_RUNS} runs)`);
}

/** An error of the Redis client (the connection, a timeout), not of the kit. */
export function isRedisFailure(cause: unknown): boolean {
  if (!(cause instanceof Error)) return false;
  const name = cause.name;
  // A script's error is a defect of the kit (a 500); Redis busy loading or read-only is unavailability.
  if (name === 'ReplyError') return /^(LOADING|BUSY|READONLY|MASTERDOWN|TRYAGAIN)/.test(cause.message);
  return name === 'MaxRetriesPerRequestError' || /stream isn't writeable|connection|command timed out|ECONNREFUSED|ECONNRESET|EPIPE/i.test(cause.message);
}

/** The shared store's Redis cannot be reached at start. */
export class StoreUnreachable extends Error {
  override name = 'StoreUnreachable';
}

/**
 * Connects to the Redis of `url` (`redis://host:port/db`) with the kit's settings; rejects with a
 * clear message where it cannot be reached now. ioredis is loaded here, only when asked for.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, REDIS_SETTINGS);
  let last: unknown;
  // Errors while serving are answered 503 per request and ioredis reconnects by itself; the event is not a crash.
  redis.on('error', (error: unknown) => {
    last = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const cause = last ?? error;
    throw new StoreUnreachable(`cannot reach the shared store at ${redactedUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  return redis;
}

/** A Redis URL without its password, for messages. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, (_, credentials: string) => `//${credentials.includes(':') ? `${credentials.slice(0, credentials.indexOf(':'))}:***` : '***'}@`);
}
