/**
 * The resource patterns of a contract, found whatever its names: a collection path and an item
 * path with one templated segment under it (`/things` and `/things/{key}`; the collection may
 * itself sit under templated segments, `/users/{userId}/posts`, scoped to that parent), the
 * operations on each by their HTTP method's meaning (RFC 9110, section 9.3; PATCH, RFC 5789), and
 * the item's key. The key is read from the contract, in this order:
 * 1. a link of the create's success that maps a body property to the item path's parameter
 *    (`$response.body#/key` or `$request.body#/key`);
 * 2. the create body's required property of the item parameter's name (integer or string, as the
 *    parameter's schema): the client chooses the key;
 * 3. the create's success body's property of that name, else `id`, where the create body lacks
 *    it or marks it `readOnly`: the server assigns the key;
 * 4. the create body's only required integer property (the Plant Store's shape, whatever its
 *    names; the item parameter may carry it as a string, its decimal text).
 * docs/reference-server.md has the conventions the reference serves them by.
 */
import type { Contract, OperationContract } from './contract.js';
import type { LinkContract } from './links.js';
import { templateParameters } from './paths.js';
import type { Schema } from './types.js';

/** What an operation of the pattern does, by its method on the collection or the item path. */
export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'update' | 'remove';

/** RFC 9110, section 9.3 (and RFC 5789 for PATCH): the meaning of each method on a collection and on one of its items. */
const ROLES: readonly { readonly role: ResourceRole; readonly on: 'collection' | 'item'; readonly method: string }[] = [
  { role: 'create', on: 'collection', method: 'POST' },
  { role: 'list', on: 'collection', method: 'GET' },
  { role: 'read', on: 'item', method: 'GET' },
  { role: 'replace', on: 'item', method: 'PUT' },
  { role: 'update', on: 'item', method: 'PATCH' },
  { role: 'remove', on: 'item', method: 'DELETE' },
];

export interface ResourcePattern {
  /** The collection's path template; its templated segments (if any) name the parent. */
  readonly collection: string;
  /** The item's path template, undefined where the contract shows none (only for a client-chosen key of a top-level collection). */
  readonly item: string | undefined;
  /** The item path's parameter that names an item. */
  readonly keyParameter: string | undefined;
  /** The item's property that is its key. */
  readonly keyProperty: string;
  /** Where the key was read: a link of the create's answer, or the schemas. */
  readonly keyFrom: 'link' | 'schema';
  /** Who chooses the key: the client in the create's body, or the server (absent from the create's body, or `readOnly` there). */
  readonly keyOrigin: 'client' | 'server';
  /** The key's JSON type. */
  readonly keyType: 'integer' | 'string';
  /** The key schema's `format` (`uuid`, `int64`), where it has one. */
  readonly keyFormat: string | undefined;
  /** The key's schema, as the create's success (server key) or body (client key) declares it. */
  readonly keySchema: Schema;
  /** The collection template's parameters, outermost first: the parent's keys (empty for a top-level collection). */
  readonly parentParameters: readonly string[];
  /** The pattern's operations, by role; `create` always present. */
  readonly operations: ReadonlyMap<ResourceRole, OperationContract>;
}

type Key = Pick<ResourcePattern, 'keyProperty' | 'keyFrom' | 'keyOrigin' | 'keyType' | 'keyFormat' | 'keySchema'>;

const SUCCESS = /^2\d\d$/;

/** The collection/item patterns of a contract: one per collection whose create has a key the contract shows. */
export function resourcePatterns(contract: Contract): ResourcePattern[] {
  const patterns: ResourcePattern[] = [];
  const templates = [...new Set(contract.operations.map((operation) => operation.path))];
  for (const collection of templates) {
    const segments = collection.split('/');
    // A collection is named by a literal segment; `/things/{id}` with a POST is an item's action.
    if (/[{}]/.test(segments.at(-1) ?? '')) continue;
    const create = contract.operationsAt(collection).get('POST');
    if (create?.requestBody === undefined) continue;
    const item = templates.find((path) => path.startsWith(`${collection === '/' ? '' : collection}/`) && /^\{[^/{}]+\}$/.test(path.slice(collection.length + (collection === '/' ? 0 : 1))));
    const keyParameter = item === undefined ? undefined : templateParameters(item).at(-1);
    const parentParameters = templateParameters(collection);
    // A nested collection is only a pattern with its item path: its create alone names no item.
    if (parentParameters.length > 0 && item === undefined) continue;
    const key = keyFromLink(contract, create, item, keyParameter) ?? keyFromSchema(contract, create, item, keyParameter);
    if (key === undefined) continue;
    const operations = new Map<ResourceRole, OperationContract>();
    for (const { role, on, method } of ROLES) {
      const operation = on === 'collection' ? contract.operationsAt(collection).get(method) : item === undefined ? undefined : contract.operationsAt(item).get(method);
      if (operation) operations.set(role, operation);
    }
    patterns.push({ collection, item, keyParameter, ...key, parentParameters, operations });
  }
  return patterns;
}

/** The create's success the reference answers: its 201 where declared (RFC 9110, section 15.3.2), else its lowest 2xx. */
export function createdStatus(create: OperationContract): number | undefined {
  const successes = create.declaredStatuses.filter((status) => status >= 200 && status < 300);
  return successes.includes(201) ? 201 : successes[0];
}

function unescapePointer(pointer: string): string | undefined {
  return /^\/[^/]+$/.test(pointer) ? pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** The property a link of the create's success maps to the item path's parameter, if one does. */
function keyFromLink(contract: Contract, create: OperationContract, item: string | undefined, keyParameter: string | undefined): Key | undefined {
  if (item === undefined || keyParameter === undefined) return undefined;
  const links: LinkContract[] = create.responses.filter((response) => SUCCESS.test(response.status)).flatMap((response) => response.links);
  for (const link of links) {
    if (contract.operationById(link.operationId)?.path !== item) continue;
    const expression = link.parameters[keyParameter] ?? link.parameters[`path.${keyParameter}`];
    if (expression === undefined || !('source' in expression)) continue;
    if (expression.source !== 'response.body' && expression.source !== 'request.body') continue;
    const property = unescapePointer(expression.pointer);
    if (property === undefined) continue;
    const key = clientKey(contract, create, property, parameterType(contract, item, keyParameter)) ?? serverKey(contract, create, property, parameterType(contract, item, keyParameter));
    if (key !== undefined) return { ...key, keyFrom: 'link' };
  }
  return undefined;
}

/** The key from the schemas: the client's namesake, else the server's (namesake or `id`), else the only integer of the create's body. */
function keyFromSchema(contract: Contract, create: OperationContract, item: string | undefined, keyParameter: string | undefined): Key | undefined {
  const type = item === undefined || keyParameter === undefined ? 'integer' : parameterType(contract, item, keyParameter);
  if (type === undefined) return undefined;
  const named = keyParameter === undefined ? undefined : clientKey(contract, create, keyParameter, type);
  if (named !== undefined) return { ...named, keyFrom: 'schema' };
  if (item !== undefined && keyParameter !== undefined) {
    const assigned = serverKey(contract, create, keyParameter, type) ?? serverKey(contract, create, 'id', type);
    if (assigned !== undefined) return { ...assigned, keyFrom: 'schema' };
  }
  // An integer key may travel in a path parameter the contract types as a string (its decimal text).
  const integers = [...(create.requestBody?.shape.properties.keys() ?? [])].filter((name) => clientKey(contract, create, name, 'integer') !== undefined);
  const [only] = integers;
  return only !== undefined && integers.length === 1 ? { ...(clientKey(contract, create, only, 'integer') as Omit<Key, 'keyFrom'>), keyFrom: 'schema' } : undefined;
}

/** The JSON type of the item path's parameter: integer or string (a string where it declares neither); undefined for a list. */
function parameterType(contract: Contract, item: string, keyParameter: string): 'integer' | 'string' | undefined {
  const parameter = contract.operationsAt(item).values().next().value?.parameters.find((p) => p.in === 'path' && p.name === keyParameter);
  if (parameter?.array === true) return undefined;
  return parameter?.scalar === 'integer' ? 'integer' : 'string';
}

function keyOf(schema: Schema, type: 'integer' | 'string', origin: 'client' | 'server', property: string): Omit<Key, 'keyFrom'> {
  return { keyProperty: property, keyOrigin: origin, keyType: type, keyFormat: typeof schema.format === 'string' ? schema.format : undefined, keySchema: schema };
}

/** A required, writable property of the create's body of the key's type: every created item has one, chosen by the client. */
function clientKey(contract: Contract, create: OperationContract, property: string, type: 'integer' | 'string' | undefined): Omit<Key, 'keyFrom'> | undefined {
  const shape = create.requestBody?.shape;
  const raw = shape?.properties.get(property);
  if (raw === undefined || shape?.required.has(property) !== true || type === undefined) return undefined;
  const schema = contract.resolve(raw);
  return schema.type === type && schema.readOnly !== true ? keyOf(schema, type, 'client', property) : undefined;
}

/** A property of the create's success body the client does not write (absent from its body, or readOnly there): the server assigns it. */
function serverKey(contract: Contract, create: OperationContract, property: string, type: 'integer' | 'string' | undefined): Omit<Key, 'keyFrom'> | undefined {
  const status = createdStatus(create);
  const schema = status === undefined ? undefined : create.response(status)?.schema;
  const raw = schema === undefined ? undefined : contract.shapeOf(schema).properties.get(property);
  if (raw === undefined || type === undefined) return undefined;
  const written = create.requestBody?.shape.properties.get(property);
  if (written !== undefined && contract.resolve(written).readOnly !== true) return undefined;
  const resolved = contract.resolve(raw);
  // The response's own type where it declares one; else the path parameter's.
  const keyType = resolved.type === 'integer' || resolved.type === 'string' ? resolved.type : type;
  return keyType === type ? keyOf(resolved, keyType, 'server', property) : undefined;
}
