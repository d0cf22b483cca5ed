/**
 * The stateful answers of a resource pattern (src/openapi/resources.ts): create, read, replace
 * (PUT), update (PATCH) and remove of an item, in the store's scope of its collection (the
 * collection's path with its parents' keys filled in). lists.ts answers the collection's list.
 * docs/reference-server.md, "Any contract: the collection/item pattern", has the conventions.
 */
import { createdStatus, formatIssues, successStatuses, generateValue, hiddenIn, integerText, isJsonObject, isLosslessNumber, LosslessNumber, mediaTypeEssence, quoteJson, stringifyJson, type Contract, type JsonObject, type JsonValue, type OperationContract, type ParsedParameters, type ResourcePattern, type Schema } from '../openapi/portable.js';
import { JSON_HEADERS, PlantStoreError, type Admitted, type AppResponse } from '../http/portable.js';
import type { ItemStore } from './store.js';

/** An admitted request: its operation's answer, its parameters and the store of its session. */
export interface StoreAdmitted extends Admitted {
  readonly answer: OperationAnswer;
  readonly parameters: ParsedParameters;
  readonly store: ItemStore;
  /** The request's Plant-Store-Session, where it names one (the shared store makes each request's view of it from this). */
  readonly session?: string | undefined;
  /** The request's Accept, where the operation's answers are negotiated (src/http/negotiation.ts). */
  readonly accept?: string | undefined;
  /** The request's Content-Type, where the answer depends on it (an update: a merge patch or a partial object). */
  readonly contentType?: string | undefined;
}

export type OperationAnswer = (admitted: StoreAdmitted, body: JsonValue | undefined) => AppResponse | PlantStoreError;

/** A declared property of a body: its name, its JSON key text (`"name":`), and whether the contract types it integer. */
export interface Member {
  readonly name: string;
  readonly key: string;
  readonly integer: boolean;
}

/**
 * The properties of a body the store keeps: a `readOnly` one sent all the same is accepted and
 * ignored (the server's to set), a `writeOnly` one is never answered, so neither is stored
 * (OpenAPI 3.1, section 4.8.24.4; docs/contracts.md, "Schemas").
 */
export function membersOf(contract: Contract, operation: OperationContract): Member[] {
  const resolve = (schema: Schema): Schema => contract.resolve(schema);
  return [...(operation.requestBody?.shape.properties ?? [])]
    .filter(([, schema]) => !hiddenIn('request', schema, resolve) && !hiddenIn('response', schema, resolve))
    .map(([name, schema]) => ({ name, key: `${JSON.stringify(name)}:`, integer: contract.resolve(schema).type === 'integer' }));
}

/** The status of an operation's success - its lowest declared 2xx - and whether it carries JSON. */
export function successOf(operation: OperationContract, status = successStatuses(operation)[0] ?? 200): { status: number; json: boolean } {
  return { status, json: operation.response(status)?.validateBody !== undefined };
}

export function success(status: number, json: boolean, text: string, headers?: Readonly<Record<string, string>>): AppResponse {
  if (!json) return { status, headers: headers ?? {}, body: '' };
  return { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers }, body: text };
}

/**
 * The declared properties of a body, integers in canonical form (1e2 and 100.0 are stored as
 * 100), as an object and as its JSON text written member by member while it is built; and the
 * exact text of the property `keyProperty` (an integer's canonical text, a string as it is), if it is one.
 */
export function storedForm(members: readonly Member[], body: JsonObject, keyProperty?: string): { item: JsonObject; text: string; key: string | undefined } {
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
      if (name === keyProperty && typeof value === 'string') key = value;
    } else {
      member = integer;
      item[name] = isLosslessNumber(value) && value.value === integer ? value : new LosslessNumber(integer);
      if (name === keyProperty) key = integer;
    }
    text += (text === '' ? '{' : ',') + keyText + member;
  }
  return { item, text: text === '' ? '{}' : `${text}}`, key };
}

/** The exact text of a path parameter's value: an integer's canonical text, a string as it is. */
function parameterText(value: JsonValue | undefined): string | undefined {
  if (isLosslessNumber(value)) return integerText(value) ?? value.value;
  return typeof value === 'string' ? value : undefined;
}

/** Where an item of the pattern lives: its collection's scope in the store, and the texts of its parents' keys. */
export interface Place {
  readonly scope: string;
  readonly parents: readonly string[];
}

/** A collection template with its parameters filled in, in order, each percent-encoded (RFC 3986, section 3.3). */
export function filled(template: string, values: readonly string[]): string {
  let index = 0;
  return template.replace(/\{[^{}/]+\}/g, () => encodeURIComponent(values[index++] ?? ''));
}

/** The place of a top-level collection's items, made once per pattern: no request allocates it. */
const TOP_LEVEL = new WeakMap<ResourcePattern, Place>();

export function placeOf(pattern: ResourcePattern, parameters: ParsedParameters): Place {
  if (pattern.parentParameters.length === 0) {
    let place = TOP_LEVEL.get(pattern);
    if (place === undefined) {
      place = { scope: pattern.collection, parents: [] };
      TOP_LEVEL.set(pattern, place);
    }
    return place;
  }
  const parents = pattern.parentParameters.map((name) => parameterText(parameters.path[name]) ?? '');
  return { scope: filled(pattern.collection, parents), parents };
}

/**
 * The item's key, exactly, from its path parameter; an integer key the contract's path parameter
 * types as a string in canonical form (`007` is 7); the 404 where that text is no integer
 * (nothing can be stored under it).
 */
export function keyOf(pattern: ResourcePattern, parameters: ParsedParameters): string | PlantStoreError {
  const value = parameters.path[pattern.keyParameter ?? ''];
  const text = parameterText(value);
  if (text === undefined) throw new Error(`the item path ${pattern.item ?? ''} gave no ${pattern.keyParameter ?? ''}`);
  if (pattern.keyType !== 'integer' || isLosslessNumber(value)) return text;
  return /^[+-]?\d+$/.test(text) ? BigInt(text).toString() : noSuchItem(pattern, text);
}

/** The key as the item holds it: an integer for an integer key, the text itself for a string key. */
function keyValue(pattern: ResourcePattern, key: string): JsonValue {
  return pattern.keyType === 'integer' ? new LosslessNumber(key) : key;
}

export function notAnObject(): PlantStoreError {
  return new PlantStoreError('invalid_body', 'body: must be an object');
}

export function noSuchItem(pattern: ResourcePattern, key: string): PlantStoreError {
  return new PlantStoreError('no_such_item', `path parameter ${pattern.keyParameter ?? ''}: nothing is stored under ${key}`);
}

/**
 * The parent a nested collection's operation names, where the parent is a stored item (its
 * collection is a pattern too) and the operation declares 404: the 404 when it is not stored.
 * Where the operation declares no 404 the parent is not checked (the contract allows the answer).
 */
export type ParentCheck = (store: ItemStore, place: Place) => PlantStoreError | undefined;

export function parentCheck(patterns: readonly ResourcePattern[], pattern: ResourcePattern, operation: OperationContract): ParentCheck {
  const parent = parentOf(patterns, pattern);
  if (parent === undefined || !operation.declaredStatuses.includes(404)) return () => undefined;
  return (store, { parents }) => {
    const key = parents.at(-1) ?? '';
    const scope = parent.parentParameters.length === 0 ? parent.collection : filled(parent.collection, parents.slice(0, -1));
    return store.get(key, scope) === undefined ? new PlantStoreError('no_such_item', `path parameter ${pattern.parentParameters.at(-1) ?? ''}: nothing is stored under ${key}`) : undefined;
  };
}

/** The pattern whose item path is the nested collection's parent (`/gardens/{id}` for `/gardens/{gardenId}/beds`), whatever its parameter's name. */
function parentOf(patterns: readonly ResourcePattern[], pattern: ResourcePattern): ResourcePattern | undefined {
  if (pattern.parentParameters.length === 0) return undefined;
  const shape = (path: string): string => path.replace(/\{[^{}/]+\}/g, '{}');
  const parentPath = shape(pattern.collection.slice(0, pattern.collection.lastIndexOf('/')));
  return patterns.find((candidate) => candidate.item !== undefined && shape(candidate.item) === parentPath);
}

/**
 * The required properties of an operation's success body, each with a value generated from its
 * schema once (generated.ts): what an item lacks of them (a `createdAt` the server sets) is kept
 * from the item it replaces, else given that value, so that every answer is an instance of its schema.
 */
export type Completion = readonly (readonly [string, JsonValue])[];

export function completionOf(contract: Contract, operation: OperationContract, status: number, keyProperty: string): Completion {
  const schema = operation.response(status)?.schema;
  if (schema === undefined) return [];
  const shape = contract.shapeOf(schema);
  // A writeOnly property is never answered, required or not (OpenAPI 3.1, section 4.8.24.4).
  return [...shape.required]
    .filter((name) => name !== keyProperty && shape.properties.has(name) && !hiddenIn('response', shape.properties.get(name), (s) => contract.resolve(s)))
    .map((name) => [name, generateValue(shape.properties.get(name) as Schema, { resolve: (s) => contract.resolve(s), seed: `${operation.method} ${operation.path}:${name}` }).value] as const);
}

/** Fills what `item` lacks of `completion`: from `previous`, else the generated value. Whether it filled any. */
export function complete(item: JsonObject, completion: Completion, previous?: JsonObject): boolean {
  let filledAny = false;
  for (const [name, value] of completion) {
    if (Object.hasOwn(item, name)) continue;
    item[name] = previous !== undefined && Object.hasOwn(previous, name) ? (previous[name] as JsonValue) : value;
    filledAny = true;
  }
  return filledAny;
}

/** A key the server assigns, by the key's schema: a UUID for `format: uuid`, the store's sequence for an integer, its decimal text for another string. */
function assignKey(pattern: ResourcePattern, store: ItemStore, scope: string): string {
  for (;;) {
    const key = pattern.keyType === 'string' && pattern.keyFormat === 'uuid' ? store.randomUuid() : sequenceText(pattern, store.nextSequence());
    // A client may have put an item under a key of the sequence (a PUT that creates): skip it.
    if (store.get(key, scope) === undefined) return key;
  }
}

function sequenceText(pattern: ResourcePattern, next: bigint): string {
  const text = next.toString();
  const minLength = pattern.keyType === 'string' ? pattern.keySchema.minLength : undefined;
  return typeof minLength === 'number' ? text.padStart(minLength, '0') : text;
}

/**
 * The collection's create: stores the declared properties under the key - the client's, exactly,
 * or one the server assigns - and answers them as stored, with its 201 (where declared, else the
 * lowest 2xx) and `Location` (the item path with the key filled in) where that answer is a 201
 * or declares the header (RFC 9110, sections 10.2.2 and 15.3.2).
 */
export function createAnswer(contract: Contract, pattern: ResourcePattern, operation: OperationContract, checkParent: ParentCheck): OperationAnswer {
  const server = pattern.keyOrigin === 'server';
  const members = membersOf(contract, operation).filter((member) => !server || member.name !== pattern.keyProperty);
  const { status, json } = successOf(operation, createdStatus(operation));
  const completion = completionOf(contract, operation, status, pattern.keyProperty);
  const located = pattern.item !== undefined && (status === 201 || operation.response(status)?.headers.has('location') === true);
  return ({ store, parameters }, body) => {
    // An optional body left out: for a client's key, nothing to key it by; for the server's, an item of nothing but its key.
    if (body === undefined && !server) return new PlantStoreError('invalid_body', `body: is required to create an item (it holds the key ${pattern.keyProperty})`);
    // The store keeps objects: a schema that allows other values does not make them items.
    if (body !== undefined && !isJsonObject(body)) return notAnObject();
    const place = placeOf(pattern, parameters);
    const missing = checkParent(store, place);
    if (missing) return missing;
    const form = storedForm(members, body ?? {}, pattern.keyProperty);
    let { item, text } = form;
    let key = form.key;
    if (server) {
      key = assignKey(pattern, store, place.scope);
      item = { [pattern.keyProperty]: keyValue(pattern, key), ...item };
      complete(item, completion);
      text = stringifyJson(item);
    } else if (key === undefined) {
      throw new Error(`the contract validated a body without its key ${pattern.keyProperty}`);
    } else if (complete(item, completion)) text = stringifyJson(item);
    store.put(key, item, place.scope);
    const headers = located ? { location: filled(pattern.item, [...place.parents, key]) } : undefined;
    return success(status, json, text, headers);
  };
}

/** The read and the remove of an item: the 404 where nothing is stored under its key. */
export function itemAnswer(pattern: ResourcePattern, role: 'read' | 'remove', operation: OperationContract): OperationAnswer {
  const { status, json } = successOf(operation);
  return ({ store, parameters }) => {
    const key = keyOf(pattern, parameters);
    if (key instanceof PlantStoreError) return key;
    const { scope } = placeOf(pattern, parameters);
    const item = store.get(key, scope);
    if (item === undefined) return noSuchItem(pattern, key);
    if (role === 'remove') store.delete(key, scope);
    return success(status, json, stringifyJson(item));
  };
}

/**
 * PUT replaces the item under the path's key, whatever key the body says (RFC 9110, section
 * 9.3.4). A PUT to a key nothing is stored under creates the item where the contract declares a
 * 201 for it (answered 201); where it declares a 404 and no 201, the 404, and nothing is stored;
 * where it declares neither, the item is stored and answered as a replace.
 */
export function replaceAnswer(contract: Contract, pattern: ResourcePattern, operation: OperationContract, checkParent: ParentCheck): OperationAnswer {
  const { status, json } = successOf(operation);
  const creates = operation.declaredStatuses.includes(201);
  const refuses = !creates && operation.declaredStatuses.includes(404);
  const members = membersOf(contract, operation).filter((member) => member.name !== pattern.keyProperty);
  const completion = completionOf(contract, operation, status, pattern.keyProperty);
  return ({ store, parameters }, body) => {
    if (body !== undefined && !isJsonObject(body)) return notAnObject();
    const key = keyOf(pattern, parameters);
    if (key instanceof PlantStoreError) return key;
    const place = placeOf(pattern, parameters);
    const previous = store.get(key, place.scope);
    if (previous === undefined) {
      if (refuses) return noSuchItem(pattern, key);
      const missing = checkParent(store, place);
      if (missing) return missing;
    }
    const { item } = storedForm(members, body ?? {});
    const replaced: JsonObject = { ...item, [pattern.keyProperty]: keyValue(pattern, key) };
    complete(replaced, completion, previous);
    const stored = store.put(key, replaced, place.scope);
    return previous === undefined && creates ? success(201, operation.response(201)?.validateBody !== undefined, stringifyJson(stored)) : success(status, json, stringifyJson(stored));
  };
}

/** Whether a Content-Type is JSON Merge Patch (RFC 7396, section 4). */
function isMergePatch(contentType: string | undefined): boolean {
  return mediaTypeEssence(contentType) === 'application/merge-patch+json';
}

/** RFC 7396, section 2: MergePatch(Target, Patch) - a null member deletes, an object merges, anything else replaces. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const base: JsonObject = isJsonObject(target) ? target : {};
  const result: JsonObject = {};
  for (const [name, value] of Object.entries(base)) if (patch[name] !== null) result[name] = value;
  for (const [name, value] of Object.entries(patch)) if (value !== null) result[name] = mergePatch(base[name], value);
  return result;
}

/**
 * PATCH updates the stored item (RFC 5789): a JSON Merge Patch for `application/merge-patch+json`
 * (null deletes a member), a partial object merged member by member (shallow) for other JSON. Only
 * the members the PATCH body declares are applied (all of them where it declares none); the key
 * stays the path's. A patch that would remove a member the answer requires is refused, and
 * nothing is changed.
 */
export function updateAnswer(contract: Contract, pattern: ResourcePattern, operation: OperationContract): OperationAnswer {
  const { status, json } = successOf(operation);
  const members = membersOf(contract, operation).filter((member) => member.name !== pattern.keyProperty);
  const required = completionOf(contract, operation, status, pattern.keyProperty).map(([name]) => name);
  // What an update leaves must still be an item its answer may carry: a patch that passes its own
  // schema ({"crop": null} where crop is optional) may still make one the item's schema refuses.
  const validItem = operation.response(status)?.validateBody;
  return ({ store, parameters, contentType }, body) => {
    if (body !== undefined && !isJsonObject(body)) return notAnObject();
    const key = keyOf(pattern, parameters);
    if (key instanceof PlantStoreError) return key;
    const { scope } = placeOf(pattern, parameters);
    const previous = store.get(key, scope);
    if (previous === undefined) return noSuchItem(pattern, key);
    const patch = body ?? {};
    const declared = members.length === 0 ? patch : declaredMembers(members, patch);
    const partial = members.length === 0 ? declared : storedForm(members, declared).item;
    const updated = (isMergePatch(contentType) ? mergePatch(previous, declared) : { ...previous, ...partial }) as JsonObject;
    updated[pattern.keyProperty] = keyValue(pattern, key);
    const removed = required.find((name) => Object.hasOwn(previous, name) && !Object.hasOwn(updated, name));
    if (removed !== undefined) return new PlantStoreError('invalid_body', `${removed}: is required in the item; a merge patch cannot remove it`);
    const validation = validItem?.(updated);
    if (validation !== undefined && !validation.valid) return new PlantStoreError('invalid_body', `the item this patch would leave: ${formatIssues(validation.issues)}`);
    store.put(key, updated, scope);
    return success(status, json, stringifyJson(updated));
  };
}

/** The members of a patch the operation declares, integers canonical, nulls kept (a merge patch's deletions). */
function declaredMembers(members: readonly Member[], patch: JsonObject): JsonObject {
  const nulls = Object.fromEntries(members.filter(({ name }) => Object.hasOwn(patch, name) && patch[name] === null).map(({ name }) => [name, null]));
  return { ...storedForm(members, patch).item, ...nulls };
}
