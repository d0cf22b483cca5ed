/**
 * A JSON value generated from a response's schema, for an operation the reference answers neither
 * from its store nor from an example (docs/reference-server.md), and for a refusal's body where
 * its error response has no valid example (src/http/refusals.ts): here, below both. Deterministic: the same schema and
 * seed give the same value. The schema's own values first (`const`, the first of `enum`, `default`,
 * `examples`, `example`), then by type: objects with their properties (the optional ones near the
 * top only, and not those of a `pattern`), arrays with `minItems` items (one where none is asked),
 * strings of their bounds and common formats, numbers within their bounds; integers exact (LosslessNumber, int64 clamped).
 * `allOf` is merged; `oneOf`/`anyOf` take the first branch whose value the validator accepts, its
 * `discriminator` property set to the branch's name (the `mapping`'s key for it, else its schema's
 * name: OpenAPI 3.1, section 4.8.25). A value answers a request: a `writeOnly` property is never in
 * it (OpenAPI 3.1, section 4.8.24.4).
 */
import { INT64_MAX, INT64_MIN, LosslessNumber, isJsonObject, isLosslessNumber, type JsonObject, type JsonValue } from './json.js';
import { hiddenIn } from './schema-views.js';
import type { Schema } from './types.js';

export const DEFAULT_SEED = 'plant-store';

/** Past this depth an object has its required properties only, an array its `minItems` only. */
const FULL_DEPTH = 3;
/** Past this depth nothing is nested any more: a recursive schema ends here. */
const MAX_DEPTH = 12;
const MAX_PROPERTIES = 20;
/** How many `oneOf`/`anyOf` branch choices are tried against the validator. */
const MAX_BRANCHES = 8;

export interface GeneratedValue {
  readonly value: JsonValue;
  /** Whether the validator accepts it (a `pattern`, say, may be out of the generator's reach). */
  readonly valid: boolean;
}

export interface GenerateOptions {
  /** `$ref`s followed (the contract's resolve). */
  readonly resolve: (schema: Schema) => Schema;
  readonly seed?: string | undefined;
  /** The validator of the whole value (the response's validateBody). */
  readonly validate?: ((value: JsonValue) => { readonly valid: boolean }) | undefined;
}

/** A small seeded generator (FNV-1a of the seed, then mulberry32): the same seed, the same sequence. */
function random(seed: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Context {
  readonly resolve: (schema: Schema) => Schema;
  readonly next: () => number;
  /** Which branch each `oneOf`/`anyOf` takes (clamped to its count). */
  readonly branch: number;
  branched: boolean;
}

/** The value generated from `schema`; `valid` by `options.validate` (true without one). */
export function generateValue(schema: Schema, options: GenerateOptions): GeneratedValue {
  let first: JsonValue | undefined;
  for (let branch = 0; branch < MAX_BRANCHES; branch += 1) {
    const context: Context = { resolve: options.resolve, next: random(options.seed ?? DEFAULT_SEED), branch, branched: false };
    const value = generate(schema, context, 0, []);
    first ??= value;
    if (options.validate === undefined || options.validate(value).valid) return { value, valid: true };
    if (!context.branched) break;
  }
  return { value: first ?? null, valid: false };
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value written in the schema (plain YAML/JSON), lossless. */
function fromDocument(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (isLosslessNumber(value)) return value;
  if (typeof value === 'number') return new LosslessNumber(Number.isFinite(value) ? String(value) : '0');
  if (typeof value === 'bigint') return new LosslessNumber(value.toString());
  if (Array.isArray(value)) return value.map(fromDocument);
  if (typeof value === 'object') {
    const object: JsonObject = {};
    for (const [key, member] of Object.entries(value)) object[key] = fromDocument(member);
    return object;
  }
  return null;
}

function without(schema: Schema, keyword: string): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== keyword));
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** `allOf` merged into one schema: properties joined, `required` joined, the rest the last one's. */
function merged(schema: Schema, context: Context, depth: number): Schema {
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : [];
  if (parts.length === 0) return schema;
  const own = without(schema, 'allOf');
  let result: Schema = {};
  for (const part of [...parts.map((p) => merged(context.resolve(p), context, depth + 1)), own]) {
    const properties = { ...(isSchema(result.properties) ? result.properties : {}), ...(isSchema(part.properties) ? part.properties : {}) };
    const required = [...listOf(result.required), ...listOf(part.required)];
    result = { ...result, ...part, properties, required: [...new Set(required)] };
  }
  return result;
}

/** The schema with its `oneOf`/`anyOf` replaced by the chosen branch, merged in. */
function branched(schema: Schema, context: Context, depth: number): Schema {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).filter(isSchema) : [];
    if (branches.length === 0) continue;
    if (branches.length > 1) context.branched = true;
    const chosen = branches[Math.min(context.branch, branches.length - 1)] ?? {};
    const branch = merged({ ...without(schema, keyword), allOf: [chosen] }, context, depth);
    return branched(tagged(branch, discriminatorTag(schema, chosen)), context, depth);
  }
  return schema;
}

/**
 * What a `discriminator`'s property holds for the chosen branch: the key of the
 * `mapping` entry that names the branch's `$ref` (or its schema's name), else the schema's name
 * itself (OpenAPI 3.1, section 4.8.25.2). Undefined without a discriminator, or for an inline branch
 * with no name: its own schema says what the property holds.
 */
function discriminatorTag(schema: Schema, chosen: Schema): { property: string; key: string } | undefined {
  const discriminator = isSchema(schema.discriminator) ? schema.discriminator : undefined;
  const property = discriminator?.propertyName;
  if (typeof property !== 'string' || typeof chosen.$ref !== 'string') return undefined;
  const ref = chosen.$ref;
  const name = decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1)).replace(/~1/g, '/').replace(/~0/g, '~');
  const mapping = isSchema(discriminator?.mapping) ? Object.entries(discriminator.mapping) : [];
  const key = mapping.find(([, target]) => target === ref || target === name)?.[0] ?? name;
  return { property, key };
}

/** The merged branch with its discriminator's property holding the branch's name, over whatever the parts said of it. */
function tagged(schema: Schema, tag: { property: string; key: string } | undefined): Schema {
  if (tag === undefined) return schema;
  const properties = { ...(isSchema(schema.properties) ? schema.properties : {}), [tag.property]: { type: 'string', const: tag.key } };
  return { ...schema, properties, required: [...new Set([...listOf(schema.required), tag.property])] };
}

/**
 * A base schema whose `discriminator` maps to its subtypes (each an `allOf` of the base, without a
 * `oneOf`): the subtype to generate instead, and the key that names it (OpenAPI 3.1, section
 * 4.8.25.3). Only through a `mapping`: the subtypes of an implicit one are not looked for. A
 * subtype already being generated (its `allOf` leads back to the base) is not taken again.
 */
function subtypeOf(schema: Schema, ref: string | undefined, path: readonly string[], context: Context): { target: string; property: string; key: string } | undefined {
  const discriminator = isSchema(schema.discriminator) ? schema.discriminator : undefined;
  const property = discriminator?.propertyName;
  if (typeof property !== 'string' || !isSchema(discriminator?.mapping) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return undefined;
  const choices = Object.entries(discriminator.mapping)
    .map(([key, target]) => ({ key, target: typeof target === 'string' && !target.startsWith('#') && !target.includes('/') ? `#/components/schemas/${target}` : target }))
    .filter((choice): choice is { key: string; target: string } => typeof choice.target === 'string' && choice.target !== ref && !path.includes(choice.target));
  if (choices.length === 0) return undefined;
  if (choices.length > 1) context.branched = true;
  const chosen = choices[Math.min(context.branch, choices.length - 1)];
  return chosen === undefined ? undefined : { target: chosen.target, property, key: chosen.key };
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string | undefined) ?? (type.length > 0 ? 'null' : undefined);
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema || 'minProperties' in schema) return 'object';
  if ('items' in schema || 'minItems' in schema) return 'array';
  if ('minLength' in schema || 'maxLength' in schema || 'format' in schema || 'pattern' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return 'number';
  return undefined;
}

function generate(raw: Schema, context: Context, depth: number, refs: readonly string[]): JsonValue {
  const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
  const path = ref === undefined ? refs : [...refs, ref];
  const resolved = context.resolve(raw);
  const subtype = depth < MAX_DEPTH ? subtypeOf(resolved, ref, path, context) : undefined;
  if (subtype !== undefined) {
    const value = generate({ $ref: subtype.target }, context, depth, path);
    // defineProperty: a discriminator named `__proto__` is an ordinary property.
    if (isJsonObject(value)) Object.defineProperty(value, subtype.property, { value: subtype.key, enumerable: true, writable: true, configurable: true });
    return value;
  }
  const schema = branched(merged(resolved, context, depth), context, depth);
  if ('const' in schema) return fromDocument(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fromDocument(schema.enum[0]);
  if ('default' in schema) return fromDocument(schema.default);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return fromDocument(schema.examples[0]);
  if ('example' in schema) return fromDocument(schema.example);
  switch (typeOf(schema)) {
    case 'object':
      return objectOf(schema, context, depth, path);
    case 'array':
      return arrayOf(schema, context, depth, path);
    case 'string':
      return stringOf(schema, context);
    case 'integer':
      return integerOf(schema, context);
    case 'number':
      return numberOf(schema, context);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** Whether a property's schema leads back to a schema already being generated (a recursion). */
function recurs(schema: unknown, refs: readonly string[]): boolean {
  return isSchema(schema) && typeof schema.$ref === 'string' && refs.includes(schema.$ref);
}

/** Whether a schema's strings must match a `pattern` (which the generator does not write): an optional property of it is left out. */
function patterned(schema: unknown, context: Context): boolean {
  return isSchema(schema) && typeof context.resolve(schema).pattern === 'string';
}

function objectOf(schema: Schema, context: Context, depth: number, refs: readonly string[]): JsonObject {
  const object: JsonObject = {};
  if (depth >= MAX_DEPTH) return object;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  for (const [name, property] of Object.entries(properties)) {
    // An answer never carries a writeOnly property, required or not.
    if (hiddenIn('response', property, context.resolve)) continue;
    const wanted = required.has(name) || (depth < FULL_DEPTH && Object.keys(object).length < MAX_PROPERTIES && !recurs(property, refs) && !patterned(property, context));
    if (wanted && isSchema(property)) object[name] = generate(property, context, depth + 1, refs);
  }
  // Required but not declared: anything will do.
  for (const name of required) if (!Object.hasOwn(object, name) && !hiddenIn('response', properties[name], context.resolve)) object[name] = generateExtra(schema, context, depth, refs);
  const minimum = typeof schema.minProperties === 'number' ? Math.min(schema.minProperties, MAX_PROPERTIES) : 0;
  for (let i = 1; Object.keys(object).length < minimum; i += 1) if (!Object.hasOwn(object, `property${i}`)) object[`property${i}`] = generateExtra(schema, context, depth, refs);
  return object;
}

function generateExtra(schema: Schema, context: Context, depth: number, refs: readonly string[]): JsonValue {
  return isSchema(schema.additionalProperties) ? generate(schema.additionalProperties, context, depth + 1, refs) : 'value';
}

function arrayOf(schema: Schema, context: Context, depth: number, refs: readonly string[]): JsonValue[] {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const items = isSchema(schema.items) ? schema.items : {};
  // One item where none is asked, to show its shape; only those asked for deep down or in a recursion.
  const count = depth >= MAX_DEPTH ? 0 : Math.min(Math.max(minItems, depth < FULL_DEPTH && !recurs(items, refs) ? 1 : 0), maxItems, 100);
  return Array.from({ length: count }, () => generate(items, context, depth + 1, refs));
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function word(context: Context, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += LETTERS[Math.floor(context.next() * LETTERS.length)] ?? 'a';
  return text;
}

function hex(context: Context, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += Math.floor(context.next() * 16).toString(16);
  return text;
}

function formatted(format: unknown, context: Context): string | undefined {
  const day = String(1 + Math.floor(context.next() * 28)).padStart(2, '0');
  switch (format) {
    case 'date':
      return `2024-05-${day}`;
    case 'date-time':
      return `2024-05-${day}T12:00:00Z`;
    case 'time':
      return '12:00:00Z';
    case 'email':
      return `${word(context, 6)}@example.com`;
    case 'uuid':
      return `${hex(context, 8)}-${hex(context, 4)}-4${hex(context, 3)}-8${hex(context, 3)}-${hex(context, 12)}`;
    case 'uri':
    case 'url':
      return `https://example.com/${word(context, 6)}`;
    case 'ipv4':
      return `192.0.2.${String(1 + Math.floor(context.next() * 254))}`;
    case 'ipv6':
      return `2001:db8::${hex(context, 4).replace(/^0+(?=.)/, '')}`;
    case 'hostname':
      return `${word(context, 6)}.example.com`;
    case 'byte':
      return 'cGxhbnQ=';
    default:
      return undefined;
  }
}

function stringOf(schema: Schema, context: Context): string {
  const special = formatted(schema.format, context);
  if (special !== undefined) return special;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return word(context, Math.min(Math.max(8, minLength), maxLength, 10_000));
}

/** A bound as an exact integer, rounded inwards; undefined when there is none. */
function bound(value: unknown, up: boolean): bigint | undefined {
  if (isLosslessNumber(value)) value = Number(value.value);
  if (typeof value === 'bigint') return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const rounded = up ? Math.ceil(value) : Math.floor(value);
  return BigInt(rounded);
}

/** The lowest and highest integer the schema allows (OpenAPI 3.0's boolean exclusive bounds too). */
function integerRange(schema: Schema): { low: bigint | undefined; high: bigint | undefined } {
  let low = bound(schema.minimum, true);
  let high = bound(schema.maximum, false);
  if (schema.exclusiveMinimum === true && low !== undefined && Number(schema.minimum) === Number(low)) low += 1n;
  if (schema.exclusiveMaximum === true && high !== undefined && Number(schema.maximum) === Number(high)) high -= 1n;
  const exclusiveLow = typeof schema.exclusiveMinimum === 'number' ? bound(schema.exclusiveMinimum, false) : undefined;
  const exclusiveHigh = typeof schema.exclusiveMaximum === 'number' ? bound(schema.exclusiveMaximum, true) : undefined;
  if (exclusiveLow !== undefined && (low === undefined || exclusiveLow + 1n > low)) low = exclusiveLow + 1n;
  if (exclusiveHigh !== undefined && (high === undefined || exclusiveHigh - 1n < high)) high = exclusiveHigh - 1n;
  if (schema.format === 'int64' || schema.format === 'int32') {
    const [min, max] = schema.format === 'int64' ? [INT64_MIN, INT64_MAX] : [-(2n ** 31n), 2n ** 31n - 1n];
    // Within the format's range; a bound given on one side only is met by the format's on the other.
    const clamp = (value: bigint): bigint => (value < min ? min : value > max ? max : value);
    if (low !== undefined || high !== undefined) {
      low = clamp(low ?? min);
      high = clamp(high ?? max);
    }
  }
  return { low, high };
}

/** An integer of the range (a few above its low, else below its high, else 1 to 100). */
function pick(low: bigint | undefined, high: bigint | undefined, context: Context): bigint {
  const step = BigInt(Math.floor(context.next() * 100));
  if (low !== undefined && high !== undefined) return high - low <= 100n ? low + (high > low ? step % (high - low + 1n) : 0n) : low + step;
  if (low !== undefined) return low + step;
  if (high !== undefined) return high - step;
  return 1n + step;
}

function integerOf(schema: Schema, context: Context): LosslessNumber {
  const { low, high } = integerRange(schema);
  let value = pick(low, high, context);
  const multiple = typeof schema.multipleOf === 'number' && Number.isInteger(schema.multipleOf) && schema.multipleOf > 0 ? BigInt(schema.multipleOf) : undefined;
  if (multiple !== undefined) {
    const remainder = ((value % multiple) + multiple) % multiple;
    if (remainder !== 0n) value += multiple - remainder;
    if (high !== undefined && value > high) value -= multiple;
  }
  return new LosslessNumber(value.toString());
}

/** The decimals of a number's shortest text (0.25 has 2), to write multiples exactly. */
function decimals(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split('e')[0]?.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

function numberOf(schema: Schema, context: Context): LosslessNumber {
  const multiple = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multiple !== undefined) {
    // k × multipleOf, k an integer within the bounds divided by it.
    const scaled: Schema = {};
    for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      const value = schema[keyword];
      scaled[keyword] = typeof value === 'number' ? value / multiple : value;
    }
    const k = integerOf(scaled, context);
    return new LosslessNumber((Number(k.value) * multiple).toFixed(decimals(multiple)).replace(/\.?0+$/, '') || '0');
  }
  const low = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const high = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : typeof schema.maximum === 'number' ? schema.maximum : undefined;
  // A narrow range (less than two apart): its middle, which no exclusive bound touches.
  if (low !== undefined && high !== undefined && high - low < 2) return new LosslessNumber(String((low + high) / 2));
  return halfAbove(schema, context);
}

function halfAbove(schema: Schema, context: Context): LosslessNumber {
  const { low, high } = integerRange(schema);
  const value = pick(low, high, context);
  // A half above the integer where the bounds leave room, to show the number is not an integer.
  const half = Number(value) + 0.5;
  const fits = (high === undefined || half < Number(high)) && (typeof schema.maximum !== 'number' || half <= schema.maximum) && (typeof schema.exclusiveMaximum !== 'number' || half < schema.exclusiveMaximum);
  return new LosslessNumber(fits ? String(half) : value.toString());
}
