/**
 * JSON values as the checks read them: a body decoded strictly (UTF-8, RFC 8259) once however many
 * checks ask, two values compared exactly (integers as exact integers, strings code point for code
 * point), a value shown in a message.
 */
import { exactInteger, isJsonObject, isLosslessNumber, parseJson, type JsonValue } from '../src/openapi/index.js';

/** A string's code points (not UTF-16 units: an astral character is one). */
export function codePointsOf(value: string): string[] {
  return Array.from(value);
}

/** Strict UTF-8 that drops one leading byte order mark (ignoreBOM: false, the WHATWG default). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const decoded = new WeakMap<Uint8Array, { value: JsonValue } | { error: string }>();

/**
 * A body as JSON, strictly (UTF-8, RFC 8259), parsed once per body however many checks ask. A
 * leading byte order mark is skipped, as RFC 8259, section 8.1 lets a parser do: sending one is a
 * finding of its own (the hygiene checks), not a reason to misread the body.
 */
export function decodeJson(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let result = decoded.get(bytes);
  if (!result) {
    result = decodeJsonOnce(bytes);
    decoded.set(bytes, result);
  }
  return result;
}

function decodeJsonOnce(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'not valid UTF-8' };
  }
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Whether `got` is `sent` (RFC 8259 values): strings code point for code point, integers as exact
 * integers whatever their spelling (1e2 is 100), and an integer may come back as the string of its
 * decimal digits (a common way to keep int64 exact for JavaScript clients) - but never rounded.
 */
export function sameJson(sent: JsonValue, got: JsonValue | undefined): boolean {
  if (got === undefined) return false;
  if (isLosslessNumber(sent)) {
    const integer = exactInteger(sent);
    if (integer !== undefined) {
      if (typeof got === 'string') return got === integer.toString();
      return isLosslessNumber(got) && exactInteger(got) === integer;
    }
    return isLosslessNumber(got) && Number(got.value) === Number(sent.value);
  }
  if (typeof sent !== 'object' || sent === null) return sent === got;
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((item, i) => sameJson(item, got[i]));
  if (!isJsonObject(got)) return false;
  const keys = Object.keys(sent);
  return keys.length === Object.keys(got).length && keys.every((k) => Object.hasOwn(got, k) && sameJson(sent[k] as JsonValue, got[k]));
}

export function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const points = codePointsOf(value);
    return points.length > 60 ? `a string of ${points.length} characters starting ${JSON.stringify(points.slice(0, 40).join(''))}` : JSON.stringify(value);
  }
  if (isLosslessNumber(value)) return value.value;
  const text = JSON.stringify(value, (_k, v: unknown) => (isLosslessNumber(v) ? v.value : v));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Where two strings first differ, by code point: enough to see truncation or a mangled astral character. */
export function firstDifference(sent: string, got: string): string {
  const a = codePointsOf(sent);
  const b = codePointsOf(got);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const hex = (c: string | undefined): string => (c === undefined ? 'the end' : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return ` (${a.length} vs ${b.length} code points; first difference at ${i}: sent ${hex(a[i])}, got ${hex(b[i])})`;
}
