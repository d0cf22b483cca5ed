/**
 * What the framework implementations (test/frameworks/) share: the plant model a team writes
 * next to its framework code - validating a NewPlant by hand from the contract (openapi.yaml:
 * `name` a string, `id` an integer in int64, `tag` a string when present, other properties
 * allowed), the store (a repeated id replaces the plant, decision 2), and the plant written
 * back with its id exact. Each framework's own parts - routing, body parsing, authentication,
 * error answers - stay in its file; a faulty implementation swaps one piece of this model
 * (`PlantRules`) or writes one line of its framework code wrong.
 *
 * Numbers arrive as lossless-json's LosslessNumbers: each framework parses bodies with its own
 * parser for syntax, then again with lossless-json to keep an int64 id exact (JSON.parse rounds
 * ids beyond 2^53), as teams that must keep big ids do.
 */
import { isLosslessNumber, parse, stringify, type LosslessNumber } from 'lossless-json';
import { exactInteger } from '../../src/openapi/index.js';

/** A parsed JSON value as lossless-json gives it. */
export type Json = null | boolean | string | LosslessNumber | Json[] | { [key: string]: Json };

export interface Plant {
  readonly name: string;
  readonly id: bigint;
  readonly tag?: string;
}

/** Why a body is not a NewPlant: the answer is a 400 Error with this message. */
export class InvalidPlant extends Error {}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The pieces of the model a faulty implementation may write differently. */
export interface PlantRules {
  /** Whether an id is in range: int64 (format: int64). */
  readonly idInRange: (id: bigint) => boolean;
  /** The body's properties as the model reads them (a faulty one folds key case). */
  readonly properties: (body: { readonly [key: string]: Json }) => { readonly [key: string]: Json };
}

export const CONTRACT_RULES: PlantRules = {
  idInRange: (id) => id >= INT64_MIN && id <= INT64_MAX,
  properties: (body) => body,
};

/**
 * JSON text parsed with every number kept as its digits; throws SyntaxError. lossless-json's parser
 * recurses, so a body nested some 5,000 levels deep overflows the stack: that is a body too deep
 * for this parser (RFC 8259, section 9 lets a parser limit nesting), refused like any it cannot read.
 */
export function parseLossless(text: string): Json {
  try {
    return parse(text) as Json;
  } catch (error) {
    if (error instanceof RangeError) throw new SyntaxError('malformed JSON: nested deeper than the parser reads');
    throw error;
  }
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/**
 * The NewPlant in a parsed body, or an InvalidPlant naming what is wrong. JSON Schema counts a
 * number with a zero fraction as an integer (1.0, 1e2), so the id is read as the integer its
 * digits denote, never through a double.
 */
export function readNewPlant(value: Json, rules: PlantRules = CONTRACT_RULES): Plant {
  if (!isObject(value)) throw new InvalidPlant('body: must be a JSON object (a NewPlant)');
  const body = rules.properties(value);
  const { name, id, tag } = body;
  if (name === undefined) throw new InvalidPlant('name: is required');
  if (typeof name !== 'string') throw new InvalidPlant('name: must be a string');
  if (id === undefined) throw new InvalidPlant('id: is required');
  const integer = isLosslessNumber(id) ? exactInteger(id.value) : undefined;
  if (integer === undefined) throw new InvalidPlant('id: must be an integer');
  if (!rules.idInRange(integer)) throw new InvalidPlant('id: must be an int64');
  if (tag !== undefined && typeof tag !== 'string') throw new InvalidPlant('tag: must be a string');
  return tag === undefined ? { name, id: integer } : { name, id: integer, tag };
}

/** The plants, by id: a repeated id replaces the plant (decision 2). */
export class PlantStore {
  readonly #plants = new Map<bigint, Plant>();

  save(plant: Plant): Plant {
    this.#plants.set(plant.id, plant);
    return plant;
  }

  has(id: bigint): boolean {
    return this.#plants.has(id);
  }

  get size(): number {
    return this.#plants.size;
  }
}

/** The plant as JSON text, the id digit for digit (lossless-json writes a bigint as its digits). */
export function plantJson(plant: Plant): string {
  return stringify(plant.tag === undefined ? { name: plant.name, id: plant.id } : { name: plant.name, tag: plant.tag, id: plant.id }) ?? '';
}

/** The contract's Error as JSON text. */
export function errorJson(status: number, message: string): string {
  return JSON.stringify({ error: status, message });
}
