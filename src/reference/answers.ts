/**
 * What the reference answers to each operation of its contract. The operations of the store's
 * resource pattern (src/openapi/resources.ts) are stateful: create (or replace) by the collection's
 * create, read, replace and delete of an item, the list of the collection. Every other operation
 * is answered from the contract's examples, as the mock would; an operation without one with a
 * value generated from its success's schema once, at start-up (generated.ts), the same for a seed.
 * docs/reference-server.md has the conventions.
 */
import { hiddenIn, integerText, isJsonObject, isLosslessNumber, LosslessNumber, negotiate, quoteJson, resourcePatterns, stringifyJson, type Contract, type JsonObject, type JsonValue, type MediaVariant, type OperationContract, type ParsedParameters, type ResourcePattern, type ResourceRole, type Schema, withoutWriteOnly } from '../openapi/portable.js';
import { chooseVariant, JSON_HEADERS, PlantStoreError, type Admitted, type AppResponse } from '../http/portable.js';
import { generateValue } from './generated.js';
import type { PlantStore } from './store.js';

/** An admitted request: its operation's answer, its parameters and the store of its session. */
export interface StoreAdmitted extends Admitted {
  readonly answer: OperationAnswer;
  readonly parameters: ParsedParameters;
  readonly store: PlantStore;
  /** The request's Accept, where the operation's answers are negotiated (src/http/negotiation.ts). */
  readonly accept?: string | undefined;
}

export type OperationAnswer = (admitted: StoreAdmitted, body: JsonValue | undefined) => AppResponse | PlantStoreError;

/** How the reference answers its contract: each operation's answer, and which come from examples. */
export interface ReferencePlan {
  readonly answers: ReadonlyMap<OperationContract, OperationAnswer>;
  readonly patterns: readonly ResourcePattern[];
  /** Operations outside the pattern, answered from the contract's examples (named at start-up). */
  readonly fromExamples: readonly OperationContract[];
  /** Operations outside the pattern without an example, answered with a value generated from their schema (named at start-up). */
  readonly generated: readonly OperationContract[];
  /** Those of `generated` whose value the response's validator refuses (a `pattern`, say): answered all the same, and named. */
  readonly invalid: readonly OperationContract[];
}

export interface PlanOptions {
  /** Seed of the generated answers: the same seed, the same answers (generated.ts's default otherwise). */
  readonly seed?: string | undefined;
}

/** A declared property of a body: its name, its JSON key text (`"name":`), and whether the contract types it integer. */
interface Member {
  readonly name: string;
  readonly key: string;
  readonly integer: boolean;
}

/**
 * The properties of a body the store keeps: a `readOnly` one sent all the same is accepted and
 * ignored (the server's to set), a `writeOnly` one is never answered, so neither is stored
 * (OpenAPI 3.1, section 4.8.24.4; docs/contracts.md).
 */
function membersOf(contract: Contract, operation: OperationContract): Member[] {
  const resolve = (schema: Schema): Schema => contract.resolve(schema);
  return [...(operation.requestBody?.shape.properties ?? [])]
    .filter(([, schema]) => !hiddenIn('request', schema, resolve) && !hiddenIn('response', schema, resolve))
    .map(([name, schema]) => ({ name, key: `${JSON.stringify(name)}:`, integer: contract.resolve(schema).type === 'integer' }));
}

/**
 * The values the server sets: the `readOnly` properties of the request body that the success's
 * schema requires, each generated from its schema once (generated.ts), so that what is stored is
 * answered valid; undefined where there are none (the bundled contract).
 */
function serverSet(contract: Contract, operation: OperationContract): JsonObject | undefined {
  const resolve = (schema: Schema): Schema => contract.resolve(schema);
  const schema = operation.response(successOf(operation).status)?.schema;
  const answered = schema === undefined ? undefined : contract.shapeOf(schema).required;
  const set: JsonObject = {};
  for (const [name, property] of operation.requestBody?.shape.properties ?? []) {
    if (answered?.has(name) !== true || !hiddenIn('request', property, resolve)) continue;
    // defineProperty: a property named `__proto__` is an ordinary one.
    Object.defineProperty(set, name, { value: generateValue(property, { resolve, seed: `${operation.method} ${operation.path} ${name}` }).value, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(set).length === 0 ? undefined : set;
}

/** A JSON example as the reference answers it: without the properties its schema marks `writeOnly`. */
function answeredExample(contract: Contract, variant: MediaVariant): JsonValue {
  const example = variant.example ?? null;
  return variant.codec.name === 'json' && variant.schema !== undefined ? withoutWriteOnly(example, variant.schema, (ref) => contract.resolve({ $ref: ref })) : example;
}

/** The status of an operation's success - its lowest declared 2xx - and whether it carries JSON. */
function successOf(operation: OperationContract): { status: number; json: boolean } {
  const status = operation.declaredStatuses.find((s) => s >= 200 && s < 300) ?? 200;
  return { status, json: operation.response(status)?.validateBody !== undefined };
}

function success(status: number, json: boolean, text: string): AppResponse {
  return json ? { status, headers: JSON_HEADERS, body: text } : { status, headers: {}, body: '' };
}

/**
 * The declared properties of a body, integers in canonical form (1e2 and 100.0 are stored as
 * 100), as an object and as its JSON text written member by member while it is built; and the
 * canonical integer text of the property `keyProperty`, if it is one.
 */
function storedForm(members: readonly Member[], body: JsonObject, keyProperty?: string): { item: JsonObject; text: string; key: string | undefined } {
  const item: JsonObject = {};
  let key: string | undefined;
  let text = '';
  for (const { name, key: keyText, integer: declaredInteger } of members) {
    const value = body[name];
    if (value === undefined || !Object.hasOwn(body, name)) continue;
    const integer = declaredInteger && isLosslessNumber(value) ? integerText(value) : undefined;
    let member: string;
    if (integer === undefined) {
      item[name] = value;
      member = typeof value === 'string' ? quoteJson(value) : stringifyJson(value);
    } else {
      member = integer;
      item[name] = isLosslessNumber(value) && value.value === integer ? value : new LosslessNumber(integer);
      if (name === keyProperty) key = integer;
    }
    text += (text === '' ? '{' : ',') + keyText + member;
  }
  return { item, text: text === '' ? '{}' : `${text}}`, key };
}

/** The collection's create: stores the declared properties under the exact key, answers them as stored. */
function createAnswer(contract: Contract, pattern: ResourcePattern, operation: OperationContract): OperationAnswer {
  const members = membersOf(contract, operation);
  const { status, json } = successOf(operation);
  const assigned = serverSet(contract, operation);
  return ({ store }, body) => {
    // An optional body left out: nothing to create, and nothing to key it by.
    if (body === undefined) return new PlantStoreError('invalid_body', `body: is required to create an item (it holds the key ${pattern.keyProperty})`);
    // The store keeps objects: a schema that allows other values does not make them items.
    if (!isJsonObject(body)) return notAnObject();
    const { item, text, key } = storedForm(members, body, pattern.keyProperty);
    if (key === undefined) throw new Error(`the contract validated a body without an integer ${pattern.keyProperty}`);
    if (assigned !== undefined) return success(status, json, stringifyJson(store.put(key, { ...item, ...assigned })));
    store.put(key, item);
    return success(status, json, text);
  };
}

/** The item's key, exactly, from its path parameter (canonical integer text). */
function keyOf(pattern: ResourcePattern, parameters: ParsedParameters): string {
  const value = parameters.path[pattern.keyParameter ?? ''];
  if (isLosslessNumber(value)) return integerText(value) ?? value.value;
  if (typeof value === 'string') return value;
  throw new Error(`the item path ${pattern.item ?? ''} gave no ${pattern.keyParameter ?? ''}`);
}

function notAnObject(): PlantStoreError {
  return new PlantStoreError('invalid_body', 'body: must be an object');
}

function noSuchItem(pattern: ResourcePattern, key: string): PlantStoreError {
  return new PlantStoreError('no_such_item', `path parameter ${pattern.keyParameter ?? ''}: nothing is stored under ${key}`);
}

function itemAnswer(contract: Contract, pattern: ResourcePattern, role: 'read' | 'replace' | 'remove', operation: OperationContract): OperationAnswer {
  const { status, json } = successOf(operation);
  const members = membersOf(contract, operation).filter((member) => member.name !== pattern.keyProperty);
  const assigned = role === 'replace' ? serverSet(contract, operation) : undefined;
  return ({ store, parameters }, body) => {
    const key = keyOf(pattern, parameters);
    if (role === 'replace') {
      if (body !== undefined && !isJsonObject(body)) return notAnObject();
      // The path names the item: its key is the path's, whatever the body says (RFC 9110, section 9.3.4).
      const { item } = storedForm(members, body ?? {});
      const stored = store.put(key, { ...item, ...assigned, [pattern.keyProperty]: new LosslessNumber(key) });
      return success(status, json, stringifyJson(stored));
    }
    const item = store.get(key);
    if (item === undefined) return noSuchItem(pattern, key);
    if (role === 'remove') store.delete(key);
    return success(status, json, stringifyJson(item));
  };
}

/**
 * The collection's list, by convention (docs/reference-server.md): a query parameter that names a
 * string property of the items keeps those whose property equals it (one of them, for an array);
 * another integer query parameter (`limit`, whatever its name) caps the count. Oldest first.
 */
function listAnswer(contract: Contract, operation: OperationContract, itemSchema: Schema): OperationAnswer {
  const { status, json } = successOf(operation);
  const properties = contract.shapeOf(itemSchema).properties;
  const filters = operation.parameters.filter((p) => p.in === 'query' && p.scalar === 'string' && contract.resolve(properties.get(p.name) ?? {}).type === 'string');
  const caps = operation.parameters.filter((p) => p.in === 'query' && !p.array && p.scalar === 'integer' && !properties.has(p.name));
  return ({ store, parameters }) => {
    let limit = Infinity;
    for (const cap of caps) {
      const value = parameters.query[cap.name];
      if (isLosslessNumber(value)) limit = Math.min(limit, Number(value.value));
    }
    const wanted = filters.flatMap((filter) => {
      const value = parameters.query[filter.name];
      return value === undefined ? [] : [{ name: filter.name, values: new Set<JsonValue>(Array.isArray(value) ? value : [value]) }];
    });
    const items: string[] = [];
    for (const item of store.values()) {
      if (items.length >= limit) break;
      if (wanted.every(({ name, values }) => values.has(item[name] ?? null))) items.push(stringifyJson(item));
    }
    return success(status, json, `[${items.join(',')}]`);
  };
}

/**
 * An operation's first success with an example (or with no content), answered as it is; undefined
 * when it has none. Where the success offers several media types with examples, the request's
 * Accept picks one (RFC 9110, section 12.5.1; the pipeline has refused a request none fits).
 */
function exampleAnswer(contract: Contract, operation: OperationContract): OperationAnswer | undefined {
  for (const status of operation.declaredStatuses.filter((s) => s >= 200 && s < 300)) {
    const response = operation.response(status);
    const exemplified = (response?.variants ?? []).filter((variant) => variant.example !== undefined);
    const [only] = exemplified;
    if (only !== undefined && exemplified.length === 1 && only.essence === 'application/json') {
      const text = stringifyJson(answeredExample(contract, only));
      return () => success(status, true, text);
    }
    if (only !== undefined) return negotiatedExample(contract, status, exemplified);
    if (response?.validateBody === undefined) return () => success(status, false, '');
  }
  return undefined;
}

/** The examples of a success's media types, the one the client accepts answered with its type. */
function negotiatedExample(contract: Contract, status: number, variants: readonly MediaVariant[]): OperationAnswer {
  return ({ accept }) => {
    const chosen = chooseVariant(variants, accept);
    if (chosen === undefined) {
      const offered = variants.map((variant) => variant.mediaType).join(', ');
      return new PlantStoreError('not_acceptable', `accept: ${accept ?? ''} matches none of the media types this operation has examples of (${offered})`);
    }
    const example = answeredExample(contract, chosen.variant);
    // An example of a range (`*` + `/*`) that is JSON goes out as JSON where the client takes it.
    const mediaType = chosen.variant.essence.includes('*') && typeof example !== 'string' && negotiate(accept, ['application/json']) !== undefined ? 'application/json' : chosen.mediaType;
    const text = typeof example === 'string' && chosen.variant.codec.name !== 'json' ? example : stringifyJson(example);
    // Text is written as UTF-8 (the socket layer's encoding), and says so (RFC 9110, section 8.3.2).
    return { status, headers: { 'content-type': mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType }, body: text };
  };
}

function statefulAnswer(contract: Contract, pattern: ResourcePattern, role: ResourceRole, operation: OperationContract): OperationAnswer | undefined {
  switch (role) {
    case 'create':
      return createAnswer(contract, pattern, operation);
    case 'list': {
      // A list is an array of items; a list shaped otherwise (a page object) is answered from its examples.
      const schema = operation.response(successOf(operation).status)?.schema;
      const resolved = schema === undefined ? undefined : contract.resolve(schema);
      return resolved?.type === 'array' ? listAnswer(contract, operation, (resolved.items ?? {}) as Schema) : undefined;
    }
    default:
      return itemAnswer(contract, pattern, role, operation);
  }
}

/**
 * The answer of an operation with neither pattern nor example: its lowest declared 2xx, with a
 * body generated from the schema of its JSON media type (its first), once; no body where it
 * declares no JSON content. `valid` is false where the validator refuses the generated value.
 */
function generatedAnswer(contract: Contract, operation: OperationContract, seed: string | undefined): { answer: OperationAnswer; valid: boolean } {
  const { status } = successOf(operation);
  const response = operation.response(status);
  const variant = response?.variants.find((candidate) => candidate.codec.name === 'json');
  if (response === undefined || variant === undefined) return { answer: () => success(status, false, ''), valid: true };
  const validate = variant.validate ?? response.validateBody;
  const { value, valid } = generateValue(variant.schema ?? {}, { resolve: (schema) => contract.resolve(schema), seed: `${seed ?? ''}:${operation.method} ${operation.path}`, validate });
  const text = stringifyJson(value);
  // A range (`application/*`) answers as JSON itself.
  const headers = variant.essence.includes('*') || variant.essence === 'application/json' ? JSON_HEADERS : { 'content-type': variant.mediaType };
  return { answer: () => ({ status, headers, body: text }), valid };
}

/** Each operation's answer: the store's pattern, else the contract's examples, else a generated value. Never refuses. */
export function planReference(contract: Contract, options: PlanOptions = {}): ReferencePlan {
  const patterns = resourcePatterns(contract);
  const answers = new Map<OperationContract, OperationAnswer>();
  for (const pattern of patterns) {
    for (const [role, operation] of pattern.operations) {
      const answer = statefulAnswer(contract, pattern, role, operation);
      if (answer) answers.set(operation, answer);
    }
  }
  const fromExamples: OperationContract[] = [];
  const generated: OperationContract[] = [];
  const invalid: OperationContract[] = [];
  for (const operation of contract.operations.filter((candidate) => !answers.has(candidate))) {
    const answer = exampleAnswer(contract, operation);
    if (answer) {
      answers.set(operation, answer);
      fromExamples.push(operation);
      continue;
    }
    const made = generatedAnswer(contract, operation, options.seed);
    answers.set(operation, made.answer);
    generated.push(operation);
    if (!made.valid) invalid.push(operation);
  }
  return { answers, patterns, fromExamples, generated, invalid };
}
