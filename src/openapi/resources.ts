/**
 * The store's resource pattern, found in a contract whatever its names: a collection path and an
 * item path with one templated segment under it (`/things` and `/things/{key}`), the operations on
 * each by their HTTP method's meaning (RFC 9110, section 9.3), and the item's key - the property
 * of a created body that the item path's parameter names. The key comes from the contract: the
 * link that maps the created body's property to the item's path parameter where one is declared
 * (`$response.body#/key` or `$request.body#/key`), else the integer property of the created body
 * that the path parameter's schema matches (the one of its name, else the only one).
 */
import type { Contract, OperationContract } from './contract.js';
import type { LinkContract } from './links.js';

/** What an operation of the pattern does, by its method on the collection or the item path. */
export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'remove';

/** RFC 9110, section 9.3: the meaning of each method on a collection and on one of its items. */
const ROLES: readonly { readonly role: ResourceRole; readonly on: 'collection' | 'item'; readonly method: string }[] = [
  { role: 'create', on: 'collection', method: 'POST' },
  { role: 'list', on: 'collection', method: 'GET' },
  { role: 'read', on: 'item', method: 'GET' },
  { role: 'replace', on: 'item', method: 'PUT' },
  { role: 'remove', on: 'item', method: 'DELETE' },
];

export interface ResourcePattern {
  /** The collection's path template (no templated segment). */
  readonly collection: string;
  /** The item's path template, undefined where the contract shows none. */
  readonly item: string | undefined;
  /** The item path's parameter that names an item. */
  readonly keyParameter: string | undefined;
  /** The created body's integer property that is the item's key. */
  readonly keyProperty: string;
  /** Where the key was read: a link of the create's answer, or the schemas. */
  readonly keyFrom: 'link' | 'schema';
  /** The pattern's operations, by role; `create` always present. */
  readonly operations: ReadonlyMap<ResourceRole, OperationContract>;
}

const SUCCESS = /^2\d\d$/;

/** The collection/item patterns of a contract: one per collection whose create has an integer key. */
export function resourcePatterns(contract: Contract): ResourcePattern[] {
  const patterns: ResourcePattern[] = [];
  const templates = [...new Set(contract.operations.map((operation) => operation.path))];
  for (const collection of templates.filter((path) => !path.includes('{'))) {
    const create = contract.operationsAt(collection).get('POST');
    if (create?.requestBody === undefined) continue;
    const item = templates.find((path) => path.startsWith(`${collection}/`) && /^\{[^/{}]+\}$/.test(path.slice(collection.length + 1)));
    const keyParameter = item?.slice(collection.length + 2, -1);
    const key = keyFromLink(contract, create, item, keyParameter) ?? keyFromSchema(contract, create, item, keyParameter);
    if (key === undefined) continue;
    const operations = new Map<ResourceRole, OperationContract>();
    for (const { role, on, method } of ROLES) {
      const operation = on === 'collection' ? contract.operationsAt(collection).get(method) : item === undefined ? undefined : contract.operationsAt(item).get(method);
      if (operation) operations.set(role, operation);
    }
    patterns.push({ collection, item, keyParameter, ...key, operations });
  }
  return patterns;
}

/** The property a link of the create's success maps to the item path's parameter, if one does. */
function keyFromLink(contract: Contract, create: OperationContract, item: string | undefined, keyParameter: string | undefined): Pick<ResourcePattern, 'keyProperty' | 'keyFrom'> | undefined {
  if (item === undefined || keyParameter === undefined) return undefined;
  const links: LinkContract[] = create.responses.filter((response) => SUCCESS.test(response.status)).flatMap((response) => response.links);
  for (const link of links) {
    if (contract.operationById(link.operationId)?.path !== item) continue;
    const expression = link.parameters[keyParameter] ?? link.parameters[`path.${keyParameter}`];
    if (expression === undefined || !('source' in expression)) continue;
    if ((expression.source === 'response.body' || expression.source === 'request.body') && /^\/[^/]+$/.test(expression.pointer)) {
      const property = expression.pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
      if (isIntegerKey(contract, create, property)) return { keyProperty: property, keyFrom: 'link' };
    }
  }
  return undefined;
}

/** The created body's required integer property the path parameter matches: its namesake, else the only one. */
function keyFromSchema(contract: Contract, create: OperationContract, item: string | undefined, keyParameter: string | undefined): Pick<ResourcePattern, 'keyProperty' | 'keyFrom'> | undefined {
  const parameter = item === undefined ? undefined : contract.operationsAt(item).values().next().value?.parameters.find((p) => p.in === 'path' && p.name === keyParameter);
  if (parameter !== undefined && (parameter.array || parameter.scalar !== 'integer')) return undefined;
  const integers = [...(create.requestBody?.shape.properties.keys() ?? [])].filter((name) => isIntegerKey(contract, create, name));
  const namesake = integers.find((name) => name === keyParameter);
  if (namesake !== undefined) return { keyProperty: namesake, keyFrom: 'schema' };
  const [only] = integers;
  return only !== undefined && integers.length === 1 ? { keyProperty: only, keyFrom: 'schema' } : undefined;
}

/** A required integer property of the create's body: every created item has one. */
function isIntegerKey(contract: Contract, create: OperationContract, property: string): boolean {
  const shape = create.requestBody?.shape;
  const schema = shape?.properties.get(property);
  return schema !== undefined && shape?.required.has(property) === true && contract.resolve(schema).type === 'integer';
}
