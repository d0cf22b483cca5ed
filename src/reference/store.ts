/**
 * The reference implementation's in-memory store: plants keyed by their exact id (the decimal
 * text of the integer), at most `maxEntries` of them. When full, the plant stored longest ago
 * is forgotten, so a long fuzzing run cannot exhaust memory and rule 1 still holds for every
 * valid NewPlant (a full store never refuses one).
 */
import type { JsonObject } from '../openapi/portable.js';

export const DEFAULT_MAX_ENTRIES = 100_000;

export class PlantStore {
  readonly maxEntries: number;
  readonly #plants = new Map<string, JsonObject>();

  constructor(maxEntries: number = DEFAULT_MAX_ENTRIES) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    this.maxEntries = maxEntries;
  }

  /**
   * Stores (or replaces) the plant with this id - an integer, or its canonical decimal text as
   * `integerText` gives it - and returns it as stored.
   */
  put(id: bigint | string, plant: JsonObject): JsonObject {
    const key = typeof id === 'string' ? id : id.toString();
    // delete first: a replaced plant counts as the newest.
    if (!this.#plants.delete(key) && this.#plants.size >= this.maxEntries) {
      const oldest = this.#plants.keys().next();
      if (oldest.done !== true) this.#plants.delete(oldest.value);
    }
    this.#plants.set(key, plant);
    return plant;
  }

  get(id: bigint | string): JsonObject | undefined {
    return this.#plants.get(typeof id === 'string' ? id : id.toString());
  }

  /** Forgets the plant with this id; whether there was one. */
  delete(id: bigint | string): boolean {
    return this.#plants.delete(typeof id === 'string' ? id : id.toString());
  }

  /** The plants, stored longest ago first (a replaced one counts as new). */
  values(): IterableIterator<JsonObject> {
    return this.#plants.values();
  }

  get size(): number {
    return this.#plants.size;
  }

  clear(): void {
    this.#plants.clear();
  }
}

/** At most this many named sessions are kept; the one used longest ago is forgotten first. */
export const MAX_SESSIONS = 1000;

/**
 * The stores of the sessions (the request header Plant-Store-Session, docs/reference-server.md):
 * each test its own store, so that parallel end-to-end tests do not see each other's plants. A
 * request without the header uses the default store.
 */
export class Sessions {
  readonly default: PlantStore;
  readonly #named = new Map<string, PlantStore>();
  readonly #maxEntries: number;

  constructor(maxEntries: number = DEFAULT_MAX_ENTRIES) {
    this.#maxEntries = maxEntries;
    this.default = new PlantStore(maxEntries);
  }

  /** The store of a session (created on first use), or the default store. */
  store(session: string | undefined): PlantStore {
    if (session === undefined) return this.default;
    let store = this.#named.get(session);
    if (store === undefined) {
      if (this.#named.size >= MAX_SESSIONS) this.#named.delete(this.#named.keys().next().value as string);
      store = new PlantStore(this.#maxEntries);
    } else this.#named.delete(session);
    this.#named.set(session, store);
    return store;
  }

  /** Empties a session's store (the default store for undefined); how many plants it held. */
  clear(session: string | undefined): number {
    const store = session === undefined ? this.default : this.#named.get(session);
    const size = store?.size ?? 0;
    store?.clear();
    if (session !== undefined) this.#named.delete(session);
    return size;
  }
}
