/**
 * The request view and the response view of a contract's schemas (OpenAPI 3.1, section 4.8.24.4;
 * OpenAPI 3.0, Schema Object `readOnly`/`writeOnly`): a `readOnly` property is never required in
 * a request, a `writeOnly` one never in an answer. A view is the document again with those names
 * taken out of each `required` - through `$ref`, `allOf` (a `required` beside the part that
 * declares the property), nested objects and arrays - made once at load, and only where a schema
 * drops a name: a `$ref` to a part that drops none points back into the original document, so ajv
 * compiles that part once for both. `withoutWriteOnly` takes `writeOnly` properties out of a value
 * the reference answers (an example, a stored item).
 */
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { asRecord, type Schema } from './types.js';
import { DATA_KEYWORDS } from './walk.js';

export type Direction = 'request' | 'response';

/** The keyword that takes a property out of `required`, by direction. */
export const HIDDEN_IN: Readonly<Record<Direction, 'readOnly' | 'writeOnly'>> = { request: 'readOnly', response: 'writeOnly' };

/** Keywords whose value is a map of names to schemas: a key there is a name, never a keyword or data. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const MAX_DEPTH = 32;

export interface SchemaView {
  /** The document with the dropped names out of `required`; `$ref`s to parts that drop none point to `originalId`. */
  readonly document: Schema;
  /** Whether the schema at this pointer (or anything it reaches) drops a name: only then is it compiled from the view. */
  needs(pointer: string): boolean;
}

type Lookup = (ref: string) => Schema;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function follow(schema: Schema, lookup: Lookup): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops <= MAX_DEPTH; hops++) current = lookup(current.$ref);
  return current;
}

/** Whether a property's schema hides it in a direction: the flag on itself (beside a `$ref`), at its `$ref`'s end, or on a part of its `allOf`. */
export function hiddenIn(direction: Direction, property: unknown, resolve: (schema: Schema) => Schema): boolean {
  const flag = HIDDEN_IN[direction];
  if (!isObject(property)) return false;
  if (property[flag] === true) return true;
  const resolved = resolve(property);
  if (resolved[flag] === true) return true;
  return Array.isArray(resolved.allOf) && resolved.allOf.some((part) => isObject(part) && resolve(part)[flag] === true);
}

/** The properties a schema declares, its own and its `allOf` parts' (through `$ref`s). */
function declaredProperties(schema: Schema, lookup: Lookup, into = new Map<string, unknown>(), depth = 0): Map<string, unknown> {
  if (depth > MAX_DEPTH) return into;
  const resolved = follow(schema, lookup);
  for (const [name, property] of Object.entries(asRecord(resolved.properties))) if (!into.has(name)) into.set(name, property);
  if (Array.isArray(resolved.allOf)) for (const part of resolved.allOf) if (isObject(part)) declaredProperties(part, lookup, into, depth + 1);
  return into;
}

/** What the view keeps of a node's `required`, or undefined when it keeps it all. */
function keptRequired(node: Schema, inherited: ReadonlyMap<string, unknown>, direction: Direction, lookup: Lookup): unknown[] | undefined {
  if (!Array.isArray(node.required) || node.required.length === 0) return undefined;
  const own = asRecord(node.properties);
  const kept = node.required.filter((name) => typeof name !== 'string' || !hiddenIn(direction, Object.hasOwn(own, name) ? own[name] : inherited.get(name), (schema) => follow(schema, lookup)));
  return kept.length === node.required.length ? undefined : kept;
}

/** The properties an inline `allOf` part sees beside its own: those of the whole `allOf`. */
function contextOf(node: Schema, lookup: Lookup): ReadonlyMap<string, unknown> {
  return Array.isArray(node.allOf) ? declaredProperties(node, lookup) : new Map();
}

/** Each non-data child of a node, with whether its keys are names (a `properties` map). */
function* children(node: Schema, namesOnly: boolean): Generator<[string, unknown]> {
  for (const [key, child] of Object.entries(node)) if (namesOnly || !DATA_KEYWORDS.has(key)) yield [key, child];
}

/**
 * The view of `document` for a direction, or undefined when no schema of it drops a name (the
 * usual case: nothing is built, nothing compiled twice).
 */
export function schemaView(document: Schema, direction: Direction, lookup: Lookup, originalId: string): SchemaView | undefined {
  const tainted = new Set<string>();
  const needing = new WeakSet<object>();
  const refs = new Set<string>();

  // Whether a subtree drops a name, following no $ref but those already found to lead to one.
  const needs = (value: unknown, inherited: ReadonlyMap<string, unknown>, namesOnly: boolean, depth: number): boolean => {
    if (Array.isArray(value)) return value.some((item) => needs(item, inherited, false, depth + 1));
    if (!isObject(value) || depth > 256) return false;
    if (needing.has(value)) return true;
    let found = false;
    if (!namesOnly && typeof value.$ref === 'string' && value.$ref.startsWith('#')) {
      refs.add(value.$ref);
      found = tainted.has(value.$ref);
    }
    if (!namesOnly && keptRequired(value, inherited, direction, lookup) !== undefined) found = true;
    const context = namesOnly ? new Map<string, unknown>() : contextOf(value, lookup);
    for (const [key, child] of children(value, namesOnly)) {
      const inner = key === 'allOf' ? context : new Map<string, unknown>();
      // Every child is visited: the $refs below are all collected on the first pass.
      if (needs(child, inner, NAME_MAPS.has(key) && !namesOnly, depth + 1)) found = true;
    }
    if (found) needing.add(value);
    return found;
  };

  // A $ref leads to a dropped name where its target's subtree does, through other such $refs:
  // found to a fixed point, so cycles (a Node of Nodes, A → B → A) end.
  if (!needs(document, new Map(), false, 0)) return undefined;
  for (let grew = true; grew; ) {
    grew = false;
    for (const ref of refs) {
      if (tainted.has(ref)) continue;
      const target = safeLookup(lookup, ref);
      if (target !== undefined && needs(target, new Map(), false, 0)) {
        tainted.add(ref);
        grew = true;
      }
    }
  }

  const copy = (value: unknown, inherited: ReadonlyMap<string, unknown>, namesOnly: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => copy(item, inherited, false));
    if (!isObject(value)) return value;
    const out: Schema = {};
    const context = namesOnly ? new Map<string, unknown>() : contextOf(value, lookup);
    for (const [key, child] of Object.entries(value)) {
      if (!namesOnly && DATA_KEYWORDS.has(key)) out[key] = child;
      else if (!namesOnly && key === '$ref' && typeof child === 'string' && child.startsWith('#')) out[key] = tainted.has(child) ? child : `${originalId}${child}`;
      else out[key] = copy(child, key === 'allOf' ? context : new Map(), NAME_MAPS.has(key) && !namesOnly);
    }
    const kept = namesOnly ? undefined : keptRequired(value, inherited, direction, lookup);
    if (kept !== undefined) out.required = kept;
    return out;
  };
  const view = copy(document, new Map(), false) as Schema;
  return {
    document: view,
    needs: (pointer) => {
      const node = safeLookup(lookup, `#${pointer}`);
      return node !== undefined && needs(node, new Map(), false, 0);
    },
  };
}

function safeLookup(lookup: Lookup, ref: string): Schema | undefined {
  try {
    return lookup(ref);
  } catch {
    return undefined;
  }
}

/**
 * `value` without the properties its schema marks `writeOnly`, wherever the schema puts them
 * (through `$ref`, `allOf`/`oneOf`/`anyOf`, nested objects and arrays); `value` itself where it
 * has none. What the reference answers never carries them (OpenAPI 3.1, section 4.8.24.4).
 */
export function withoutWriteOnly(value: JsonValue, schema: Schema, lookup: Lookup, depth = 0): JsonValue {
  if (depth > MAX_DEPTH * 4) return value;
  const resolved = follow(schema, lookup);
  if (Array.isArray(value)) {
    const items = isObject(resolved.items) ? resolved.items : undefined;
    if (items === undefined) return value;
    const out = value.map((item) => withoutWriteOnly(item, items, lookup, depth + 1));
    return out.some((item, index) => item !== value[index]) ? out : value;
  }
  if (!isJsonObject(value)) return value;
  const properties = propertiesOfAny(resolved, lookup, new Map(), 0);
  if (properties.size === 0) return value;
  let changed = false;
  const out: JsonObject = {};
  for (const [name, member] of Object.entries(value)) {
    const property = properties.get(name);
    if (property !== undefined && hiddenIn('response', property, (schema) => follow(schema, lookup))) {
      changed = true;
      continue;
    }
    const stripped = property === undefined ? member : withoutWriteOnly(member, asRecord(property), lookup, depth + 1);
    if (stripped !== member) changed = true;
    // defineProperty: an own `__proto__` key stays an ordinary property.
    Object.defineProperty(out, name, { value: stripped, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/** The properties a schema may give a value: its own, its `allOf`'s, and every `oneOf`/`anyOf` branch's. */
function propertiesOfAny(schema: Schema, lookup: Lookup, into: Map<string, unknown>, depth: number): Map<string, unknown> {
  if (depth > MAX_DEPTH) return into;
  const resolved = follow(schema, lookup);
  for (const [name, property] of Object.entries(asRecord(resolved.properties))) if (!into.has(name)) into.set(name, property);
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const parts = resolved[keyword];
    if (Array.isArray(parts)) for (const part of parts) if (isObject(part)) propertiesOfAny(part, lookup, into, depth + 1);
  }
  return into;
}
