/**
 * The fields of a form (`application/x-www-form-urlencoded`, `multipart/form-data`): what the
 * media type's schema and its `encoding` object (OpenAPI 3.1, section 4.8.15) say of each
 * property, worked out once when the contract is loaded, and how a field's text becomes its typed
 * value. A form carries text; the schema says which texts are numbers (kept exact, as the JSON
 * codec keeps them: LosslessNumbers), booleans, JSON (an object, or a property whose encoding's
 * `contentType` is JSON) or bytes (a binary file part).
 */
import { LosslessNumber, parseJson, nestingExceeds, type JsonValue } from '../json.js';
import { Malformed, type FieldKind, type FormField, type FormFields } from './codec.js';
import { mediaTypeEssence, structuredSuffix } from './essence.js';

type Resolve = (schema: Record<string, unknown>) => Record<string, unknown>;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The first type a schema names other than null (`[integer, null]` → integer). */
function typeOf(schema: Record<string, unknown>): string | undefined {
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  return typeof type === 'string' ? type : undefined;
}

/** A JSON media type: application/json or any `+json` (RFC 6838, section 4.2.8). */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  const essence = mediaTypeEssence(mediaType);
  return essence === 'application/json' || structuredSuffix(essence) === 'json';
}

/**
 * Bytes rather than text: `format: binary` (OpenAPI 3.0), or a `contentMediaType` that is neither
 * text nor JSON and no `contentEncoding` (3.1, section 4.8.14.3; the upgrader writes 3.0's binary so).
 */
function isBinary(schema: Record<string, unknown>): boolean {
  if (schema.format === 'binary') return true;
  if (typeof schema.contentMediaType !== 'string' || schema.contentEncoding !== undefined) return false;
  return !schema.contentMediaType.toLowerCase().startsWith('text/') && !isJsonMediaType(schema.contentMediaType);
}

function kindOf(schema: Record<string, unknown>, contentType: string | undefined): FieldKind {
  if (isJsonMediaType(contentType)) return 'json';
  const type = typeOf(schema);
  if (type === 'object' || type === 'array') return 'json';
  if (type === 'integer' || type === 'number' || type === 'boolean') return type;
  return isBinary(schema) ? 'binary' : 'string';
}

/** The fields of a form's schema (its `properties`, `$ref`s followed) with its `encoding` object. */
export function formFields(schema: Record<string, unknown> | undefined, encoding: unknown, resolve: Resolve): FormFields {
  const fields = new Map<string, FormField>();
  const properties = record(schema === undefined ? undefined : resolve(schema).properties);
  for (const [name, raw] of Object.entries(properties)) fields.set(name, fieldOf(resolve(record(raw)), record(record(encoding)[name]), resolve));
  return fields;
}

function fieldOf(schema: Record<string, unknown>, encoding: Record<string, unknown>, resolve: Resolve): FormField {
  const contentType = typeof encoding.contentType === 'string' ? encoding.contentType : undefined;
  const style = typeof encoding.style === 'string' ? encoding.style : 'form';
  // Section 4.8.15.1: explode defaults to true for form, false for the other styles.
  const explode = typeof encoding.explode === 'boolean' ? encoding.explode : style === 'form';
  const array = typeOf(schema) === 'array' && !isJsonMediaType(contentType);
  const items = array ? resolve(record(schema.items)) : schema;
  const deep = style === 'deepObject' && typeOf(schema) === 'object' && !isJsonMediaType(contentType);
  return {
    kind: deep ? 'string' : kindOf(items, contentType),
    array,
    style,
    explode,
    contentType,
    properties: deep ? formFields(schema, {}, resolve) : undefined,
  };
}

/** A field no property declares: text, a list when repeated. */
export const UNDECLARED_FIELD: FormField = Object.freeze({ kind: 'string', array: false, style: 'form', explode: true, contentType: undefined, properties: undefined });

/** JSON's number grammar (RFC 8259, section 6): text read as a number, exactly. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A field's text as its typed value. Text that is not of its type stays text, for the schema to
 * refuse by name (`age: must be integer`); JSON that does not parse is malformed.
 */
export function typedField(name: string, text: string, kind: FieldKind, maxDepth: number | undefined): JsonValue | Malformed {
  if (kind === 'integer' || kind === 'number') return NUMBER_TEXT.test(text) ? new LosslessNumber(text) : text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (kind !== 'json') return text;
  if (maxDepth !== undefined && text.length > maxDepth && nestingExceeds(text, maxDepth)) return new Malformed(`field ${name}: nested deeper than ${maxDepth} levels`);
  try {
    return parseJson(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return new Malformed(`field ${name}: malformed JSON: ${detail}`, detail, cause);
  }
}

/**
 * The fields of a form as they came (name → texts, in order) as one object: each typed by its
 * field, a list where the field is an array or an undeclared name repeats.
 */
export function formObject(given: ReadonlyMap<string, readonly string[]>, fields: FormFields | undefined, maxDepth: number | undefined): { [key: string]: JsonValue } | Malformed {
  const entries: [string, JsonValue][] = [];
  for (const [name, texts] of given) {
    const field = fields?.get(name) ?? UNDECLARED_FIELD;
    if (!field.array && texts.length > 1 && fields?.has(name) === true) return new Malformed(`field ${name}: given ${texts.length} times; give it once`);
    const values: JsonValue[] = [];
    for (const text of texts) {
      const value = typedField(name, text, field.kind, maxDepth);
      if (value instanceof Malformed) return value;
      values.push(value);
    }
    entries.push([name, field.array || texts.length > 1 ? values : (values[0] as JsonValue)]);
  }
  // Own properties whatever their names: a field named __proto__ is a field, never the object's prototype.
  return Object.fromEntries(entries);
}

/** A value of a field as the text a form carries: strings as they are, numbers by their digits, anything else as JSON. */
export function fieldText(value: unknown, stringify: (value: unknown) => string): string {
  if (typeof value === 'string') return value;
  if (value instanceof LosslessNumber) return value.value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return stringify(value);
}
