/**
 * The reference implementation's in-memory store: plants keyed by their exact id (the decimal
 * text of the integer), at most `maxEntries` of them. When full, the plant stored longest ago
 * is forgotten, so a long fuzzing run cannot exhaust memory and rule 1 still holds for every
 * valid NewPlant (a full store never refuses one).
 */
import type { JsonObject } from '../openapi/index.js';

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

  get(id: bigint): JsonObject | undefined {
    return this.#plants.get(id.toString());
  }

  get size(): number {
    return this.#plants.size;
  }

  clear(): void {
    this.#plants.clear();
  }
}
