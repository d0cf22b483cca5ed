/**
 * fast-check arbitraries derived by walking the contract's JSON Schemas: a valid value for any
 * schema (types, formats, bounds, enum/const, objects through their resolved shape, arrays,
 * anyOf/oneOf), and the ways a value can be invalid for it. Nothing here knows NewPlant's fields:
 * change openapi.yaml and what is generated changes with it.
 *
 * Edges come often, not once in a million: each value is drawn from a weighted mix of hand-picked
 * edges (int64 bounds, the 2^53 cliff, empty and whitespace-only strings, astral characters...)
 * and fast-check's own, already biased, generators.
 */
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN, type Contract, type ObjectShape, type Schema } from '../src/openapi/index.js';
import { codePointsOf, INTEGER_SPELLINGS, STRING_STYLES, nullModel, numberModel, spellInteger, stringModel, type IntegerSpelling, type JsonMember, type JsonModel, type StringStyle } from './json-text.js';

/** A JSON value that breaks a schema, and what is wrong with it (`is null`, `is 2^63 (above int64)`). */
export interface InvalidValue {
  readonly model: JsonModel;
  readonly description: string;
}

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const CLIFF = 2n ** 53n;
/** Where plain integers start: clear of 0, 1 and the other small ids a target may already hold. */
const PLAIN_INTEGER_BASE = 1_000_000n;

/** Integer bounds a format implies (OpenAPI 3.1 Format Registry: int32, int64). */
const FORMAT_BOUNDS: Readonly<Record<string, readonly [bigint, bigint]>> = { int32: [INT32_MIN, INT32_MAX], int64: [INT64_MIN, INT64_MAX] };

/** Names for the integers people recognise, so a finding says `2^63` and not only its digits. */
function describeInteger(value: bigint): string {
  const named: [bigint, string][] = [
    [INT64_MAX, '2^63-1'],
    [INT64_MIN, '-2^63'],
    [INT64_MAX + 1n, '2^63'],
    [INT64_MIN - 1n, '-2^63-1'],
    [CLIFF, '2^53'],
    [CLIFF + 1n, '2^53+1'],
    [-CLIFF - 1n, '-(2^53+1)'],
    [INT32_MAX, '2^31-1'],
    [INT32_MAX + 1n, '2^31'],
    [INT32_MIN - 1n, '-2^31-1'],
  ];
  return named.find(([n]) => n === value)?.[1] ?? value.toString();
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

function extraKey(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) }, { weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.string({ unit: anyCharacter, maxLength: 6 }) });
}

/** Prototype-pollution payloads as whole members: `"__proto__": {"polluted": true}` and the constructor route. */
const POLLUTION_MEMBERS: readonly JsonMember[] = [
  { key: '__proto__', keyStyle: 'plain', value: { kind: 'object', members: [{ key: 'polluted', keyStyle: 'plain', value: { kind: 'literal', text: 'true' } }] } },
  {
    key: 'constructor',
    keyStyle: 'plain',
    value: { kind: 'object', members: [{ key: 'prototype', keyStyle: 'plain', value: { kind: 'object', members: [{ key: 'polluted', keyStyle: 'plain', value: { kind: 'literal', text: 'true' } }] } }] },
  },
];

/**
 * Strings that have broken real servers: empty and whitespace-only, astral characters and ZWJ
 * sequences (UTF-16 surrogate pairs), combining marks (NFC vs NFD), NUL and other controls, quotes
 * and backslashes, U+2028/U+2029 (valid JSON, invalid in old JavaScript), a BOM, bidi overrides,
 * SQL and markup, strings that look like other JSON values.
 */
export const EDGE_STRINGS: readonly string[] = [
  '',
  ' ',
  '   ',
  '\t',
  ' \t\r\n ',
  '\u00a0',
  '\u3000',
  '🌱',
  '𝕄onstera 🌿',
  '\u{10FFFF}',
  '👩\u200d🌾',
  '🏳️‍🌈',
  'e\u0301',
  'é',
  'ﬁcus',
  'İstanbul',
  'Straße',
  '\u0000',
  'a\u0000b',
  '\u001f\u007f',
  '"',
  '\\',
  '\\"\'',
  '/',
  '</script><script>alert(1)</script>',
  "'; DROP TABLE plants; --",
  '%s%n%d',
  '{"name":"x"}',
  'null',
  '0',
  'true',
  '\u2028\u2029',
  '\ufeff',
  'مونستيرا',
  '\u202eerutsiom',
  '日本語の植物',
];

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

function stringArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const fits = (s: string): boolean => {
    if (min === 0 && max === undefined) return true;
    const n = codePointsOf(s).length;
    return n >= min && (max === undefined || n <= max);
  };
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits).map((s) => stringModel(s));
  }
  const short = fc.oneof({ withCrossShrink: true }, 
    { weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
    { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: anyCharacter, maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  );
  const choices: fc.WeightedArbitrary<JsonModel>[] = [{ weight: 29, arbitrary: fc.tuple(short.filter(fits), styleArbitrary).map(([s, style]) => stringModel(s, style)) }];
  // Long strings go out as raw UTF-8: at most 4 bytes a character keeps a body under 100 kB, a
  // size limit common among frameworks (Express's default) that the contract does not forbid.
  if (max === undefined || max >= LONG_STRING) choices.push({ weight: 1, arbitrary: longString(Math.max(LONG_STRING, min)).filter(fits).map((s) => stringModel(s)) });
  // A few in every run, so that a target whose time blows up on them is found and the run shrunk (checks/response-time.ts).
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

const spellingArbitrary: fc.Arbitrary<IntegerSpelling> = fc.oneof({ withCrossShrink: true }, { weight: 5, arbitrary: fc.constant<IntegerSpelling>('plain') }, { weight: 2, arbitrary: fc.constantFrom(...INTEGER_SPELLINGS.slice(1)) });

/** Integers in [min, max], with the edges of every integer width and of the double's 2^53 cliff often. */
export function integerValue(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const clamp = (lo: bigint, hi: bigint): [bigint, bigint] | undefined => (lo > max || hi < min ? undefined : [lo < min ? min : lo, hi > max ? max : hi]);
  const edges = [...new Set([0n, 1n, -1n, min, min + 1n, max, max - 1n, INT32_MAX, INT32_MAX + 1n, INT32_MIN, INT32_MIN - 1n, 2n ** 32n, CLIFF - 1n, CLIFF, CLIFF + 1n, CLIFF + 2n, -CLIFF, -CLIFF - 1n, 10n ** 18n, -(10n ** 18n), 1234567890123456789n])].filter((n) => n >= min && n <= max);
  const choices: fc.WeightedArbitrary<bigint>[] = [
    { weight: 4, arbitrary: fc.constantFrom(...edges) },
    { weight: 3, arbitrary: fc.bigInt({ min, max }) },
  ];
  const small = clamp(-1000n, 1000n);
  if (small) choices.push({ weight: 3, arbitrary: fc.bigInt({ min: small[0], max: small[1] }) });
  for (const [lo, hi] of [
    [CLIFF - 64n, CLIFF + 64n],
    [-CLIFF - 64n, -CLIFF + 64n],
  ] as const) {
    const range = clamp(lo, hi);
    if (range) choices.push({ weight: 1, arbitrary: fc.bigInt({ min: range[0], max: range[1] }) });
  }
  return fc.oneof({ withCrossShrink: true }, ...choices);
}

function integerArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const { min, max } = integerBounds(schema);
  return fc.tuple(integerValue(min, max), spellingArbitrary).map(([value, spelling]) => numberModel(spellInteger(value, spelling)));
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

function typesOf(schema: Schema): JsonType[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type as JsonType];
  if (Array.isArray(type)) return type.filter((t): t is JsonType => typeof t === 'string');
  if (schema.properties !== undefined || schema.allOf !== undefined || schema.required !== undefined) return ['object'];
  return undefined;
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
      { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_MEMBERS) },
    );
    const extras = shape.additionalProperties
      ? fc.oneof({ withCrossShrink: true }, 
          { weight: 3, arbitrary: fc.constant<JsonMember[]>([]) },
          { weight: 2, arbitrary: fc.uniqueArray(extraMember.filter((m) => !shape.properties.has(m.key)), { minLength: 1, maxLength: 4, selector: (m) => m.key }) },
        )
      : fc.constant<JsonMember[]>([]);
    const order = fc.constantFrom('declared', 'reversed', 'extras-first', 'rotated');
    return fc.tuple(fc.tuple(...declared), extras, order).map(([present, extra, how]): JsonModel => {
      const own = present.filter((m): m is JsonMember => m !== undefined);
      const members = how === 'reversed' ? [...own, ...extra].reverse() : how === 'extras-first' ? [...extra, ...own] : how === 'rotated' ? [...own.slice(1), ...extra, ...own.slice(0, 1)] : [...own, ...extra];
      return { kind: 'object', members };
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
   * strings outside their length limits. Empty when every JSON value is allowed.
   */
  invalid(schema: Schema): fc.Arbitrary<InvalidValue> | undefined {
    const resolved = this.#contract.resolve(schema);
    const types = typesOf(resolved);
    if (types === undefined || resolved.anyOf !== undefined || resolved.oneOf !== undefined || 'const' in resolved || resolved.enum !== undefined) return undefined;
    const allowed = new Set<JsonType>(types);
    if (allowed.has('number')) allowed.add('integer');
    const choices: fc.WeightedArbitrary<InvalidValue>[] = [];
    if (!allowed.has('null')) choices.push({ weight: 3, arbitrary: fc.constant({ model: nullModel, description: 'is null' }) });
    // Values a lenient server coerces into the declared type: digits in a string where an integer
    // is due, a number or a boolean where a string is due.
    const integerRange = integerBounds(resolved);
    if (!allowed.has('string') && allowed.has('integer')) {
      choices.push({ weight: 3, arbitrary: integerValue(integerRange.min, integerRange.max).map((n) => ({ model: stringModel(n.toString()), description: `is the string "${n}" (digits, but a string)` })) });
    } else if (allowed.has('string') && !allowed.has('integer')) {
      choices.push({ weight: 3, arbitrary: fc.oneof(fc.integer().map((n) => ({ model: numberModel(String(n)), description: `is the number ${n}` })), fc.constant<InvalidValue>({ model: { kind: 'literal', text: 'true' }, description: 'is true (a boolean)' })) });
    }
    const wrong: InvalidValue[] = [];
    if (!allowed.has('boolean')) wrong.push({ model: { kind: 'literal', text: 'false' }, description: 'is false (a boolean)' });
    if (!allowed.has('string')) wrong.push({ model: stringModel(''), description: 'is the empty string' }, { model: stringModel('Monstera'), description: 'is a string' });
    if (!allowed.has('integer')) wrong.push({ model: numberModel('0'), description: 'is the number 0' });
    if (!allowed.has('number')) wrong.push({ model: numberModel('1.5'), description: 'is the number 1.5' });
    if (!allowed.has('array')) wrong.push({ model: { kind: 'array', items: [] }, description: 'is an empty array' }, { model: { kind: 'array', items: [stringModel('Monstera')] }, description: 'is an array' });
    if (!allowed.has('object')) wrong.push({ model: { kind: 'object', members: [] }, description: 'is an empty object' });
    if (wrong.length > 0) choices.push({ weight: 2, arbitrary: fc.constantFrom(...wrong) });
    if (allowed.has('integer') && !allowed.has('number')) {
      const fractions = ['1.5', '0.5', '-0.5', '1e-1', '9007199254740993.5', '9223372036854775807.5', '-1.000001', '2.25E1'];
      choices.push({ weight: 3, arbitrary: fc.constantFrom(...fractions).map((text) => ({ model: numberModel(text), description: `is ${text} (not an integer)` })) });
      const { min, max, bounded } = integerRange;
      if (bounded) {
        const outside = fc.oneof(
          // Just past the top, within one more bit: what an unsigned or wider parse lets through.
          { weight: 3, arbitrary: fc.oneof(fc.constantFrom(max + 1n, max + 2n, 2n * max + 1n), fc.bigInt({ min: max + 1n, max: 2n * max + 1n })) },
          { weight: 1, arbitrary: fc.oneof(fc.constantFrom(10n ** 30n), fc.bigInt({ min: 2n * max + 2n, max: max * 2n ** 64n })) },
          { weight: 2, arbitrary: fc.oneof(fc.constantFrom(min - 1n, min - 2n, 2n * min - 1n, -(10n ** 30n)), fc.bigInt({ min: min * 2n ** 64n, max: min - 1n })) },
        );
        const format = typeof resolved.format === 'string' ? resolved.format : 'its bounds';
        choices.push({
          weight: 5,
          arbitrary: fc.oneof(
            { weight: 9, arbitrary: fc.tuple(outside, spellingArbitrary).map(([n, spelling]) => ({ model: numberModel(spellInteger(n, spelling)), description: `is ${describeInteger(n)} (outside ${format})` })) },
            { weight: 1, arbitrary: fc.constantFrom({ model: numberModel('1e400'), description: `is 1e400 (outside ${format})` }, { model: numberModel('-1e400'), description: `is -1e400 (outside ${format})` }) },
          ),
        });
      }
    }
    if (allowed.has('string') && types.length === 1) {
      if (typeof resolved.minLength === 'number' && resolved.minLength > 0) choices.push({ weight: 2, arbitrary: fc.constant({ model: stringModel('x'.repeat(resolved.minLength - 1)), description: `is shorter than ${resolved.minLength}` }) });
      if (typeof resolved.maxLength === 'number') choices.push({ weight: 2, arbitrary: fc.constant({ model: stringModel('x'.repeat(resolved.maxLength + 1)), description: `is longer than ${resolved.maxLength}` }) });
    }
    return choices.length === 0 ? undefined : fc.oneof(...choices);
  }
}
