/**
 * The reference implementation's in-memory store: items keyed by their collection's scope and
 * their exact key, at most `maxEntries` of them across every scope. A scope is the collection's
 * path with its parents' keys filled in (`/plants`, `/gardens/7/beds`, answers.ts), so that two
 * collections, or the beds of two gardens, never see each other's items. A key is its exact text:
 * an integer's canonical decimal text as `integerText` gives it, a string as it is. When full, the
 * item stored longest ago is forgotten, so a long fuzzing run cannot exhaust memory and rule 1
 * still holds for every valid create (a full store never refuses one).
 */
import type { JsonObject } from '../openapi/portable.js';

export const DEFAULT_MAX_ENTRIES = 100_000;

/** Separates a scope from a key in the age order's entries: a path never holds it. */
const SEPARATOR = '\u0000';

/**
 * What the stateful answers (resource-answers.ts, lists.ts) ask of a store, synchronously: the
 * in-memory `PlantStore`, or one request's view of the shared store (redis-store.ts), which loads
 * what a run of the answer read and commits what it wrote atomically.
 */
export interface ItemStore {
  get(id: bigint | string, scope?: string): JsonObject | undefined;
  put(id: bigint | string, item: JsonObject, scope?: string): JsonObject;
  delete(id: bigint | string, scope?: string): boolean;
  entries(scope?: string): Iterable<[string, JsonObject]>;
  nextSequence(): bigint;
  /** A random UUID for a key the server assigns (the same one each time a request's answer runs again, redis-store.ts). */
  randomUuid(): string;
}

export class PlantStore implements ItemStore {
  readonly maxEntries: number;
  /** The scope of the calls that name none: the contract's first collection (createStoreApp), `''` by default. */
  readonly defaultScope: string;
  /** Every item by scope and key, in age order (the first is the one stored longest ago). */
  readonly #age = new Map<string, JsonObject>();
  /** The items of each scope, in age order. */
  readonly #scopes = new Map<string, Map<string, JsonObject>>();
  #sequence = 0n;

  constructor(maxEntries: number = DEFAULT_MAX_ENTRIES, defaultScope = '') {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    this.maxEntries = maxEntries;
    this.defaultScope = defaultScope;
  }

  /**
   * Stores (or replaces) the item with this key - an integer, or its exact text (an integer's as
   * `integerText` gives it) - in a scope, and returns it as stored.
   */
  put(id: bigint | string, plant: JsonObject, scope: string = this.defaultScope): JsonObject {
    const key = typeof id === 'string' ? id : id.toString();
    // delete first: a replaced item counts as the newest.
    if (!this.#forget(scope, key) && this.#age.size >= this.maxEntries) {
      const oldest = this.#age.keys().next();
      if (oldest.done !== true) {
        const at = oldest.value.indexOf(SEPARATOR);
        this.#forget(oldest.value.slice(0, at), oldest.value.slice(at + 1));
      }
    }
    let items = this.#scopes.get(scope);
    if (items === undefined) {
      items = new Map();
      this.#scopes.set(scope, items);
    }
    items.set(key, plant);
    this.#age.set(scope + SEPARATOR + key, plant);
    return plant;
  }

  get(id: bigint | string, scope: string = this.defaultScope): JsonObject | undefined {
    return this.#scopes.get(scope)?.get(typeof id === 'string' ? id : id.toString());
  }

  /** Forgets the item with this key; whether there was one. */
  delete(id: bigint | string, scope: string = this.defaultScope): boolean {
    return this.#forget(scope, typeof id === 'string' ? id : id.toString());
  }

  #forget(scope: string, key: string): boolean {
    const items = this.#scopes.get(scope);
    if (items?.delete(key) !== true) return false;
    if (items.size === 0) this.#scopes.delete(scope);
    this.#age.delete(scope + SEPARATOR + key);
    return true;
  }

  /** The items of a scope, stored longest ago first (a replaced one counts as new). */
  values(scope: string = this.defaultScope): IterableIterator<JsonObject> {
    return (this.#scopes.get(scope) ?? new Map<string, JsonObject>()).values();
  }

  /** The keys and items of a scope, in the order of `values`. */
  entries(scope: string = this.defaultScope): IterableIterator<[string, JsonObject]> {
    return (this.#scopes.get(scope) ?? new Map<string, JsonObject>()).entries();
  }

  /** The next number of the store's sequence (1, 2, ...): the keys the server assigns to integer-keyed items. */
  nextSequence(): bigint {
    this.#sequence += 1n;
    return this.#sequence;
  }

  randomUuid(): string {
    return globalThis.crypto.randomUUID();
  }

  /** How many items the store holds, in every scope. */
  get size(): number {
    return this.#age.size;
  }

  /** Forgets every item, and starts the sequence again. */
  clear(): void {
    this.#age.clear();
    this.#scopes.clear();
    this.#sequence = 0n;
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

  readonly #defaultScope: string;

  /** `defaultScope`: the scope of a store's calls that name none (PlantStore). */
  constructor(maxEntries: number = DEFAULT_MAX_ENTRIES, defaultScope = '') {
    this.#maxEntries = maxEntries;
    this.#defaultScope = defaultScope;
    this.default = new PlantStore(maxEntries, defaultScope);
  }

  /** The store of a session (created on first use), or the default store. */
  store(session: string | undefined): PlantStore {
    if (session === undefined) return this.default;
    let store = this.#named.get(session);
    if (store === undefined) {
      if (this.#named.size >= MAX_SESSIONS) this.#named.delete(this.#named.keys().next().value as string);
      store = new PlantStore(this.#maxEntries, this.#defaultScope);
    } else this.#named.delete(session);
    this.#named.set(session, store);
    return store;
  }

  /** Empties a session's store (the default store for undefined); how many items it held. */
  clear(session: string | undefined): number {
    const store = session === undefined ? this.default : this.#named.get(session);
    const size = store?.size ?? 0;
    store?.clear();
    if (session !== undefined) this.#named.delete(session);
    return size;
  }
}
