/**
 * The form codec, `application/x-www-form-urlencoded` (the WHATWG URL Standard, section 5: its
 * parser and serialiser; `+` is a space). A body is an object of fields typed by the media type's
 * schema and `encoding` object (form-fields.ts): numbers exact, booleans, a repeated name a list,
 * an array not exploded one delimited text (`form` `,`, `spaceDelimited` ` `, `pipeDelimited`
 * `|`), a `deepObject` as `name[key]=value`, a field whose encoding `contentType` is JSON (or an
 * object without a style) as JSON text.
 *
 * Stricter than a browser in one way: the percent-decoded bytes must be UTF-8 (the standard
 * would put U+FFFD in their place; the kit says the body is malformed rather than store that).
 */
import { stringifyJson, type JsonValue } from '../json.js';
import { bytesAsText, Malformed, type BodyContext, type FormField, type FormFields, type MediaTypeCodec } from './codec.js';
import { fieldText, formObject } from './form-fields.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();

/** Delimiters of an array that is not exploded, by style (OpenAPI 3.1, section 4.8.12.4). */
const DELIMITERS: Readonly<Record<string, string>> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

const NEEDS_DECODING = /[%+\u0080-\u00ff]/;

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
}

/**
 * A name or value of the form's bytes (one character per byte): `+` a space, then percent-decoded
 * (a `%` not followed by two hex digits is itself), then UTF-8, strictly.
 */
function decodeComponent(bytes: string): string | undefined {
  // ASCII without `%` or `+` is its own text: most names and many values.
  if (!NEEDS_DECODING.test(bytes)) return bytes;
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (code === 0x25 && i + 2 < bytes.length && isHex(bytes.charCodeAt(i + 1)) && isHex(bytes.charCodeAt(i + 2))) {
      out[length++] = Number.parseInt(bytes.slice(i + 1, i + 3), 16);
      i += 2;
    } else out[length++] = code === 0x2b ? 0x20 : code;
  }
  try {
    return UTF8.decode(out.subarray(0, length));
  } catch {
    return undefined;
  }
}

/** The name/value pairs of a form body, in order (WHATWG URL, section 5.1), or why they are not text. */
export function parseFormPairs(bytes: string): [string, string][] | Malformed {
  const pairs: [string, string][] = [];
  for (const sequence of bytes.split('&')) {
    if (sequence === '') continue;
    const equals = sequence.indexOf('=');
    const name = decodeComponent(equals === -1 ? sequence : sequence.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : sequence.slice(equals + 1));
    if (name === undefined || value === undefined) return new Malformed(`malformed form: ${JSON.stringify(sequence.slice(0, 40))} is not UTF-8 once percent-decoded`, 'not UTF-8 once percent-decoded');
    pairs.push([name, value]);
  }
  return pairs;
}

/** `name[key]` of a deepObject field: the field's name and the key, or undefined. */
function deepName(name: string, fields: FormFields | undefined): [string, string] | undefined {
  const open = name.indexOf('[');
  if (open <= 0 || !name.endsWith(']')) return undefined;
  const base = name.slice(0, open);
  return fields?.get(base)?.properties === undefined ? undefined : [base, name.slice(open + 1, -1)];
}

/** The texts of each field, in the order first given; a non-exploded array's text split at its delimiter. */
function group(pairs: readonly [string, string][], fields: FormFields | undefined): { texts: Map<string, string[]>; deep: Map<string, Map<string, string[]>> } {
  const texts = new Map<string, string[]>();
  const deep = new Map<string, Map<string, string[]>>();
  for (const [name, value] of pairs) {
    const nested = deepName(name, fields);
    if (nested !== undefined) {
      const [base, key] = nested;
      if (!deep.has(base)) texts.set(base, []);
      const members = deep.get(base) ?? new Map<string, string[]>();
      deep.set(base, members);
      const list = members.get(key);
      if (list === undefined) members.set(key, [value]);
      else list.push(value);
      continue;
    }
    const field = fields?.get(name);
    const delimiter = field?.array === true && !field.explode ? DELIMITERS[field.style] : undefined;
    const list = texts.get(name) ?? [];
    texts.set(name, list);
    if (delimiter === undefined) list.push(value);
    else list.push(...(value === '' ? [] : value.split(delimiter)));
  }
  return { texts, deep };
}

function parseForm(text: string, context: BodyContext | undefined): JsonValue | Malformed {
  const pairs = parseFormPairs(text);
  if (pairs instanceof Malformed) return pairs;
  const fields = context?.fields;
  const { texts, deep } = group(pairs, fields);
  const object = formObject(new Map([...texts].filter(([name]) => !deep.has(name))), fields, context?.maxDepth);
  if (object instanceof Malformed) return object;
  const values = new Map(Object.entries(object));
  for (const [base, members] of deep) {
    const value = formObject(members, fields?.get(base)?.properties, context?.maxDepth);
    if (value instanceof Malformed) return value;
    values.set(base, value);
  }
  // In the order the fields came, each an own property (a field named __proto__ too).
  return Object.fromEntries([...texts.keys()].map((name) => [name, values.get(name) as JsonValue]));
}

/** The pairs a field's value is written as. */
function fieldPairs(name: string, value: unknown, field: FormField | undefined): [string, string][] {
  if (field?.properties !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, member]) => fieldPairs(`${name}[${key}]`, member, field.properties?.get(key)));
  }
  if (Array.isArray(value) && field?.kind !== 'json') {
    const delimiter = field?.array === true && !field.explode ? DELIMITERS[field.style] : undefined;
    const items = value.map((item) => fieldText(item, stringifyJson));
    return delimiter === undefined ? items.map((item) => [name, item]) : [[name, items.join(delimiter)]];
  }
  return [[name, fieldText(value, stringifyJson)]];
}

function encodeForm(value: unknown, context: BodyContext | undefined): Uint8Array {
  const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
  const pairs = entries.flatMap(([name, member]) => (member === undefined ? [] : fieldPairs(name, member, context?.fields?.get(name))));
  // URLSearchParams writes the standard's serialisation (section 5.2): UTF-8, percent-encoded, space as `+`.
  return ENCODER.encode(new URLSearchParams(pairs).toString());
}

export const formCodec: MediaTypeCodec = {
  name: 'form',
  essences: ['application/x-www-form-urlencoded'],
  suffix: undefined,
  validation: 'schema',
  fields: true,
  // The body's bytes one character per byte: percent-decoding works on bytes, then UTF-8 (decodeComponent).
  text: bytesAsText,
  parse: parseForm,
  encode: encodeForm,
};
