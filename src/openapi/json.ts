/**
 * Lossless JSON (RFC 8259) for the whole kit: numbers are kept as their decimal text
 * (lossless-json's LosslessNumber), so an int64 id never passes through a double.
 *
 * JSON Schema 2020-12 (section 6.1.1 of the validation spec) treats any number with a zero
 * fractional part as an integer: `1.0` and `1e2` are integers. `exactInteger` gives that value
 * exactly, as a bigint; `validationView` gives ajv a tree of doubles that keeps every property the
 * contract's integer formats test (see `projectNumber`).
 */
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { scanJson } from './json-scan.js';
import type { JsonObject, JsonValue } from './json-value.js';

export { isLosslessNumber, LosslessNumber };
export type { JsonObject, JsonValue };

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Parses JSON text without losing a digit of any number. Throws SyntaxError on malformed text. */
export function parseJson(text: string): JsonValue {
  // json-scan.ts reads long well-formed text faster, to the same values; lossless-json (whose
  // number parser makes a LosslessNumber of each number's text) reads short text, as it always
  // did, and decides everything else, errors included.
  return (text.length >= SCAN_FROM ? scanJson(text) : undefined) ?? (parse(text) as JsonValue);
}

/**
 * Texts from this length are scanned first (json-scan.ts): a list answer of hundreds of items,
 * where lossless-json's string building costs most. Below it the scan gains little (bench/README:
 * a faster path for the bench mix's bodies gained nothing), and the reference's request bodies -
 * 16 KiB at most under the soak's limit - are read exactly as before: the scan's strings are
 * slices that keep their text alive, which a store holding part of a large body would pay for.
 */
export const SCAN_FROM = 16_384;

/** Writes JSON; LosslessNumbers and bigints are written digit for digit. */
export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/**
 * A string as JSON text, as JSON.stringify writes it. Most strings the servers write (an Error's
 * message, a plant's name) hold no character JSON.stringify escapes - a quote, a backslash, a
 * control character, a surrogate - and are quoted as they are (a quarter less time for the
 * messages of the bench mix; the Error of every other answer there, the plant of the rest).
 */
export function quoteJson(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 /* " */ || c === 0x5c /* \ */ || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/**
 * The depth of the deepest array or object in `text`, scanning no further than one level past
 * `limit`. Runs before parsing so that a hostile body cannot exhaust the parser's stack.
 */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Any exponent beyond this makes a non-zero integer far outside every integer format; it is clamped. */
const MAX_EXPONENT = 400;

/**
 * The exact integer a JSON number denotes, or undefined when it has a non-zero fractional part.
 * `1.0` → 1n, `1e2` → 100n, `-0` → 0n, `12.5` → undefined. Magnitudes past 10^400 are clamped
 * to ±10^400: still an integer, still outside every bounded format, and cheap to compute.
 */
export function exactInteger(number: LosslessNumber | string): bigint | undefined {
  const text = typeof number === 'string' ? number : number.value;
  // Most ids are written as plain integers: BigInt reads those exactly, with no regex or slicing.
  if (isPlainInteger(text)) return BigInt(text);
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let exponent = Number(exponentText) - fraction.length;
  while (exponent < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  if (exponent < 0) return undefined;
  const magnitude = digits.length + exponent > MAX_EXPONENT ? 10n ** BigInt(MAX_EXPONENT) : BigInt(digits) * 10n ** BigInt(exponent);
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * The integer a JSON number denotes in canonical decimal form (`1e2` → `100`, `-0` → `0`), or
 * undefined when it has a non-zero fractional part. A plain integer as JSON writes it (no
 * leading zero) is its own canonical form and is returned as it is, with no bigint in between.
 */
export function integerText(number: LosslessNumber | string): string | undefined {
  const text = typeof number === 'string' ? number : number.value;
  const first = text.charCodeAt(0) === 0x2d /* - */ ? 1 : 0;
  if (isPlainInteger(text) && (text.length === first + 1 ? text !== '-0' : text.charCodeAt(first) !== 0x30 /* 0 */)) return text;
  return exactInteger(text)?.toString();
}

/** `-?[0-9]+`: an integer with neither fraction nor exponent. */
function isPlainInteger(text: string): boolean {
  const start = text.charCodeAt(0) === 0x2d /* - */ ? 1 : 0;
  if (text.length === start) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Plain integers of at most this many digits are below 2^53, so Number() reads them exactly. */
const SAFE_DIGITS = 15;

const SAFE_LIMIT = 2n ** 53n;
/** The largest double below 2^63: in int64 range, like every integer it stands for. */
const BELOW_2_63 = 2 ** 63 - 1024;
/** The largest double below -2^63: outside int64 range. */
const BELOW_MINUS_2_63 = -(2 ** 63) - 2048;
/** The largest non-integer double. */
const LARGEST_FRACTION = 2 ** 52 - 0.5;

/**
 * The double ajv sees for a JSON number. Exact inside ±2^53; beyond it, a double chosen so that
 * being an integer, its sign, and lying in int32 or int64 range are all the same as for the exact
 * value. `format: int64` is then checked exactly by `isInt64Projection`.
 */
export function projectNumber(number: LosslessNumber | string): number {
  const text = typeof number === 'string' ? number : number.value;
  // `|| 0`: -0 is projected as 0, as the exact path (via 0n) does.
  if (text.length <= SAFE_DIGITS && isPlainInteger(text)) return Number(text) || 0;
  const integer = exactInteger(text);
  if (integer === undefined) {
    const double = Number(text);
    if (Number.isFinite(double) && !Number.isInteger(double)) return double;
    return double < 0 ? -LARGEST_FRACTION : LARGEST_FRACTION;
  }
  if (integer > -SAFE_LIMIT && integer < SAFE_LIMIT) return Number(integer);
  const double = Number(integer);
  if (integer >= INT64_MIN && integer <= INT64_MAX) return Math.min(double, BELOW_2_63);
  if (integer > 0) return Number.isFinite(double) ? Math.max(double, 2 ** 63) : Number.MAX_VALUE;
  return Number.isFinite(double) ? Math.min(double, BELOW_MINUS_2_63) : -Number.MAX_VALUE;
}

/** `format: int64` on a projected number (see projectNumber): exact for the original value. */
export function isInt64Projection(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value <= BELOW_2_63;
}

/** A copy of `value` with every LosslessNumber replaced by its projection, for ajv. */
export function validationView(value: JsonValue): unknown {
  if (isLosslessNumber(value)) return projectNumber(value);
  if (Array.isArray(value)) return value.map(validationView);
  if (value !== null && typeof value === 'object') {
    // A spread copies the object whole (own keys as data properties: an own `__proto__` too, never
    // the prototype), in one step where a property at a time took a third longer; then only the
    // numbers, objects and arrays are replaced, each an own property already, so assignment is safe.
    const view: Record<string, unknown> = { ...value };
    for (const key of Object.keys(view)) {
      const item = view[key];
      if (item !== null && typeof item === 'object') view[key] = validationView(item as JsonValue);
    }
    return view;
  }
  return value;
}
