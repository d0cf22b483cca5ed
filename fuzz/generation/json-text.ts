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

/**
 * Whitespace between tokens and around the value (RFC 8259, section 2: `JSON-text = ws value ws`,
 * ws being space, tab, line feed, carriage return). `trailing-newline` is the compact text and a
 * line feed, as `curl -d @plant.json` sends a file; `surrounded` is `tabs-crlf` inside every kind
 * of whitespace before and after the value.
 */
export type Layout = 'compact' | 'spaced' | 'pretty' | 'tabs-crlf' | 'trailing-newline' | 'surrounded';
export const LAYOUTS: readonly Layout[] = ['compact', 'spaced', 'pretty', 'tabs-crlf', 'trailing-newline', 'surrounded'];

/** The layout of the same tokens without whitespace around the value: what edits of a text at its ends (the malformed kind's) start from. */
export function tokenLayout(layout: Layout): Layout {
  return layout === 'trailing-newline' ? 'compact' : layout === 'surrounded' ? 'tabs-crlf' : layout;
}

/** Whitespace before and after the value, by layout. */
const AROUND: Readonly<Partial<Record<Layout, readonly [string, string]>>> = { 'trailing-newline': ['', '\n'], surrounded: [' \t\r\n', '\r\n\t \n'] };

/**
 * A JSON value as the generators build it. `tags` name the table entries a value was drawn from
 * (`string-edge:nul`, `integer-spelling:exponent`): not written, only read back by `tagsOf` to
 * show which variants a sample reached (see variants.ts).
 */
export type JsonModel =
  | { readonly kind: 'literal'; readonly text: 'null' | 'true' | 'false' }
  /** A number, already spelled (see spellInteger). */
  | { readonly kind: 'number'; readonly text: string; readonly tags?: readonly string[] }
  | { readonly kind: 'string'; readonly value: string; readonly style: StringStyle; readonly tags?: readonly string[] }
  | { readonly kind: 'array'; readonly items: readonly JsonModel[] }
  | { readonly kind: 'object'; readonly members: readonly JsonMember[]; readonly tags?: readonly string[] };

export interface JsonMember {
  readonly key: string;
  readonly keyStyle: StringStyle;
  readonly value: JsonModel;
}

export const nullModel: JsonModel = { kind: 'literal', text: 'null' };

export function stringModel(value: string, style: StringStyle = 'plain', tags?: readonly string[]): JsonModel {
  return tags === undefined || tags.length === 0 ? { kind: 'string', value, style } : { kind: 'string', value, style, tags };
}

export function numberModel(text: string, tags?: readonly string[]): JsonModel {
  return tags === undefined || tags.length === 0 ? { kind: 'number', text } : { kind: 'number', text, tags };
}

/**
 * Every tag of a model and of the values inside it, each prefixed with the path of its value
 * (`name/string-edge:nul`, `id/integer-spelling:exponent`; a value's own tags have no prefix).
 * A string written in a style other than plain adds `string-style:<style>`, a key so written
 * `<key>/key-style:<style>`.
 */
export function tagsOf(model: JsonModel, path = ''): string[] {
  const out: string[] = [];
  const visit = (node: JsonModel, at: string): void => {
    for (const tag of 'tags' in node ? (node.tags ?? []) : []) out.push(at + tag);
    if (node.kind === 'string' && node.style !== 'plain') out.push(`${at}string-style:${node.style}`);
    if (node.kind === 'array') {
      node.items.forEach((item, i) => {
        visit(item, `${at}${i}/`);
      });
    }
    if (node.kind === 'object') {
      for (const member of node.members) {
        if (member.keyStyle !== 'plain') out.push(`${at}${member.key}/key-style:${member.keyStyle}`);
        visit(member.value, `${at}${member.key}/`);
      }
    }
  };
  visit(model, path);
  return out;
}

/** Whether `value` holds a UTF-16 surrogate that is not half of a pair: a lone surrogate, which JSON can carry only as an escape. */
export function hasLoneSurrogate(value: string): boolean {
  return /\p{Surrogate}/u.test(value);
}

/** Whether a string anywhere in a model (a key included) holds a lone surrogate. */
export function modelHasLoneSurrogate(model: JsonModel): boolean {
  switch (model.kind) {
    case 'string':
      return hasLoneSurrogate(model.value);
    case 'array':
      return model.items.some(modelHasLoneSurrogate);
    case 'object':
      return model.members.some((m) => hasLoneSurrogate(m.key) || modelHasLoneSurrogate(m.value));
    default:
      return false;
  }
}

/**
 * Whether a model holds, at any depth, a key that reaches JavaScript's prototype chain: a member
 * named `__proto__`, or a member named `constructor` whose value is an object with a `prototype`
 * member. These are what prototype-poisoning guards refuse (secure-json-parse in Fastify, bourne
 * in hapi, OWASP CRS rule 934130): a body carrying one may be refused (see PROTOTYPE_KEY_LENIENCY).
 */
export function modelHasPrototypeKey(model: JsonModel): boolean {
  switch (model.kind) {
    case 'array':
      return model.items.some(modelHasPrototypeKey);
    case 'object':
      return model.members.some(
        (m) => m.key === '__proto__' || (m.key === 'constructor' && m.value.kind === 'object' && m.value.members.some((inner) => inner.key === 'prototype')) || modelHasPrototypeKey(m.value),
      );
    default:
      return false;
  }
}

/** Ways to write an integer in JSON; all denote the same integer under JSON Schema 2020-12 (decision 7). */
export type IntegerSpelling = 'plain' | 'point-zero' | 'exponent' | 'upper-exponent-plus' | 'padded-exponent' | 'fraction-exponent' | 'negative-exponent' | 'negative-zero';
export const INTEGER_SPELLINGS: readonly IntegerSpelling[] = ['plain', 'point-zero', 'exponent', 'upper-exponent-plus', 'padded-exponent', 'fraction-exponent', 'negative-exponent', 'negative-zero'];

/**
 * `value` written in `spelling`: 100 → `100`, `100.0`, `1e2`, `1E+2`, `1e+02` (RFC 8259, section 6:
 * an exponent's digits may start with 0), `1.00e2`, `1000e-1`; `negative-zero` writes 0 as `-0`
 * (any other value plainly).
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
    case 'upper-exponent-plus':
    case 'padded-exponent': {
      const digits = magnitude === '0' ? '0' : magnitude.replace(/0+$/, '');
      const exponent = magnitude.length - digits.length;
      if (spelling === 'exponent') return `${sign}${digits}e${exponent}`;
      return spelling === 'upper-exponent-plus' ? `${sign}${digits}E+${exponent}` : `${sign}${digits}e+${String(exponent).padStart(2, '0')}`;
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

/** Whether the UTF-16 unit at `i` is a surrogate without its other half. */
function loneSurrogateAt(value: string, i: number): boolean {
  const unit = value.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = value.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    const previous = i > 0 ? value.charCodeAt(i - 1) : 0;
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
}

/**
 * A string as a JSON string literal in the given style. A lone surrogate is written as a `\uXXXX`
 * escape in every style: raw, it has no UTF-8 form (RFC 8259, section 8.2).
 */
export function writeString(value: string, style: StringStyle): string {
  // JSON.stringify writes exactly the plain style (ECMA-262 QuoteJSONString, lone surrogates escaped since ES2019).
  if (style === 'plain') return JSON.stringify(value);
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (style === 'escape-all' || loneSurrogateAt(value, i)) {
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

const NEWLINE: Readonly<Record<Layout, string>> = { compact: '', spaced: '', pretty: '\n', 'tabs-crlf': '\r\n', 'trailing-newline': '', surrounded: '\r\n' };
const INDENT: Readonly<Record<Layout, string>> = { compact: '', spaced: '', pretty: '  ', 'tabs-crlf': '\t', 'trailing-newline': '', surrounded: '\t' };

/** The JSON text of a model. */
export function writeJson(model: JsonModel, layout: Layout = 'compact'): string {
  const [before, after] = AROUND[layout] ?? ['', ''];
  return before + writeTokens(model, tokenLayout(layout)) + after;
}

function writeTokens(model: JsonModel, layout: Layout): string {
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

/**
 * The places RFC 8259, section 2 allows whitespace: around the value (`JSON-text = ws value ws`)
 * and on both sides of each of the six structural characters (`begin-object = ws %x7B ws`, ...),
 * which in a text are after `{`/`[`, before `}`/`]`, and on both sides of `:` and of `,`.
 */
export type WhitespacePlace = 'before-value' | 'after-value' | 'after-open' | 'before-close' | 'before-colon' | 'after-colon' | 'before-comma' | 'after-comma';
export const WHITESPACE_PLACES: readonly WhitespacePlace[] = ['before-value', 'after-value', 'after-open', 'before-close', 'before-colon', 'after-colon', 'before-comma', 'after-comma'];

/** The four whitespace characters of RFC 8259, section 2 (`ws = *( %x20 / %x09 / %x0A / %x0D )`), by name. */
export const JSON_WHITESPACE: readonly (readonly [string, string])[] = [
  ['space', ' '],
  ['tab', '\t'],
  ['line-feed', '\n'],
  ['carriage-return', '\r'],
];

/** The JSON text of a model with `spacing[place]` written at every such place (nothing where none is given). */
export function writeSpaced(model: JsonModel, spacing: Readonly<Partial<Record<WhitespacePlace, string>>>): string {
  const at = (place: WhitespacePlace): string => spacing[place] ?? '';
  const write = (node: JsonModel): string => {
    if (node.kind !== 'array' && node.kind !== 'object') return writeTokens(node, 'compact');
    const [open, close] = node.kind === 'array' ? ['[', ']'] : ['{', '}'];
    const parts = node.kind === 'array' ? node.items.map(write) : node.members.map((m) => `${writeString(m.key, m.keyStyle)}${at('before-colon')}:${at('after-colon')}${write(m.value)}`);
    return `${open}${at('after-open')}${parts.join(`${at('before-comma')},${at('after-comma')}`)}${at('before-close')}${close}`;
  };
  return at('before-value') + write(model) + at('after-value');
}
