/**
 * JSON text written by the generators themselves (RFC 8259), not by JSON.stringify: ids go out
 * digit for digit whatever their size, integers in every spelling JSON allows (`100`, `100.0`,
 * `1e2`, `1E+2`, `10.0e1`, `1000e-1`), strings with any mix of escapes, and any whitespace
 * between tokens. A model of the text is generated and shrunk; this module writes it.
 */

/** How a string's characters are written (RFC 8259, section 7). Every style denotes the same string. */
export type StringStyle =
  /** Only what must be escaped (`"`, `\`, controls), controls as short escapes where they exist; the rest raw UTF-8. */
  | 'plain'
  /** Everything outside ASCII as `\uXXXX`, astral characters as surrogate-pair escapes. */
  | 'ascii'
  /** Every character as `\uXXXX` (letters included: `"\u006eame"` is `"name"`). */
  | 'escape-all'
  /** `/` written as `\/`, controls as `\u00XX`, upper-case hex digits. */
  | 'solidus';

export const STRING_STYLES: readonly StringStyle[] = ['plain', 'ascii', 'escape-all', 'solidus'];

/** Whitespace between tokens (RFC 8259, section 2: space, tab, line feed, carriage return). */
export type Layout = 'compact' | 'spaced' | 'pretty' | 'tabs-crlf';
export const LAYOUTS: readonly Layout[] = ['compact', 'spaced', 'pretty', 'tabs-crlf'];

export type JsonModel =
  | { readonly kind: 'literal'; readonly text: 'null' | 'true' | 'false' }
  /** A number, already spelled (see spellInteger). */
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string; readonly style: StringStyle }
  | { readonly kind: 'array'; readonly items: readonly JsonModel[] }
  | { readonly kind: 'object'; readonly members: readonly JsonMember[] };

export interface JsonMember {
  readonly key: string;
  readonly keyStyle: StringStyle;
  readonly value: JsonModel;
}

/** A string's code points (not UTF-16 units: an astral character is one). */
export function codePointsOf(value: string): string[] {
  return Array.from(value);
}

export const nullModel: JsonModel = { kind: 'literal', text: 'null' };

export function stringModel(value: string, style: StringStyle = 'plain'): JsonModel {
  return { kind: 'string', value, style };
}

export function numberModel(text: string): JsonModel {
  return { kind: 'number', text };
}

/** Ways to write an integer in JSON; all denote the same integer under JSON Schema 2020-12 (decision 7). */
export type IntegerSpelling = 'plain' | 'point-zero' | 'exponent' | 'upper-exponent-plus' | 'fraction-exponent' | 'negative-exponent' | 'negative-zero';
export const INTEGER_SPELLINGS: readonly IntegerSpelling[] = ['plain', 'point-zero', 'exponent', 'upper-exponent-plus', 'fraction-exponent', 'negative-exponent', 'negative-zero'];

/**
 * `value` written in `spelling`: 100 → `100`, `100.0`, `1e2`, `1E+2`, `1.00e2`, `1000e-1`;
 * `negative-zero` writes 0 as `-0` (any other value plainly).
 */
export function spellInteger(value: bigint, spelling: IntegerSpelling): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = (value < 0n ? -value : value).toString();
  switch (spelling) {
    case 'plain':
      return value.toString();
    case 'point-zero':
      return `${value}.0`;
    case 'exponent':
    case 'upper-exponent-plus': {
      const digits = magnitude === '0' ? '0' : magnitude.replace(/0+$/, '');
      const exponent = magnitude.length - digits.length;
      return spelling === 'exponent' ? `${sign}${digits}e${exponent}` : `${sign}${digits}E+${exponent}`;
    }
    case 'fraction-exponent':
      return magnitude.length === 1 ? `${sign}${magnitude}.0e0` : `${sign}${magnitude[0] ?? ''}.${magnitude.slice(1)}e${magnitude.length - 1}`;
    case 'negative-exponent':
      return magnitude === '0' ? '0e-1' : `${sign}${magnitude}0e-1`;
    case 'negative-zero':
      return value === 0n ? '-0' : value.toString();
  }
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

function unicodeEscape(unit: number, upper = false): string {
  const hex = unit.toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

/** A string as a JSON string literal in the given style. */
export function writeString(value: string, style: StringStyle): string {
  // JSON.stringify writes exactly the plain style (ECMA-262 QuoteJSONString; the generators make no lone surrogates).
  if (style === 'plain') return JSON.stringify(value);
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (style === 'escape-all') {
      out += unicodeEscape(unit);
      continue;
    }
    if (unit === 0x22 || unit === 0x5c) {
      out += SHORT_ESCAPES[unit] ?? '';
    } else if (unit < 0x20) {
      out += style === 'solidus' ? unicodeEscape(unit, true) : (SHORT_ESCAPES[unit] ?? unicodeEscape(unit));
    } else if (unit === 0x2f && style === 'solidus') {
      out += '\\/';
    } else if (unit > 0x7e && style === 'ascii') {
      // UTF-16 code units, so an astral character becomes its surrogate pair (RFC 8259, section 7).
      out += unicodeEscape(unit);
    } else {
      out += value[i] ?? '';
    }
  }
  return out + '"';
}

const NEWLINE: Readonly<Record<Layout, string>> = { compact: '', spaced: '', pretty: '\n', 'tabs-crlf': '\r\n' };
const INDENT: Readonly<Record<Layout, string>> = { compact: '', spaced: '', pretty: '  ', 'tabs-crlf': '\t' };

/** The JSON text of a model. */
export function writeJson(model: JsonModel, layout: Layout = 'compact'): string {
  const colon = layout === 'compact' ? ':' : layout === 'tabs-crlf' ? '\t:\t' : ': ';
  const comma = layout === 'spaced' ? ', ' : ',';
  const lead = layout === 'spaced' ? ' ' : '';
  const write = (node: JsonModel, depth: number): string => {
    switch (node.kind) {
      case 'literal':
        return node.text;
      case 'number':
        return node.text;
      case 'string':
        return writeString(node.value, node.style);
      case 'array':
      case 'object': {
        const [open, close] = node.kind === 'array' ? ['[', ']'] : ['{', '}'];
        const parts = node.kind === 'array' ? node.items.map((item) => write(item, depth + 1)) : node.members.map((m) => `${writeString(m.key, m.keyStyle)}${colon}${write(m.value, depth + 1)}`);
        if (parts.length === 0) return open + close;
        const newline = NEWLINE[layout];
        if (newline === '') return `${open}${lead}${parts.join(comma)}${lead}${close}`;
        const inner = newline + INDENT[layout].repeat(depth + 1);
        return `${open}${inner}${parts.join(comma + inner)}${newline}${INDENT[layout].repeat(depth)}${close}`;
      }
    }
  };
  return write(model, 0);
}

/** The property of an object model with this key, if any. */
export function memberValue(model: JsonModel, key: string): JsonModel | undefined {
  return model.kind === 'object' ? model.members.find((m) => m.key === key)?.value : undefined;
}
