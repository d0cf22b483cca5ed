/**
 * fast-check arbitraries derived by walking the contract's JSON Schemas: a valid value for any
 * schema (types, formats, bounds, enum/const, objects through their resolved shape, arrays,
 * anyOf/oneOf), and the ways a value can be invalid for it. Nothing here knows NewPlant's fields:
 * change openapi.yaml and what is generated changes with it.
 *
 * Edges come often, not once in a million: each value is drawn from a weighted mix of hand-picked
 * edges (int64 bounds, the 2^53 cliff, empty and whitespace-only strings, astral characters...)
 * and fast-check's own, already biased, generators. Each table of edges is named entry by entry,
 * picked uniformly, and what is drawn from it is tagged (variants.ts): a sample shows that every
 * entry is reached. The coverage phase sends every entry once (schema-probes.ts).
 */
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN, type Contract, type ObjectShape, type Schema } from '../../src/openapi/index.js';
import { codePointsOf } from '../judging/support.js';
import { INTEGER_SPELLINGS, STRING_STYLES, nullModel, numberModel, spellInteger, stringModel, type IntegerSpelling, type JsonMember, type JsonModel, type StringStyle } from './json-text.js';
import { table, tablesAt, variantTag, type VariantTable } from './variants.js';

/** A JSON value that breaks a schema, and what is wrong with it (`is null`, `is 2^63 (above int64)`). */
export interface InvalidValue {
  readonly model: JsonModel;
  readonly description: string;
  /** The table entries it was drawn from (`invalid-type:null`, `integer-spelling:exponent`). */
  readonly tags: readonly string[];
}

/** The types of JSON Schema's `type` keyword. */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;
/** 2^53: above it, a double no longer holds every integer (IEEE 754 binary64 has a 53-bit significand). */
export const CLIFF = 2n ** 53n;
/** Where plain integers start: clear of 0, 1 and the other small ids a target may already hold. */
const PLAIN_INTEGER_BASE = 1_000_000n;

/** Integer bounds a format implies (OpenAPI 3.1 Format Registry: int32, int64). */
export const FORMAT_BOUNDS: Readonly<Record<string, readonly [bigint, bigint]>> = { int32: [INT32_MIN, INT32_MAX], int64: [INT64_MIN, INT64_MAX] };

/** Integers people recognise by name: the bounds of the integer widths and the double's 2^53 cliff. */
export const NAMED_INTEGERS: readonly (readonly [bigint, string])[] = [
  [INT64_MAX, '2^63-1'],
  [INT64_MIN, '-2^63'],
  [INT64_MAX + 1n, '2^63'],
  [INT64_MIN - 1n, '-2^63-1'],
  [2n ** 64n - 1n, '2^64-1'],
  [2n ** 64n, '2^64'],
  [CLIFF - 1n, '2^53-1'],
  [CLIFF, '2^53'],
  [CLIFF + 1n, '2^53+1'],
  [1n - CLIFF, '-(2^53-1)'],
  [-CLIFF, '-2^53'],
  [-CLIFF - 1n, '-(2^53+1)'],
  [INT32_MAX, '2^31-1'],
  [INT32_MAX + 1n, '2^31'],
  [INT32_MIN, '-2^31'],
  [INT32_MIN - 1n, '-2^31-1'],
  [2n ** 32n, '2^32'],
  [10n ** 19n, '10^19'],
];

/** Names for the integers people recognise, so a finding says `2^63` and not only its digits. */
export function describeInteger(value: bigint): string {
  return NAMED_INTEGERS.find(([n]) => n === value)?.[1] ?? value.toString();
}

/**
 * Any Unicode scalar value (U+0000..U+10FFFF without the surrogates, which cannot stand alone in
 * UTF-8), small ones more often; astral characters half the time. fast-check's `binary` unit
 * does the same but takes half a second to build.
 */
const anyCharacter: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((n) => String.fromCodePoint(n)),
);

/** JSON values of every type, small, for extra properties and wrong-type replacements. */
export function anyJsonModel(depth = 2): fc.Arbitrary<JsonModel> {
  const leaf: fc.Arbitrary<JsonModel> = fc.oneof(
    fc.constantFrom<JsonModel>(nullModel, { kind: 'literal', text: 'true' }, { kind: 'literal', text: 'false' }),
    fc.integer().map((n) => numberModel(String(n))),
    // Finite doubles only: 1e400 or NaN is not a number every JSON parser can hold.
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => numberModel(JSON.stringify(n))),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => numberModel(n.toString())),
    fc.string({ maxLength: 12 }).map((s) => stringModel(s)),
    fc.string({ unit: anyCharacter, maxLength: 6 }).map((s) => stringModel(s, 'ascii')),
  );
  if (depth <= 0) return leaf;
  const inner = anyJsonModel(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 3 }).map((items): JsonModel => ({ kind: 'array', items })) },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(fc.record({ key: extraKey(), value: inner }), { maxLength: 3, selector: (m) => m.key })
        .map((members): JsonModel => ({ kind: 'object', members: members.map((m) => ({ ...m, keyStyle: 'plain' })) })),
    },
  );
}

/**
 * Keys that have broken real servers: prototype pollution (`__proto__`, `constructor`), NoSQL
 * operators, path syntax, the empty key, NUL.
 */
export const HOSTILE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isAdmin', '$where', '$set', '', ' ', '\u0000', 'a.b', 'a[0]', '🌱'];

/** A hostile key as a table entry: its JSON spelling, so that the empty key and NUL have a printable name. */
export function hostileKeyName(key: string): string {
  return JSON.stringify(key);
}

function extraKey(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) }, { weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.string({ unit: anyCharacter, maxLength: 6 }) });
}

const polluted: JsonModel = { kind: 'object', members: [{ key: 'polluted', keyStyle: 'plain', value: { kind: 'literal', text: 'true' } }] };

/** Prototype-pollution payloads as whole members: `"__proto__": {"polluted": true}` and the constructor route. */
export const POLLUTION_MEMBERS: readonly (readonly [string, JsonMember])[] = [
  ['proto', { key: '__proto__', keyStyle: 'plain', value: polluted }],
  ['constructor-prototype', { key: 'constructor', keyStyle: 'plain', value: { kind: 'object', members: [{ key: 'prototype', keyStyle: 'plain', value: polluted }] } }],
];

/** One edge string, named: the name is its variant (`string-edge:nul`). */
export interface EdgeString {
  readonly name: string;
  readonly value: string;
  /** What family of defects it probes, for the docs. */
  readonly family: 'whitespace' | 'unicode' | 'control' | 'syntax' | 'injection' | 'bidi' | 'surrogate' | 'redos';
}

/** A run of one character class ended by one of another: what makes a backtracking regular expression take seconds. */
const REDOS_RUN = 64;

/**
 * Strings that have broken real servers: empty and whitespace-only, astral characters and ZWJ
 * sequences (UTF-16 surrogate pairs), combining marks (NFC vs NFD), NUL and other controls, quotes
 * and backslashes, U+2028/U+2029 (valid JSON, invalid in old JavaScript), a BOM inside text, bidi
 * marks and overrides, lone surrogates (written as escapes), SQL and markup, strings that look like
 * other JSON values, and generic ReDoS probes (a long run of one class, then one of another: `(a+)+$`
 * and `\s+$` backtrack on them). The empty string comes first: values shrink towards it.
 */
export const EDGE_STRINGS: readonly EdgeString[] = [
  { name: 'empty', value: '', family: 'whitespace' },
  { name: 'space', value: ' ', family: 'whitespace' },
  { name: 'spaces', value: '   ', family: 'whitespace' },
  { name: 'tab', value: '\t', family: 'whitespace' },
  { name: 'mixed-whitespace', value: ' \t\r\n ', family: 'whitespace' },
  { name: 'no-break-space', value: '\u00a0', family: 'whitespace' },
  { name: 'ideographic-space', value: '\u3000', family: 'whitespace' },
  { name: 'astral', value: '🌱', family: 'unicode' },
  { name: 'astral-in-text', value: '𝕄onstera 🌿', family: 'unicode' },
  { name: 'last-code-point', value: '\u{10FFFF}', family: 'unicode' },
  { name: 'zwj-sequence', value: '👩\u200d🌾', family: 'unicode' },
  { name: 'flag-sequence', value: '🏳️‍🌈', family: 'unicode' },
  { name: 'combining-mark', value: 'e\u0301', family: 'unicode' },
  { name: 'precomposed', value: 'é', family: 'unicode' },
  { name: 'ligature', value: 'ﬁcus', family: 'unicode' },
  { name: 'dotted-capital-i', value: 'İstanbul', family: 'unicode' },
  { name: 'sharp-s', value: 'Straße', family: 'unicode' },
  { name: 'cjk', value: '日本語の植物', family: 'unicode' },
  { name: 'zero-width-space', value: 'Mon\u200bstera', family: 'unicode' },
  { name: 'noncharacter', value: '\uffff', family: 'unicode' },
  { name: 'replacement-character', value: '\ufffd', family: 'unicode' },
  { name: 'bom', value: '\ufeff', family: 'unicode' },
  { name: 'bom-inside', value: 'Mon\ufeffstera', family: 'unicode' },
  { name: 'line-separators', value: '\u2028\u2029', family: 'unicode' },
  { name: 'line-separator-inside', value: 'Mon\u2028stera', family: 'unicode' },
  { name: 'nul', value: '\u0000', family: 'control' },
  { name: 'nul-inside', value: 'a\u0000b', family: 'control' },
  { name: 'controls', value: '\u001f\u007f', family: 'control' },
  { name: 'bell-backspace', value: '\u0007\b', family: 'control' },
  { name: 'c1-control', value: 'Mon\u0085stera', family: 'control' },
  { name: 'ansi-escape', value: '\u001b[31mMonstera\u001b[0m', family: 'control' },
  { name: 'crlf-inside', value: 'Mon\r\nstera', family: 'control' },
  { name: 'quote', value: '"', family: 'syntax' },
  { name: 'backslash', value: '\\', family: 'syntax' },
  { name: 'quotes-and-backslash', value: '\\"\'', family: 'syntax' },
  { name: 'solidus', value: '/', family: 'syntax' },
  { name: 'json-text', value: '{"name":"x"}', family: 'syntax' },
  { name: 'null-word', value: 'null', family: 'syntax' },
  { name: 'zero-digit', value: '0', family: 'syntax' },
  { name: 'true-word', value: 'true', family: 'syntax' },
  { name: 'markup', value: '</script><script>alert(1)</script>', family: 'injection' },
  { name: 'sql', value: "'; DROP TABLE plants; --", family: 'injection' },
  { name: 'format-string', value: '%s%n%d', family: 'injection' },
  { name: 'arabic', value: 'مونستيرا', family: 'bidi' },
  { name: 'right-to-left-override', value: '\u202eerutsiom', family: 'bidi' },
  { name: 'right-to-left-mark', value: 'Mon\u200fstera', family: 'bidi' },
  { name: 'bidi-isolate', value: '\u2067Monstera\u2069', family: 'bidi' },
  { name: 'lone-high-surrogate', value: '\ud800', family: 'surrogate' },
  { name: 'lone-low-surrogate', value: '\udc00', family: 'surrogate' },
  { name: 'reversed-surrogate-pair', value: '\udc00\ud800', family: 'surrogate' },
  { name: 'lone-surrogate-inside', value: 'Mon\udbffstera', family: 'surrogate' },
  { name: 'letters-then-symbol', value: `${'a'.repeat(REDOS_RUN)}!`, family: 'redos' },
  { name: 'spaces-then-letter', value: `${' '.repeat(REDOS_RUN)}a`, family: 'redos' },
  { name: 'digits-then-letter', value: `${'1'.repeat(REDOS_RUN)}a`, family: 'redos' },
  { name: 'words-then-symbol', value: `${'a.'.repeat(REDOS_RUN / 2)}!`, family: 'redos' },
  { name: 'spaced-letters-then-symbol', value: `${'a '.repeat(REDOS_RUN / 2)}!`, family: 'redos' },
];

/** Every string style but plain, each as likely: one string in seven is written in one of them. */
const styleArbitrary: fc.Arbitrary<StringStyle> = fc.oneof({ withCrossShrink: true }, { weight: 6, arbitrary: fc.constant<StringStyle>('plain') }, { weight: 1, arbitrary: fc.constantFrom(...STRING_STYLES.slice(1)) });

/** Long strings (10k+ code points) are built by repeating a short piece: cheap to make, quick to shrink. */
function longString(minLength: number): fc.Arbitrary<string> {
  return fc.tuple(fc.string({ unit: anyCharacter, minLength: 1, maxLength: 6 }), fc.integer({ min: minLength, max: minLength + 500 })).map(([piece, length]) => piece.repeat(Math.ceil(length / codePointsOf(piece).length)));
}

/** At least this many code points counts as long; an edge of its own (storage columns, log lines, buffers). */
export const LONG_STRING = 10_000;

/**
 * Strings that make a backtracking regular expression take exponential or polynomial time
 * (ReDoS, CWE-1333): a run of one character class that nested or adjacent quantifiers can split in
 * many ways - word characters, digits, blanks, words with separators - ended by one character
 * that makes the match fail. Each pair is a run's unit and the character that ends it.
 */
export const BACKTRACKING_RUNS: readonly (readonly [unit: string, end: string])[] = [
  ['a', '!'],
  ['0', 'x'],
  [' ', 'x'],
  ['\t', 'x'],
  ['a ', '!'],
  ['a.', '!'],
  ['a-', '!'],
];
/**
 * Units in a short run, for exponential patterns such as /^(\w+\s?)*$/: 2^16 steps take
 * milliseconds, 2^30 take seconds; longer runs would hang a vulnerable target for hours and show
 * nothing more. Drawn evenly (not biased to the ends), since the slow window is the upper few.
 */
export const BACKTRACKING_SHORT = { min: 16, max: 30 } as const;
/** Units in a long run, for polynomial patterns such as /\s+$/ (quadratic: 10^8 steps at 10,000, 4·10^8 at 20,000). */
export const BACKTRACKING_LONG = { min: 10_000, max: 20_000 } as const;

/**
 * A backtracking-prone string of at most `maxLength` code points, or undefined when none fits.
 * Shrinking shortens the run, a long one into a short one too: a finding about time ends at the
 * shortest run that is still slow.
 */
export function backtrackingString(maxLength = Number.POSITIVE_INFINITY): fc.Arbitrary<string> | undefined {
  // Units, at most: 2-character units make runs twice as long in characters.
  const most = Math.floor((maxLength - 1) / 2);
  if (most < BACKTRACKING_SHORT.min) return undefined;
  const short = fc.noBias(fc.integer({ min: BACKTRACKING_SHORT.min, max: Math.min(BACKTRACKING_SHORT.max, most) }));
  const long = most >= BACKTRACKING_LONG.min ? fc.integer({ min: BACKTRACKING_LONG.min, max: Math.min(BACKTRACKING_LONG.max, most) }) : undefined;
  // The first choice spans both, seldom drawn: with cross-shrinking it lets any run shrink to any shorter length.
  // Short runs three times as often as long ones, and word characters (the most common victims:
  // names, e-mail addresses) half of the time.
  const count = fc.oneof(
    { withCrossShrink: true },
    { weight: 1, arbitrary: fc.integer({ min: BACKTRACKING_SHORT.min, max: Math.min(BACKTRACKING_LONG.max, most) }) },
    { weight: 6, arbitrary: short },
    ...(long === undefined ? [] : [{ weight: 2, arbitrary: long }]),
  );
  const [first, ...others] = BACKTRACKING_RUNS;
  if (first === undefined) return undefined;
  const pair = fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: fc.constant(first) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
  return fc.tuple(pair, count).map(([[unit, end], n]) => unit.repeat(n) + end);
}

/** The length limits of a string schema, in code points (JSON Schema 2020-12 counts characters, not UTF-16 units). */
export function lengthBounds(schema: Schema): { min: number; max: number | undefined } {
  return { min: typeof schema.minLength === 'number' ? schema.minLength : 0, max: typeof schema.maxLength === 'number' ? schema.maxLength : undefined };
}

/** The edge strings a string schema allows by length (its pattern, if any, is left to the validator). */
export function fittingEdges(schema: Schema): EdgeString[] {
  const { min, max } = lengthBounds(schema);
  return EDGE_STRINGS.filter((edge) => {
    const n = codePointsOf(edge.value).length;
    return n >= min && (max === undefined || n <= max);
  });
}

function stringArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const { min, max } = lengthBounds(schema);
  const fits = (s: string): boolean => {
    if (min === 0 && max === undefined) return true;
    const n = codePointsOf(s).length;
    return n >= min && (max === undefined || n <= max);
  };
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits).map((s) => stringModel(s));
  }
  const untagged = (s: string): { value: string; tags: readonly string[] } => ({ value: s, tags: [] });
  const edges = fittingEdges(schema);
  const short = fc.oneof(
    { withCrossShrink: true },
    ...(edges.length === 0 ? [] : [{ weight: 3, arbitrary: fc.constantFrom(...edges).map((edge) => ({ value: edge.value, tags: [variantTag('string-edge', edge.name)] })) }]),
    { weight: 3, arbitrary: fc.string({ maxLength: 24 }).map(untagged) },
    { weight: 2, arbitrary: fc.string({ unit: anyCharacter, maxLength: 24 }).map(untagged) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(untagged) },
  );
  const choices: fc.WeightedArbitrary<JsonModel>[] = [{ weight: 29, arbitrary: fc.tuple(short.filter((s) => fits(s.value)), styleArbitrary).map(([s, style]) => stringModel(s.value, style, s.tags)) }];
  // Long strings go out as raw UTF-8: at most 4 bytes a character keeps a body under 100 kB, a
  // size limit common among frameworks (Express's default) that the contract does not forbid.
  if (max === undefined || max >= LONG_STRING) choices.push({ weight: 1, arbitrary: longString(Math.max(LONG_STRING, min)).filter(fits).map((s) => stringModel(s)) });
  // A few in every run, so that a target whose time blows up on them is found and the run shrunk (judging/checks/response-time.ts).
  const backtracking = min <= BACKTRACKING_SHORT.min ? backtrackingString(max) : undefined;
  if (backtracking) choices.push({ weight: 2, arbitrary: backtracking.filter(fits).map((s) => stringModel(s)) });
  return fc.oneof({ withCrossShrink: true }, ...choices);
}

/** The integer range a schema allows: its format's bounds narrowed by minimum/maximum. */
export function integerBounds(schema: Schema): { min: bigint; max: bigint; bounded: boolean } {
  const format = typeof schema.format === 'string' ? FORMAT_BOUNDS[schema.format] : undefined;
  let min = format?.[0] ?? INT64_MIN;
  let max = format?.[1] ?? INT64_MAX;
  let bounded = format !== undefined;
  const whole = (n: unknown, round: (x: number) => number): bigint | undefined => (typeof n === 'number' && Number.isFinite(n) ? BigInt(round(n)) : undefined);
  const exclusiveMin = whole(schema.exclusiveMinimum, Math.floor);
  const exclusiveMax = whole(schema.exclusiveMaximum, Math.ceil);
  for (const lower of [whole(schema.minimum, Math.ceil), exclusiveMin === undefined ? undefined : exclusiveMin + 1n]) {
    if (lower !== undefined && lower > min) [min, bounded] = [lower, true];
  }
  for (const upper of [whole(schema.maximum, Math.floor), exclusiveMax === undefined ? undefined : exclusiveMax - 1n]) {
    if (upper !== undefined && upper < max) [max, bounded] = [upper, true];
  }
  return { min, max, bounded };
}

/** Plain most of the time; otherwise each other spelling as likely (`integer-spelling:<spelling>`). */
const spellingArbitrary: fc.Arbitrary<IntegerSpelling> = fc.oneof({ withCrossShrink: true }, { weight: 5, arbitrary: fc.constant<IntegerSpelling>('plain') }, { weight: 2, arbitrary: fc.constantFrom(...INTEGER_SPELLINGS.slice(1)) });

/** `value` spelled, tagged with its spelling unless plain. */
function spelled(value: bigint, spelling: IntegerSpelling): { text: string; tags: string[] } {
  return { text: spellInteger(value, spelling), tags: spelling === 'plain' ? [] : [variantTag('integer-spelling', spelling)] };
}

/** An edge of an integer range, named: `max`, `2^53+1`. */
export interface IntegerEdge {
  readonly name: string;
  readonly value: bigint;
}

/**
 * The edges of every integer width and of the double's 2^53 cliff that lie in [min, max], each
 * value once (under the first name it has): the bounds and their neighbours, 0 and ±1, the int32
 * and 2^32 bounds, the integers on either side of 2^53, 10^18.
 */
export function integerEdges(min: bigint, max: bigint): IntegerEdge[] {
  const candidates: [string, bigint][] = [
    ['zero', 0n],
    ['one', 1n],
    ['minus-one', -1n],
    ['min', min],
    ['min+1', min + 1n],
    ['max', max],
    ['max-1', max - 1n],
    ...([INT32_MAX, INT32_MAX + 1n, INT32_MIN, INT32_MIN - 1n, 2n ** 32n, CLIFF - 1n, CLIFF, CLIFF + 1n, 1n - CLIFF, -CLIFF, -CLIFF - 1n].map((n): [string, bigint] => [describeInteger(n), n])),
    ['2^53+2', CLIFF + 2n],
    ['10^18', 10n ** 18n],
    ['-10^18', -(10n ** 18n)],
    ['19-digits', 1234567890123456789n],
  ];
  const seen = new Set<bigint>();
  return candidates.flatMap(([name, value]) => {
    if (value < min || value > max || seen.has(value)) return [];
    seen.add(value);
    return [{ name, value }];
  });
}

/** Integers in [min, max], with the edges of every integer width and of the double's 2^53 cliff often; an edge carries its tag (`integer-edge:max`). */
function taggedIntegerValue(min: bigint, max: bigint): fc.Arbitrary<{ value: bigint; tags: readonly string[] }> {
  const clamp = (lo: bigint, hi: bigint): [bigint, bigint] | undefined => (lo > max || hi < min ? undefined : [lo < min ? min : lo, hi > max ? max : hi]);
  const untagged = (value: bigint): { value: bigint; tags: readonly string[] } => ({ value, tags: [] });
  const choices: fc.WeightedArbitrary<{ value: bigint; tags: readonly string[] }>[] = [
    { weight: 4, arbitrary: fc.constantFrom(...integerEdges(min, max)).map((edge) => ({ value: edge.value, tags: [variantTag('integer-edge', edge.name)] })) },
    { weight: 3, arbitrary: fc.bigInt({ min, max }).map(untagged) },
  ];
  const small = clamp(-1000n, 1000n);
  if (small) choices.push({ weight: 3, arbitrary: fc.bigInt({ min: small[0], max: small[1] }).map(untagged) });
  for (const [lo, hi] of [
    [CLIFF - 64n, CLIFF + 64n],
    [-CLIFF - 64n, -CLIFF + 64n],
  ] as const) {
    const range = clamp(lo, hi);
    if (range) choices.push({ weight: 1, arbitrary: fc.bigInt({ min: range[0], max: range[1] }).map(untagged) });
  }
  return fc.oneof({ withCrossShrink: true }, ...choices);
}

/** Integers in [min, max], with the edges of every integer width and of the double's 2^53 cliff often. */
export function integerValue(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  return taggedIntegerValue(min, max).map((n) => n.value);
}

function integerArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const { min, max } = integerBounds(schema);
  return fc.tuple(taggedIntegerValue(min, max), spellingArbitrary).map(([n, spelling]) => {
    const { text, tags } = spelled(n.value, spelling);
    return numberModel(text, [...n.tags, ...tags]);
  });
}

function numberArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  return fc.double({ noNaN: true, noDefaultInfinity: true, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) }).map((n) => numberModel(JSON.stringify(n)));
}

/** A JavaScript value (from `const`, `enum`, `default` in the contract) as a model. */
export function modelOf(value: unknown): JsonModel {
  if (value === null) return nullModel;
  if (typeof value === 'boolean') return { kind: 'literal', text: value ? 'true' : 'false' };
  if (typeof value === 'number' || typeof value === 'bigint') return numberModel(String(value));
  if (typeof value === 'string') return stringModel(value);
  if (Array.isArray(value)) return { kind: 'array', items: value.map(modelOf) };
  if (typeof value === 'object') return { kind: 'object', members: Object.entries(value).map(([key, v]) => ({ key, keyStyle: 'plain', value: modelOf(v) })) };
  throw new TypeError(`no JSON for ${typeof value}`);
}

/** The JSON types a schema allows, or undefined when it does not say (an object schema without `type` counts as an object). */
export function typesOf(schema: Schema): JsonType[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type as JsonType];
  if (Array.isArray(type)) return type.filter((t): t is JsonType => typeof t === 'string');
  if (schema.properties !== undefined || schema.allOf !== undefined || schema.required !== undefined) return ['object'];
  return undefined;
}

/** Orders in which an object's members are written. */
const OBJECT_ORDERS = ['declared', 'reversed', 'extras-first', 'rotated'] as const;

/** Deeper than this, nested schemas get no probes and no tables of their own (a recursive schema ends here). */
const MAX_DEPTH = 4;

/** The tag of an extra member that is a hostile key or a pollution payload. */
function extraTag(member: JsonMember): string | undefined {
  const pollution = POLLUTION_MEMBERS.find(([, m]) => m === member);
  if (pollution) return variantTag('pollution', pollution[0]);
  return HOSTILE_KEYS.includes(member.key) ? variantTag('hostile-key', hostileKeyName(member.key)) : undefined;
}

/** The generators for one contract; they share its `$ref` resolution. */
export class SchemaArbitraries {
  readonly #contract: Contract;

  constructor(contract: Contract) {
    this.#contract = contract;
  }

  /** Any value that validates against `schema`. */
  valid(schema: Schema, depth = 0): fc.Arbitrary<JsonModel> {
    const resolved = this.#contract.resolve(schema);
    if ('const' in resolved) return fc.constant(modelOf(resolved.const));
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return fc.constantFrom(...resolved.enum.map(modelOf));
    const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
    if (branches) return fc.oneof(...branches.map((branch) => this.valid(branch as Schema, depth + 1)));
    const types = typesOf(resolved);
    if (types === undefined) return anyJsonModel(Math.max(0, 2 - depth));
    return fc.oneof(...types.map((type) => this.#ofType(type, resolved, depth)));
  }

  #ofType(type: JsonType, schema: Schema, depth: number): fc.Arbitrary<JsonModel> {
    switch (type) {
      case 'null':
        return fc.constant(nullModel);
      case 'boolean':
        return fc.constantFrom<JsonModel>({ kind: 'literal', text: 'true' }, { kind: 'literal', text: 'false' });
      case 'integer':
        return integerArbitrary(schema);
      case 'number':
        return fc.oneof(integerArbitrary(schema), numberArbitrary(schema));
      case 'string':
        return stringArbitrary(schema);
      case 'array': {
        const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : {};
        const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxItems = Math.max(minItems, typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, minItems + 4) : minItems + 4);
        return fc.array(this.valid(items, depth + 1), { minLength: minItems, maxLength: maxItems }).map((list): JsonModel => ({ kind: 'array', items: list }));
      }
      case 'object':
        return this.object(this.#contract.shapeOf(schema), depth);
    }
  }

  /**
   * A valid object for a shape: every required property, each optional one two times in three,
   * extra properties (hostile keys among them) when the shape allows them, members in varied order.
   */
  object(shape: ObjectShape, depth = 0): fc.Arbitrary<JsonModel> {
    const keyStyle = fc.oneof({ withCrossShrink: true }, { weight: 9, arbitrary: fc.constant<StringStyle>('plain') }, { weight: 1, arbitrary: fc.constantFrom(...STRING_STYLES.slice(1)) });
    const declared = [...shape.properties].map(([key, schema]) => {
      const member = fc.record({ key: fc.constant(key), keyStyle, value: this.valid(schema, depth + 1) });
      return shape.required.has(key) ? member : fc.option(member, { freq: 3, nil: undefined });
    });
    const extraMember = fc.oneof(
      { weight: 3, arbitrary: fc.record({ key: extraKey(), keyStyle, value: anyJsonModel(Math.max(0, 2 - depth)) }) },
      { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_MEMBERS.map(([, member]) => member)) },
    );
    const extras = shape.additionalProperties
      ? fc.oneof({ withCrossShrink: true }, 
          { weight: 3, arbitrary: fc.constant<JsonMember[]>([]) },
          { weight: 2, arbitrary: fc.uniqueArray(extraMember.filter((m) => !shape.properties.has(m.key)), { minLength: 1, maxLength: 4, selector: (m) => m.key }) },
        )
      : fc.constant<JsonMember[]>([]);
    const order = fc.constantFrom(...OBJECT_ORDERS);
    return fc.tuple(fc.tuple(...declared), extras, order).map(([present, extra, how]): JsonModel => {
      const own = present.filter((m): m is JsonMember => m !== undefined);
      const members = how === 'reversed' ? [...own, ...extra].reverse() : how === 'extras-first' ? [...extra, ...own] : how === 'rotated' ? [...own.slice(1), ...extra, ...own.slice(0, 1)] : [...own, ...extra];
      const tags = [variantTag('object-order', how), ...extra.map(extraTag).filter((t) => t !== undefined)];
      return { kind: 'object', members, tags };
    });
  }

  /**
   * The tables a random valid value of `schema` is drawn from (see variants.ts), each named with
   * the path of the value inside it: what a sample of `valid(schema)` should reach.
   */
  variantTables(schema: Schema, path = '', depth = 0): VariantTable[] {
    const resolved = this.#contract.resolve(schema);
    if ('const' in resolved || Array.isArray(resolved.enum) || depth > MAX_DEPTH) return [];
    const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
    if (branches) return [];
    return (typesOf(resolved) ?? []).flatMap((type): VariantTable[] => {
      switch (type) {
        case 'integer':
        case 'number': {
          const { min, max } = integerBounds(resolved);
          return tablesAt(path, [...table('integer-edge', integerEdges(min, max).map((e) => e.name)), ...table('integer-spelling', INTEGER_SPELLINGS.slice(1))]);
        }
        case 'string':
          if (typeof resolved.pattern === 'string') return [];
          return tablesAt(path, [...table('string-edge', fittingEdges(resolved).map((e) => e.name)), ...table('string-style', STRING_STYLES.slice(1))]);
        case 'object': {
          const shape = this.#contract.shapeOf(resolved);
          const own = [...shape.properties].flatMap(([key, property]) => [...this.variantTables(property, `${path}${key}/`, depth + 1), ...tablesAt(`${path}${key}/`, table('key-style', STRING_STYLES.slice(1)))]);
          const extras = shape.additionalProperties
            ? [...table('hostile-key', HOSTILE_KEYS.filter((k) => !shape.properties.has(k)).map(hostileKeyName)), ...table('pollution', POLLUTION_MEMBERS.filter(([, m]) => !shape.properties.has(m.key)).map(([name]) => name))]
            : [];
          return [...own, ...tablesAt(path, [...table('object-order', OBJECT_ORDERS), ...extras])];
        }
        default:
          return [];
      }
    });
  }

  /**
   * A plain valid value for `schema`, the same on every call with the same `n`: the value a
   * deterministic request varies one thing of. `n` makes integers and strings differ between
   * calls (so deterministic requests never share an id); objects carry every declared property
   * when `n` is even and only the required ones when it is odd.
   */
  plain(schema: Schema, n = 0): JsonModel {
    const resolved = this.#contract.resolve(schema);
    if ('const' in resolved) return modelOf(resolved.const);
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return modelOf(resolved.enum[n % resolved.enum.length]);
    const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
    if (branches?.[0] !== undefined) return this.plain(branches[0] as Schema, n);
    const types = typesOf(resolved) ?? ['string'];
    const type = types.find((t) => t !== 'null') ?? 'null';
    switch (type) {
      case 'null':
        return nullModel;
      case 'boolean':
        return { kind: 'literal', text: n % 2 === 0 ? 'true' : 'false' };
      case 'integer':
      case 'number': {
        const { min, max } = integerBounds(resolved);
        const wanted = PLAIN_INTEGER_BASE + BigInt(n);
        const value = wanted >= min && wanted <= max ? wanted : min + BigInt(n) <= max ? min + BigInt(n) : min;
        return numberModel(value.toString());
      }
      case 'string': {
        const min = typeof resolved.minLength === 'number' ? resolved.minLength : 0;
        const max = typeof resolved.maxLength === 'number' ? resolved.maxLength : Infinity;
        if (typeof resolved.pattern === 'string') {
          const [sample] = fc.sample(fc.stringMatching(new RegExp(resolved.pattern, 'u')).filter((v) => codePointsOf(v).length >= min && codePointsOf(v).length <= max), { seed: n, numRuns: 1 });
          return stringModel(sample ?? '');
        }
        const text = `plant ${n}`;
        return stringModel(text.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, text.length))));
      }
      case 'array': {
        const items = typeof resolved.items === 'object' && resolved.items !== null ? (resolved.items as Schema) : {};
        const count = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
        return { kind: 'array', items: Array.from({ length: count }, (_v, i) => this.plain(items, n + i)) };
      }
      case 'object': {
        const shape = this.#contract.shapeOf(resolved);
        const members = [...shape.properties]
          .filter(([key]) => n % 2 === 0 || shape.required.has(key))
          .map(([key, property]): JsonMember => ({ key, keyStyle: 'plain', value: this.plain(property, n) }));
        return { kind: 'object', members };
      }
    }
  }

  /**
   * Values that break `schema` on their own: every JSON type the schema does not allow (null
   * among them), integers just past the bounds of their format, fractions where an integer is due,
   * strings outside their length limits. Undefined when every JSON value is allowed. Each family
   * is a table (`invalid-type`, `invalid-outside`...) whose entries are picked uniformly.
   */
  invalid(schema: Schema): fc.Arbitrary<InvalidValue> | undefined {
    const families = this.#invalidFamilies(schema);
    if (families.length === 0) return undefined;
    return fc.oneof(
      ...families.map(({ weight, family, entries }) => ({
        weight,
        // Each entry as likely (oneof without weights), each shrinking within itself.
        arbitrary: fc.oneof(...entries.map(([entry, value]) => value.map((v) => ({ ...v, tags: [variantTag(family, entry), ...v.tags] })))),
      })),
    );
  }

  /** The tables `invalid(schema)` draws from, named with `path` (see variants.ts). */
  invalidTables(schema: Schema, path = ''): VariantTable[] {
    const families = this.#invalidFamilies(schema);
    const spelled = families.some((f) => f.family === 'invalid-outside') ? table('integer-spelling', INTEGER_SPELLINGS.slice(1)) : [];
    return tablesAt(path, [...families.flatMap((f) => table(f.family, f.entries.map(([entry]) => entry))), ...spelled]);
  }

  #invalidFamilies(schema: Schema): { family: string; weight: number; entries: [string, fc.Arbitrary<InvalidValue>][] }[] {
    const resolved = this.#contract.resolve(schema);
    const types = typesOf(resolved);
    if (types === undefined || resolved.anyOf !== undefined || resolved.oneOf !== undefined || 'const' in resolved || resolved.enum !== undefined) return [];
    const allowed = new Set<JsonType>(types);
    if (allowed.has('number')) allowed.add('integer');
    type Entry = [string, fc.Arbitrary<InvalidValue>];
    const fixed = (name: string, model: JsonModel, description: string): Entry => [name, fc.constant({ model, description, tags: [] })];
    const families: { family: string; weight: number; entries: Entry[] }[] = [];
    const add = (family: string, weight: number, entries: Entry[]): void => {
      if (entries.length > 0) families.push({ family, weight, entries });
    };
    if (!allowed.has('null')) add('invalid-null', 3, [fixed('null', nullModel, 'is null')]);
    // Values a lenient server coerces into the declared type: digits in a string where an integer
    // is due, a number or a boolean where a string is due.
    const integerRange = integerBounds(resolved);
    if (!allowed.has('string') && allowed.has('integer')) {
      add('invalid-coerced', 3, [['digits-string', integerValue(integerRange.min, integerRange.max).map((n) => ({ model: stringModel(n.toString()), description: `is the string "${n}" (digits, but a string)`, tags: [] }))]]);
    } else if (allowed.has('string') && !allowed.has('integer')) {
      add('invalid-coerced', 3, [
        ['number', fc.integer().map((n) => ({ model: numberModel(String(n)), description: `is the number ${n}`, tags: [] }))],
        fixed('boolean', { kind: 'literal', text: 'true' }, 'is true (a boolean)'),
      ]);
    }
    add(
      'invalid-type',
      2,
      WRONG_TYPES.filter(([type]) => !allowed.has(type)).map(([, name, model, description]) => fixed(name, model, description)),
    );
    if (allowed.has('integer') && !allowed.has('number')) {
      add('invalid-fraction', 3, FRACTIONS.map((text) => fixed(text, numberModel(text), `is ${text} (not an integer)`)));
      const { min, max, bounded } = integerRange;
      if (bounded) {
        const format = typeof resolved.format === 'string' ? resolved.format : 'its bounds';
        // The widest bound's magnitude: "just past" a bound is within one more bit of it (an
        // unsigned or wider parse lets it through); "far" is beyond that.
        const width = [min, max, 1n].map((n) => (n < 0n ? -n : n)).reduce((a, b) => (a > b ? a : b));
        const outside = (constants: readonly bigint[], lo: bigint, hi: bigint): fc.Arbitrary<InvalidValue> =>
          fc.tuple(fc.oneof(fc.constantFrom(...constants), fc.bigInt({ min: lo, max: hi })), spellingArbitrary).map(([n, spelling]) => {
            const { text, tags } = spelled(n, spelling);
            return { model: numberModel(text), description: `is ${describeInteger(n)} (outside ${format})`, tags };
          });
        add('invalid-outside', 5, [
          ['above', outside([max + 1n, max + 2n], max + 1n, max + width)],
          ['far-above', outside([10n ** 30n], max + width + 1n, max + width * 2n ** 64n)],
          ['below', outside([min - 1n, min - 2n], min - width, min - 1n)],
          ['far-below', outside([-(10n ** 30n)], min - width * 2n ** 64n, min - width - 1n)],
          fixed('1e400', numberModel('1e400'), `is 1e400 (outside ${format})`),
          fixed('-1e400', numberModel('-1e400'), `is -1e400 (outside ${format})`),
        ]);
      }
    }
    if (allowed.has('string') && types.length === 1) {
      const { min, max } = lengthBounds(resolved);
      add('invalid-length', 2, [
        ...(min > 0 ? [fixed('shorter', stringModel('x'.repeat(min - 1)), `is shorter than ${min}`)] : []),
        ...(max !== undefined ? [fixed('longer', stringModel('x'.repeat(max + 1)), `is longer than ${max}`)] : []),
      ]);
    }
    return families;
  }
}

/** Fractions where an integer is due: halves, a tenth as an exponent, and fractions past 2^53 and 2^63 that a double rounds to an integer. */
export const FRACTIONS: readonly string[] = ['1.5', '0.5', '-0.5', '1e-1', '9007199254740993.5', '9223372036854775807.5', '-1.000001', '2.25E1'];

/** A value of each JSON type, to put where the schema allows another: [its type, its variant name, the value, what it is]. */
export const WRONG_TYPES: readonly (readonly [JsonType, string, JsonModel, string])[] = [
  ['boolean', 'false', { kind: 'literal', text: 'false' }, 'is false (a boolean)'],
  ['string', 'empty-string', stringModel(''), 'is the empty string'],
  ['string', 'string', stringModel('Monstera'), 'is a string'],
  ['integer', 'zero', numberModel('0'), 'is the number 0'],
  ['number', 'fraction', numberModel('1.5'), 'is the number 1.5'],
  ['array', 'empty-array', { kind: 'array', items: [] }, 'is an empty array'],
  ['array', 'array', { kind: 'array', items: [stringModel('Monstera')] }, 'is an array'],
  ['object', 'empty-object', { kind: 'object', members: [] }, 'is an empty object'],
];
