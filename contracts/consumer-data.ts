/**
 * What the kit's consumer sends and expects, read from the contract: the store's collection/item
 * pattern (src/openapi/resources.ts), the create operation's request examples, the item a provider
 * state stores and the replacement of it. Nothing here names a property, a path or a method of the
 * interface: the key is the pattern's key property, the texts go to the string properties in the
 * order the first example gives them.
 */
import { mediaExchanges } from './media-operations.js';
import { resourcePatterns, type Contract, type OperationContract, type ResourcePattern, type Schema } from '../src/openapi/index.js';

/** A JSON object as the consumer writes it (plain numbers: its ids are small, docs/pact.md). */
export type Item = Readonly<Record<string, unknown>>;

export interface RequestExample {
  /** Its summary, else its name in `examples`. */
  readonly summary: string;
  readonly value: Item;
}

export interface ConsumerData {
  readonly contract: Contract;
  readonly pattern: ResourcePattern;
  readonly create: OperationContract;
  /** The create operation's request examples, in the contract's order. */
  readonly examples: readonly RequestExample[];
  /** The example with the most properties: what requests that need any valid item send. */
  readonly fullest: Item;
  /** The item the provider state "a plant is stored" stores. */
  readonly stored: Item;
  /** Another item under the stored one's key: what a replacement sends. */
  readonly replacement: Item;
}

/** A mapping of the document, or an empty one. */
function asRecord(value: unknown): Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

/** The key of the item a provider state stores: small, so that pact-js's JSON.parse keeps it exact (docs/pact.md, limits). */
export const STORED_KEY = 3;
/** The key of an item a provider state makes sure is not stored. */
export const ABSENT_KEY = 4;
/** The texts of the stored item and of its replacement, given to the string properties in order. */
const STORED_TEXTS = ['Ficus', 'indoor'];
const REPLACEMENT_TEXTS = ['Fiddle-leaf fig', 'indoor tree'];

/** A contract the kit's consumer contract cannot be made from: no collection with a create operation, or no request example to send. */
export class NoConsumerContractError extends Error {
  override name = 'NoConsumerContractError';
}

/**
 * The collection/item pattern the consumer contract describes: the first whose key the client
 * chooses, since its provider states store and forget an item by a key written in the pact. A
 * server-assigned key is known only from an answer, which a pact's provider state cannot name.
 */
export function consumerPattern(contract: Contract): ResourcePattern | undefined {
  return resourcePatterns(contract).find((pattern) => pattern.keyOrigin === 'client');
}

/** The consumer's data for the contract's consumer pattern; throws a NoConsumerContractError when the contract has none. */
export function consumerData(contract: Contract): ConsumerData {
  const pattern = consumerPattern(contract);
  const create = pattern?.operations.get('create');
  if (pattern === undefined || create === undefined) throw new NoConsumerContractError(`${contract.file} has no collection whose create takes a key the client chooses: the consumer contract has nothing to describe`);
  const examples = requestExamples(contract, create);
  const fullest = [...examples].sort((a, b) => Object.keys(b.value).length - Object.keys(a.value).length)[0]?.value;
  if (fullest === undefined) throw new NoConsumerContractError(`${create.operationId} of ${contract.file} shows no request example for the consumer to send`);
  return { contract, pattern, create, examples, fullest, stored: retexted(fullest, pattern.keyProperty, STORED_TEXTS), replacement: retexted(fullest, pattern.keyProperty, REPLACEMENT_TEXTS) };
}

/**
 * Why the contract gives the consumer contract nothing to describe - no collection whose create
 * the consumer can write, and no operation of other media than JSON that Pact can hold - or
 * undefined where it gives something.
 */
export function noConsumerContract(contract: Contract): string | undefined {
  if (mediaExchanges(contract).exchanges.length > 0) return undefined;
  try {
    consumerData(contract);
    return undefined;
  } catch (error) {
    if (error instanceof NoConsumerContractError) return error.message;
    throw error;
  }
}

export { formatNotes, mediaExchanges } from './media-operations.js';

/** `item` under STORED_KEY, its string properties given `texts` in order (the last one repeated, numbered, when they run out). */
function retexted(item: Item, key: string, texts: readonly string[]): Item {
  let index = 0;
  const entries = Object.entries(item).map(([name, value]): [string, unknown] => {
    if (name === key) return [name, STORED_KEY];
    if (typeof value !== 'string') return [name, value];
    const text = texts[index] ?? `${texts.at(-1) ?? ''} ${index}`;
    index += 1;
    return [name, text];
  });
  return Object.fromEntries(entries);
}

/** The application/json examples of an operation's request body (`examples`, else `example`), as the document holds them. */
function requestExamples(contract: Contract, operation: OperationContract): RequestExample[] {
  const raw = asRecord(asRecord(asRecord(contract.document.paths)[operation.path])[operation.method.toLowerCase()]);
  const json = asRecord(asRecord(contract.resolve(asRecord(raw.requestBody)).content)['application/json']);
  if (json.example !== undefined) return [{ summary: 'an item', value: asRecord(json.example) }];
  return Object.entries(asRecord(json.examples)).map(([name, example]) => {
    const resolved = contract.resolve(asRecord(example));
    return { summary: typeof resolved.summary === 'string' ? resolved.summary : name, value: asRecord(resolved.value) };
  });
}

/** The properties of `item` that `schema` declares (an object schema, `$ref` and `allOf` followed); all of them without a schema. */
export function project(item: Item, schema: Schema | undefined, contract: Contract): Item {
  if (schema === undefined) return item;
  const { properties } = contract.shapeOf(schema);
  return Object.fromEntries(Object.entries(item).filter(([name]) => properties.has(name)));
}

/** The first 2xx an operation declares: what it answers when it succeeds. */
export function successStatus(operation: OperationContract): number | undefined {
  return operation.declaredStatuses.find((status) => status >= 200 && status < 300);
}
