/**
 * The collection's list (src/openapi/resources.ts's `list` role): the items of the collection's
 * scope, oldest first, as a bare array or inside an envelope - an object whose one array property
 * holds the resource's items, its other required properties generated from their schemas once
 * (generated.ts). Filters and pagination follow one convention, by the query parameters' names
 * (docs/reference-server.md):
 * - a string query parameter that names a string property of the items keeps those whose property
 *   equals it (one of them, for an array);
 * - `cursor`/`after`: the items after the one of that key;
 * - `offset`/`skip`: skips that many;
 * - `page`: skips the pages before it (the first is the parameter's `minimum` where that is 0,
 *   else 1), a page being `limit` items (else its `default`, else 20);
 * - `limit`/`per_page`/`page_size`/`size` (any case, `-`/`_` ignored): at most that many.
 * Undeclared ones are not read: without them the list is every item (the store holds at most
 * maxEntries). The array's `maxItems` bounds every answer: a list never breaks its own schema.
 */
import { generateValue, isLosslessNumber, stringifyJson, type Contract, type JsonValue, type OperationContract, type ParameterContract, type ParsedParameters, type ResourcePattern, type Schema } from '../openapi/portable.js';
import { placeOf, success, successOf, type OperationAnswer, type ParentCheck } from './resource-answers.js';

/** A page's size where `page` is given and the request names none (nor its parameter a default). */
export const DEFAULT_PAGE_SIZE = 20;

type Paging = 'limit' | 'offset' | 'page' | 'cursor';

const PAGING_NAMES: Readonly<Record<string, Paging>> = {
  limit: 'limit',
  perpage: 'limit',
  pagesize: 'limit',
  size: 'limit',
  offset: 'offset',
  skip: 'offset',
  page: 'page',
  cursor: 'cursor',
  after: 'cursor',
};

/** The pagination role of a query parameter, by its name (any case; `-` and `_` ignored). */
export function pagingOf(name: string): Paging | undefined {
  return PAGING_NAMES[name.toLowerCase().replace(/[-_]/g, '')];
}

/** How the list answers: a bare array of the items, or an envelope with them in one property. */
export interface ListShape {
  readonly itemSchema: Schema;
  /** The envelope's property that holds the items; undefined for a bare array. */
  readonly property: string | undefined;
  /** The envelope's other required properties, each with its value generated once, in the schema's order. */
  readonly others: readonly (readonly [string, JsonValue])[];
  /** The array's `maxItems`: no list answers more, whatever the paging asks (Infinity without one). */
  readonly maxItems: number;
}

function maxItemsOf(array: Schema): number {
  return typeof array.maxItems === 'number' && array.maxItems >= 0 ? array.maxItems : Infinity;
}

/** The shape of the list's success: an array, or an object with exactly one array property of the resource's items; undefined otherwise. */
export function listShape(contract: Contract, pattern: ResourcePattern, operation: OperationContract): ListShape | undefined {
  const schema = operation.response(successOf(operation).status)?.schema;
  if (schema === undefined) return undefined;
  const resolved = contract.resolve(schema);
  if (resolved.type === 'array') return { itemSchema: (resolved.items ?? {}) as Schema, property: undefined, others: [], maxItems: maxItemsOf(resolved) };
  const shape = contract.shapeOf(schema);
  const arrays = [...shape.properties].filter(([, property]) => {
    const candidate = contract.resolve(property);
    return candidate.type === 'array' && isResource(contract, pattern, (candidate.items ?? {}) as Schema);
  });
  const [only] = arrays;
  if (only === undefined || arrays.length !== 1) return undefined;
  const [property, arraySchema] = only;
  const others = [...shape.properties.keys()]
    .filter((name) => name !== property && shape.required.has(name))
    .map((name) => [name, generateValue(shape.properties.get(name) as Schema, { resolve: (s) => contract.resolve(s), seed: `${operation.method} ${operation.path}:${name}` }).value] as const);
  const array = contract.resolve(arraySchema);
  return { itemSchema: (array.items ?? {}) as Schema, property, others, maxItems: maxItemsOf(array) };
}

/** Whether an array's items are the pattern's resource: the schema its create or read answers (the same `$ref`), or one with its key property. */
function isResource(contract: Contract, pattern: ResourcePattern, items: Schema): boolean {
  const ref = typeof items.$ref === 'string' ? items.$ref : undefined;
  const answered = ['create', 'read'].flatMap((role) => {
    const operation = pattern.operations.get(role as 'create' | 'read');
    const schema = operation?.response(successOf(operation).status)?.schema;
    return typeof schema?.$ref === 'string' ? [schema.$ref] : [];
  });
  if (ref !== undefined && answered.includes(ref)) return true;
  return contract.shapeOf(items).properties.has(pattern.keyProperty);
}

interface Window {
  readonly cursor: string | undefined;
  readonly skip: number;
  readonly limit: number;
}

/** The first item, the count skipped and the most answered, from the request's paging parameters. */
function windowOf(declared: ReadonlyMap<Paging, ParameterContract>, query: ParsedParameters['query'], maxItems: number): Window {
  const number = (role: Paging): number | undefined => {
    const value = query[declared.get(role)?.name ?? ''];
    return isLosslessNumber(value) ? Number(value.value) : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const limitParameter = declared.get('limit');
  const given = number('limit');
  const page = number('page');
  const pageSize = given ?? (typeof limitParameter?.schema.default === 'number' ? limitParameter.schema.default : DEFAULT_PAGE_SIZE);
  const firstPage = declared.get('page')?.schema.minimum === 0 ? 0 : 1;
  const skip = (number('offset') ?? 0) + (page === undefined ? 0 : Math.max(0, page - firstPage) * pageSize);
  const cursor = query[declared.get('cursor')?.name ?? ''];
  const limit = Math.min(given ?? (page === undefined ? Infinity : pageSize), maxItems);
  return { cursor: isLosslessNumber(cursor) ? cursor.value : typeof cursor === 'string' ? cursor : undefined, skip, limit };
}

export function listAnswer(contract: Contract, pattern: ResourcePattern, operation: OperationContract, shape: ListShape, checkParent: ParentCheck): OperationAnswer {
  const { status, json } = successOf(operation);
  const properties = contract.shapeOf(shape.itemSchema).properties;
  const query = operation.parameters.filter((p) => p.in === 'query');
  const declared = new Map<Paging, ParameterContract>();
  for (const parameter of query) {
    const role = pagingOf(parameter.name);
    if (role !== undefined && !declared.has(role)) declared.set(role, parameter);
  }
  const filters = query.filter((p) => pagingOf(p.name) === undefined && p.scalar === 'string' && contract.resolve(properties.get(p.name) ?? {}).type === 'string');
  const wrap = envelope(shape);
  return ({ store, parameters }) => {
    const place = placeOf(pattern, parameters);
    const missing = checkParent(store, place);
    if (missing) return missing;
    const window = windowOf(declared, parameters.query, shape.maxItems);
    const wanted = filters.flatMap((filter) => {
      const value = parameters.query[filter.name];
      return value === undefined ? [] : [{ name: filter.name, values: new Set<JsonValue>(Array.isArray(value) ? value : [value]) }];
    });
    const items: string[] = [];
    let started = window.cursor === undefined;
    let skipped = 0;
    for (const [key, item] of store.entries(place.scope)) {
      if (items.length >= window.limit) break;
      if (!started) {
        started = key === window.cursor;
        continue;
      }
      if (!wanted.every(({ name, values }) => values.has(item[name] ?? null))) continue;
      if (skipped < window.skip) skipped += 1;
      else items.push(stringifyJson(item));
    }
    return success(status, json, wrap(`[${items.join(',')}]`));
  };
}

/** The list's text from its items' array: the array itself, or the envelope with the array in its property. */
function envelope(shape: ListShape): (array: string) => string {
  if (shape.property === undefined) return (array) => array;
  const property = JSON.stringify(shape.property);
  const others = shape.others.map(([name, value]) => `${JSON.stringify(name)}:${stringifyJson(value)}`).join(',');
  return (array) => `{${property}:${array}${others === '' ? '' : `,${others}`}}`;
}
