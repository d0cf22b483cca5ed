/**
 * `malformed-json`: a body that is not JSON for any parser (RFC 8259), sent with valid credentials
 * and a declared media type. Every malformation is one entry of MALFORMATIONS: the random phase
 * picks among them uniformly, the coverage phase sends each once.
 *
 * Trailing data after the value (a second value) is sent as lenient: Go's json.Decoder and
 * Jackson's default accept it, so a 2xx warns. Left out on purpose: duplicate keys and a
 * byte-order mark (RFC 8259 lets parsers accept them), NaN
 * outside an integer field (Python's json module accepts it), deep nesting (a limit of the
 * implementation, not of JSON).
 */
import fc from 'fast-check';
import { UTF8_IN_STRING_LENIENCY } from '../../../oracle/index.js';
import { tagsOf, tokenLayout, writeJson, type JsonMember, type JsonModel, type Layout } from '../json-text.js';
import { variantTable, variantTag } from '../variants.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';
import { declaresJson } from '../tables/media-bodies.js';
import { placeOf, sharedEntries } from '../tables/shares.js';

/** One way to make a JSON text malformed. `at` (0..1) chooses a position where there is a choice. */
export interface Malformation {
  /** A stable name: `bad-number:0x10`, `invalid-escape:\x41`. */
  readonly name: string;
  /** Set when RFC 8259 lets a parser accept the text anyway: the reason (see RequestCase.lenient). */
  readonly lenient?: string;
  apply(model: JsonModel, layout: Layout, integerKeys: readonly string[], at: number): { bytes: Uint8Array; variant: string } | undefined;
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/**
 * The characters of a JSON text outside its strings, each with its index, and the quotes that open
 * and close each string (an odd count of them: the text ends inside one): what a reader of the
 * text's structure sees, an escaped quote inside a string aside.
 */
export function* structuralCharacters(text: string): Generator<readonly [number, string]> {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (inString && c === '\\') i++;
    else if (c === '"') {
      inString = !inString;
      yield [i, c];
    } else if (!inString) yield [i, c];
  }
}

/** Index of the first occurrence of `char` outside string literals, or -1. */
function structuralIndex(text: string, char: string): number {
  for (const [i, c] of structuralCharacters(text)) if (c === char) return i;
  return -1;
}

function onText(name: string, change: (text: string, at: number) => { text: string; variant: string } | undefined): Malformation {
  return {
    name,
    apply: (model, layout, _keys, at) => {
      const changed = change(writeJson(model, layout), at);
      return changed && { bytes: utf8(changed.text), variant: changed.variant };
    },
  };
}

/** Inserted right after the first quote of the text: inside the first string (a key). */
function inFirstString(name: string, insert: string, variant: string): Malformation {
  return onText(name, (text) => {
    const quote = text.indexOf('"');
    return quote < 0 ? undefined : { text: text.slice(0, quote + 1) + insert + text.slice(quote + 1), variant };
  });
}

/** Inserted right after the opening quote of the first member value that is a string. */
function inFirstValue(name: string, insert: string, variant: string): Malformation {
  return onText(name, (text) => {
    const quote = firstStringValue(text);
    return quote < 0 ? undefined : { text: text.slice(0, quote + 1) + insert + text.slice(quote + 1), variant };
  });
}

/** Index of the opening quote of the first member value that is a string, or -1. */
function firstStringValue(text: string): number {
  for (const [i, c] of structuralCharacters(text)) {
    if (c !== ':') continue;
    const next = text.slice(i + 1).search(/\S/);
    if (next >= 0 && text[i + 1 + next] === '"') return i + 1 + next;
  }
  return -1;
}

/**
 * Number spellings JSON does not allow (RFC 8259, section 6); each replaces an integer property's
 * value: NaN and the infinities, leading zeros and a plus sign, hexadecimal and binary, a bare
 * point or exponent, digit separators, a decimal comma, a full-width digit, a number cut in two.
 */
export const BAD_NUMBERS: readonly string[] = ['NaN', 'Infinity', '-Infinity', 'nan', '01', '-01', '00', '+1', '+0', '0x10', '-0x1', '0b11', '.5', '1.', '1e', '1e+', '1e1.5', '1.2.3', '--1', '-', '1_000', '1,5', '- 1', '1 2', '\uff11'];
/** Escapes JSON does not have (RFC 8259, section 7): other languages' escapes, \u with too few or no hex digits. */
export const BAD_ESCAPES: readonly string[] = ['\\x41', "\\'", '\\u12G4', '\\u{41}', '\\a', '\\v', '\\U0041', '\\0', '\\%', '\\ ', '\\\n'];
/** Control characters that must be escaped inside a string (RFC 8259, section 7). */
const RAW_CONTROLS: readonly string[] = ['\u0000', '\u0001', '\u0008', '\t', '\n', '\u000b', '\r', '\u001b', '\u001f'];
/** Characters that are whitespace elsewhere but not between JSON tokens (RFC 8259, section 2: only space, tab, LF and CR). */
const OTHER_WHITESPACE: readonly string[] = ['\u000b', '\u000c', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u0000'];
/** Values that are literals in other languages, and strings without double quotes; each replaces the first member's value. */
const BAD_VALUES: readonly string[] = ['', 'None', 'True', 'undefined', 'nil', "'Monstera'", 'Monstera'];
/**
 * Byte sequences that are not UTF-8 (RFC 3629): lone continuation and invalid lead bytes, overlong
 * encodings (of `/` and of NUL, as modified UTF-8 writes it), encoded surrogates (CESU-8), sequences
 * cut short or interrupted, a code point above U+10FFFF, a five-byte sequence.
 */
export const INVALID_UTF8: readonly (readonly [string, readonly number[]])[] = [
  ['the byte 0xFF', [0xff]],
  ['the byte 0xFE', [0xfe]],
  ['the byte 0xC1', [0xc1]],
  ['a lone continuation byte 0x80', [0x80]],
  ['the overlong encoding C0 AF of /', [0xc0, 0xaf]],
  ['the overlong encoding C0 80 of NUL (modified UTF-8)', [0xc0, 0x80]],
  ['the overlong three-byte encoding E0 80 AF of /', [0xe0, 0x80, 0xaf]],
  ['an encoded surrogate ED A0 80', [0xed, 0xa0, 0x80]],
  ['an encoded surrogate pair ED A0 BD ED B2 9A (CESU-8)', [0xed, 0xa0, 0xbd, 0xed, 0xb2, 0x9a]],
  ['a two-byte lead followed by ASCII C3 28', [0xc3, 0x28]],
  ['a three-byte sequence cut short E2 82', [0xe2, 0x82]],
  ['a four-byte sequence cut short F0 9F 8C', [0xf0, 0x9f, 0x8c]],
  ['a code point above U+10FFFF F4 90 80 80', [0xf4, 0x90, 0x80, 0x80]],
  ['a five-byte sequence F8 88 80 80 80', [0xf8, 0x88, 0x80, 0x80, 0x80]],
];

/** Why a 2xx to a text of two values only warns. */
export const TWO_VALUES_LENIENCY = 'RFC 8259, section 2 makes a JSON text one value, but Jackson (FAIL_ON_TRAILING_TOKENS is off by default, so Spring) and Go\'s json.Decoder read the first value and ignore what follows; the first value is still the body the client sent';

const hex = (s: string): string => `U+${(s.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

export const MALFORMATIONS: readonly Malformation[] = [
  onText('truncated', (text, at) => {
    const cut = Math.max(1, Math.min(text.length - 1, Math.floor(at * text.length)));
    return { text: text.slice(0, cut), variant: `JSON cut off after ${cut} of ${text.length} characters` };
  }),
  { name: 'empty', apply: () => ({ bytes: new Uint8Array(), variant: 'an empty body' }) },
  { name: 'whitespace-only', apply: () => ({ bytes: utf8(' \r\n\t '), variant: 'a body of whitespace only' }) },
  onText('trailing-comma', (text) => {
    const close = text.lastIndexOf('}');
    return close < 0 ? undefined : { text: `${text.slice(0, close)},${text.slice(close)}`, variant: 'a trailing comma before }' };
  }),
  onText('comment', (text) => ({ text: `${text.slice(0, 1)}/* a plant */${text.slice(1)}`, variant: 'a /* comment */' })),
  onText('line-comment', (text) => ({ text: `// a plant\n${text}`, variant: 'a // comment' })),
  ...(['single-quoted-key', 'unquoted-key'] as const).map((how) =>
    onText(how, (text) => {
      const first = text.indexOf('"');
      const colon = structuralIndex(text, ':');
      if (first < 0 || colon < 0) return undefined;
      const end = text.lastIndexOf('"', colon);
      const key = text.slice(first + 1, end);
      const written = how === 'single-quoted-key' ? `'${key}'` : key || 'key';
      return { text: text.slice(0, first) + written + text.slice(end + 1), variant: how === 'single-quoted-key' ? 'a key in single quotes' : 'a key without quotes' };
    }),
  ),
  onText('truncated-after-open', (text) => ({ text: text.slice(0, 1), variant: 'JSON cut off after its first character' })),
  onText('truncated-before-close', (text) => ({ text: text.slice(0, -1), variant: 'JSON without its last character (an object never closed)' })),
  onText('leading-comma', (text) => ({ text: `${text.slice(0, 1)},${text.slice(1)}`, variant: 'a comma before the first member' })),
  onText('double-comma', (text) => {
    const comma = structuralIndex(text, ',');
    return comma < 0 ? undefined : { text: `${text.slice(0, comma)},${text.slice(comma)}`, variant: 'two commas between members' };
  }),
  onText('missing-colon', (text) => {
    const colon = structuralIndex(text, ':');
    return colon < 0 ? undefined : { text: `${text.slice(0, colon)}=${text.slice(colon + 1)}`, variant: '= instead of : between a key and its value' };
  }),
  onText('missing-comma', (text) => {
    const comma = structuralIndex(text, ',');
    return comma < 0 ? undefined : { text: `${text.slice(0, comma)} ${text.slice(comma + 1)}`, variant: 'no comma between two members' };
  }),
  onText('unclosed-string', (text) => {
    const close = text.lastIndexOf('"');
    return close < 0 ? undefined : { text: text.slice(0, close) + text.slice(close + 1), variant: 'a string that is never closed' };
  }),
  ...RAW_CONTROLS.map((control) => inFirstString(`raw-control:${hex(control)}`, control, `an unescaped control character ${hex(control)} in a string`)),
  // In a value too: a lenient parser (json.loads(strict=False), Jackson's ALLOW_UNQUOTED_CONTROL_CHARS) then reads a valid body, where in a key it reads a missing property.
  ...RAW_CONTROLS.map((control) => inFirstValue(`raw-control-in-value:${hex(control)}`, control, `an unescaped control character ${hex(control)} in a string value`)),
  ...OTHER_WHITESPACE.map((space) => onText(`not-whitespace:${hex(space)}`, (text) => ({ text: `${text.slice(0, 1)}${space}${text.slice(1)}`, variant: `${hex(space)} between tokens (not JSON whitespace)` }))),
  // Around the value too (JSON-text = ws value ws): what String.prototype.trim or str.strip() would remove. A leading BOM is not here: section 8.1 lets a parser ignore it.
  ...OTHER_WHITESPACE.filter((space) => space !== '\ufeff').map((space) => onText(`not-whitespace-before:${hex(space)}`, (text) => ({ text: `${space}${text}`, variant: `${hex(space)} before the value (not JSON whitespace)` }))),
  ...OTHER_WHITESPACE.map((space) => onText(`not-whitespace-after:${hex(space)}`, (text) => ({ text: `${text}${space}`, variant: `${hex(space)} after the value (not JSON whitespace)` }))),
  // One value per text (section 2: JSON-text = ws value ws). Jackson (FAIL_ON_TRAILING_TOKENS off by default) and Go's json.Decoder read the first value and leave the rest: a 2xx only warns.
  { ...onText('two-values', (text) => ({ text: `${text}${text}`, variant: 'the object twice, two JSON values in one text' })), lenient: TWO_VALUES_LENIENCY },
  { ...onText('value-after-value', (text) => ({ text: `${text} 1`, variant: 'the object, then the number 1: two JSON values in one text' })), lenient: TWO_VALUES_LENIENCY },
  ...BAD_VALUES.map(
    (bad): Malformation => ({
      name: `bad-value:${bad === '' ? 'nothing' : bad}`,
      apply: (model, layout) => {
        const [first] = model.kind === 'object' ? model.members : [];
        if (first === undefined || model.kind !== 'object') return undefined;
        const members = model.members.map((m): JsonMember => (m === first ? { ...m, value: { kind: 'number', text: bad } } : m));
        return { bytes: utf8(writeJson({ kind: 'object', members }, layout)), variant: `${first.key} written as ${bad === '' ? 'nothing' : bad} (not a JSON value)` };
      },
    }),
  ),
  ...BAD_ESCAPES.map((escape) => inFirstString(`invalid-escape:${escape}`, escape, `the invalid escape ${escape} in a string`)),
  ...BAD_ESCAPES.map((escape) => inFirstValue(`invalid-escape-in-value:${escape}`, escape, `the invalid escape ${escape} in a string value`)),
  ...INVALID_UTF8.map(
    ([description, bytes]): Malformation => ({
      name: `invalid-utf8:${bytes.map((b) => b.toString(16).toUpperCase()).join(' ')}`,
      // Between tokens, not inside a string: however a server decodes the bytes, the text is not JSON there.
      apply: (model, layout) => {
        const text = utf8(writeJson(model, layout));
        return { bytes: Buffer.concat([text.subarray(0, 1), Buffer.from(bytes), text.subarray(1)]), variant: `${description} (not UTF-8) after the first character` };
      },
    }),
  ),
  ...INVALID_UTF8.map(
    ([description, bytes]): Malformation => ({
      name: `invalid-utf8-in-string:${bytes.map((b) => b.toString(16).toUpperCase()).join(' ')}`,
      lenient: UTF8_IN_STRING_LENIENCY,
      apply: (model, layout) => {
        const text = writeJson(model, layout);
        // Inside a string value, not a key: decoded leniently, the body is still the same NewPlant.
        const quote = firstStringValue(text);
        if (quote < 0) return undefined;
        return { bytes: Buffer.concat([utf8(text.slice(0, quote + 1)), Buffer.from(bytes), utf8(text.slice(quote + 1))]), variant: `${description} (not UTF-8) inside a string value` };
      },
    }),
  ),
  ...BAD_NUMBERS.map(
    (bad): Malformation => ({
      name: `bad-number:${bad}`,
      apply: (model, layout, integerKeys) => {
        const key = integerKeys.find((k) => model.kind === 'object' && model.members.some((m) => m.key === k));
        if (key === undefined || model.kind !== 'object') return undefined;
        const members = model.members.map((m): JsonMember => (m.key === key ? { ...m, value: { kind: 'number', text: bad } } : m));
        return { bytes: utf8(writeJson({ kind: 'object', members }, layout)), variant: `${key} written as ${bad} (not a JSON number)` };
      },
    }),
  ),
];

export const malformedJson = requestKind({
  name: 'malformed-json',
  description: 'bodies that are not JSON: cut off, stray or missing commas and colons, comments, single quotes, unclosed strings, raw control characters, other whitespace, invalid escapes, byte sequences that are not UTF-8, numbers and literals JSON does not allow',
  weight: 8,
  random: (context) => {
    const usable = usableMalformations(context);
    return fc
      .record({ model: context.body, layout: context.layout.map(tokenLayout), mediaType: context.mediaType, auth: context.goodAuth, how: fc.constantFrom(...usable), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
      .map(({ model, layout, mediaType, auth, how, at }) => {
        // A generated body may lack what a malformation needs (no string, no integer): then it is cut off instead.
        const applied = how.apply(model, layout, context.integerKeys, at);
        const made = applied ?? (MALFORMATIONS[0] as Malformation).apply(model, layout, context.integerKeys, at);
        const { bytes, variant } = made ?? { bytes: new Uint8Array(), variant: 'an empty body' };
        const lenient = applied === undefined ? undefined : how.lenient;
        const tags = [variantTag('malformation', applied === undefined ? 'truncated' : how.name), ...tagsOf(model)];
        return context.make({ kind: 'malformed-json', variant, content: 'invalid', auth, contentType: mediaType, body: bytes, tags, ...(lenient === undefined ? {} : { lenient }) });
      });
  },
  coverage: (context) =>
    coveredMalformations(context).flatMap(({ how, n }) => {
      const made = how.apply(context.plainBody(n), 'compact', context.integerKeys, 0.5);
      if (!made) return [];
      return [
        context.make({ kind: 'malformed-json', variant: made.variant, content: 'invalid', auth: context.validAuth, contentType: context.jsonTypes[0], body: made.bytes, tags: [variantTag('malformation', how.name)], ...(how.lenient === undefined ? {} : { lenient: how.lenient }) }),
      ];
    }),
  variants: (context) => variantTable('malformation', usableMalformations(context).map((m) => m.name)),
});

/**
 * Whether the operation's request body may be absent (OpenAPI 3.1, section 4.8.13.1: `required`
 * defaults to false): no bytes are then no malformation, whatever the Content-Type says.
 */
function mayBeAbsent(context: KindContext): boolean {
  return context.operation.requestBody?.required !== true;
}

/**
 * The malformations of JSON a run's coverage sends over all of its JSON bodies, shared out
 * (tables/shares.ts): far above what a contract of a few operations needs (the kit's openapi.yaml
 * sends every malformation); a contract of 68 JSON bodies sent 102 each, 6,976 in all. Each body
 * keeps one of every family (`truncated`, `raw-control`, `invalid-utf8`...): `rejects-invalid`
 * sees each on every operation.
 */
export const MALFORMATIONS_PER_RUN = 1_000;

/** The coverage's malformations for the operation (its share of them), each with its place in MALFORMATIONS: the number of its plain body. */
function coveredMalformations(context: KindContext): { how: Malformation; n: number }[] {
  const all = MALFORMATIONS.map((how, n) => ({ how, n })).filter(({ how }) => !(how.name === 'empty' && mayBeAbsent(context)));
  const place = placeOf(context.contract, context.operation, 'json-body', declaresJson);
  return [...sharedEntries(all, ({ how }) => how.name.split(':')[0] ?? how.name, place, MALFORMATIONS_PER_RUN)];
}

/** The malformations a valid body of the operation gives a place to (a bad number needs an integer property). */
function usableMalformations(context: KindContext): Malformation[] {
  return MALFORMATIONS.filter((m) => !(m.name === 'empty' && mayBeAbsent(context)) && m.apply(context.plainBody(0), 'compact', context.integerKeys, 0.5) !== undefined);
}

export type { KindContext };
