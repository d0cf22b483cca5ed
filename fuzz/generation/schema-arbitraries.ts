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
 * entry is reached. The coverage phase sends every entry once (schema-probes.ts). The values and
 * tables of each JSON type live in values/ (integers, strings, hostile keys, edge strings...);
 * here they are put together by walking a schema.
 */
import fc from 'fast-check';
import type { Contract, ObjectShape, Schema } from '../../src/openapi/index.js';
import { codePointsOf } from '../../oracle/index.js';
import { INTEGER_SPELLINGS, STRING_STYLES, nullModel, numberModel, stringModel, type JsonMember, type JsonModel, type StringStyle } from './json-text.js';
import { variantTable, tablesAt, variantTag, type VariantTable } from './variants.js';
import { integerArbitrary, integerValue, spelled, spellingArbitrary } from './values/integer-arbitrary.js';
import { plainOfFormat } from './values/formats.js';
import { describeInteger, integerBounds, integerEdges, PLAIN_INTEGER_BASE } from './values/integers.js';
import { anyJsonModel, modelOf, typesOf, type JsonType } from './values/json-values.js';
import { extraKey, extraTag, HOSTILE_KEYS, hostileKeyName, POLLUTION_MEMBERS } from './values/hostile-keys.js';
import { fittingEdges, lengthBounds, stringArbitrary } from './values/strings.js';
import { FRACTIONS, WRONG_TYPES } from './values/wrong-values.js';

/** A JSON value that breaks a schema, and what is wrong with it (`is null`, `is 2^63 (above int64)`). */
export interface InvalidValue {
  readonly model: JsonModel;
  readonly description: string;
  /** The table entries it was drawn from (`invalid-type:null`, `integer-spelling:exponent`). */
  readonly tags: readonly string[];
}

function numberArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  return fc.double({ noNaN: true, noDefaultInfinity: true, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) }).map((n) => numberModel(JSON.stringify(n)));
}

/** Orders in which an object's members are written. */
const OBJECT_ORDERS = ['declared', 'reversed', 'extras-first', 'rotated'] as const;

/** Deeper than this, nested schemas get no probes and no tables of their own (a recursive schema ends here). */
const MAX_DEPTH = 4;

/**
 * The generators of strings matching a pattern within bounds, by pattern and bounds: fast-check
 * reads the regular expression when the generator is made, and plain values are asked for again
 * and again (every probe's body, every parameter's), of the same few patterns.
 */
const MATCHING = new Map<string, fc.Arbitrary<string>>();

/** The `n`th plain string of a pattern within bounds ('' where none is found): the same for the same `n`. */
function plainMatching(pattern: string, min: number, max: number, n: number): string {
  const key = `${min} ${max} ${pattern}`;
  let arbitrary = MATCHING.get(key);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(new RegExp(pattern, 'u')).filter((v) => codePointsOf(v).length >= min && codePointsOf(v).length <= max);
    MATCHING.set(key, arbitrary);
  }
  return fc.sample(arbitrary, { seed: n, numRuns: 1 })[0] ?? '';
}

/** Whole schemas' valid generators, by contract and resolved schema (SchemaArbitraries.valid). */
const VALID = new WeakMap<Contract, WeakMap<Schema, fc.Arbitrary<JsonModel>>>();

/** The generators for one contract; they share its `$ref` resolution. */
export class SchemaArbitraries {
  readonly #contract: Contract;

  constructor(contract: Contract) {
    this.#contract = contract;
  }

  /** Any value that validates against `schema`. */
  valid(schema: Schema, depth = 0): fc.Arbitrary<JsonModel> {
    if (depth > 0) return this.#valid(schema, depth);
    // A whole schema's generator, once per contract: a resource's operations share theirs.
    let known = VALID.get(this.#contract);
    if (!known) VALID.set(this.#contract, (known = new WeakMap<Schema, fc.Arbitrary<JsonModel>>()));
    const key = this.#contract.resolve(schema);
    let arbitrary = known.get(key);
    if (!arbitrary) known.set(key, (arbitrary = this.#valid(schema, 0)));
    return arbitrary;
  }

  #valid(schema: Schema, depth: number): fc.Arbitrary<JsonModel> {
    const resolved = this.#scalarAllOf(this.#contract.resolve(schema));
    if ('const' in resolved) return fc.constant(modelOf(resolved.const));
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return fc.constantFrom(...resolved.enum.map(modelOf));
    const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
    if (branches) return fc.oneof(...branches.map((branch) => this.valid(branch as Schema, depth + 1)));
    const types = typesOf(resolved);
    if (types === undefined) return anyJsonModel(Math.max(0, 2 - depth));
    return fc.oneof(...types.map((type) => this.#ofType(type, resolved, depth)));
  }

  /**
   * An `allOf` of parts none of which is an object's (`allOf: [{type: string}, {format: date}]`)
   * as one schema of their keywords; objects keep theirs, which their shape reads (shapeOf).
   */
  #scalarAllOf(schema: Schema): Schema {
    if (!Array.isArray(schema.allOf) || schema.properties !== undefined || schema.required !== undefined) return schema;
    const parts = schema.allOf.map((part) => this.#scalarAllOf(this.#contract.resolve(part as Schema)));
    const objectLike = (part: Schema): boolean => part.type === 'object' || part.properties !== undefined || part.required !== undefined;
    if (parts.some(objectLike)) return schema;
    const own = Object.fromEntries(Object.entries(schema).filter(([keyword]) => keyword !== 'allOf'));
    return Object.assign({}, ...parts, own) as Schema;
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
        // Past MAX_DEPTH an array has its fewest items: a recursive schema (a tree's children) ends.
        const room = depth > MAX_DEPTH ? 0 : 4;
        const maxItems = Math.max(minItems, typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, minItems + room) : minItems + room);
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
    // Past MAX_DEPTH an object has its required properties only: a recursive schema (a node's
    // optional parent) ends there instead of building generators without end.
    const kept = depth > MAX_DEPTH ? [...shape.properties].filter(([key]) => shape.required.has(key)) : [...shape.properties];
    const declared = kept.map(([key, schema]) => {
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
          return tablesAt(path, [...variantTable('integer-edge', integerEdges(min, max).map((e) => e.name)), ...variantTable('integer-spelling', INTEGER_SPELLINGS.slice(1))]);
        }
        case 'string':
          if (typeof resolved.pattern === 'string') return [];
          return tablesAt(path, [...variantTable('string-edge', fittingEdges(resolved).map((e) => e.name)), ...variantTable('string-style', STRING_STYLES.slice(1))]);
        case 'object': {
          const shape = this.#contract.shapeOf(resolved);
          const own = [...shape.properties].flatMap(([key, property]) => [...this.variantTables(property, `${path}${key}/`, depth + 1), ...tablesAt(`${path}${key}/`, variantTable('key-style', STRING_STYLES.slice(1)))]);
          const extras = shape.additionalProperties
            ? [...variantTable('hostile-key', HOSTILE_KEYS.filter((k) => !shape.properties.has(k)).map(hostileKeyName)), ...variantTable('pollution', POLLUTION_MEMBERS.filter(([, m]) => !shape.properties.has(m.key)).map(([name]) => name))]
            : [];
          return [...own, ...tablesAt(path, [...variantTable('object-order', OBJECT_ORDERS), ...extras])];
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
   * when `n` is even and only the required ones when it is odd - or deeper than MAX_DEPTH, where
   * a recursive schema (a node's optional parent) ends.
   */
  plain(schema: Schema, n = 0, depth = 0): JsonModel {
    const resolved = this.#scalarAllOf(this.#contract.resolve(schema));
    if ('const' in resolved) return modelOf(resolved.const);
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return modelOf(resolved.enum[n % resolved.enum.length]);
    const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
    if (branches?.[0] !== undefined) return this.plain(branches[0] as Schema, n, depth + 1);
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
        const formatted = typeof resolved.format === 'string' ? plainOfFormat(resolved.format, n) : undefined;
        if (formatted !== undefined) return stringModel(formatted);
        if (typeof resolved.pattern === 'string') return stringModel(plainMatching(resolved.pattern, min, max, n));
        const text = `plant ${n}`;
        return stringModel(text.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, text.length))));
      }
      case 'array': {
        const items = typeof resolved.items === 'object' && resolved.items !== null ? (resolved.items as Schema) : {};
        const count = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
        return { kind: 'array', items: Array.from({ length: count }, (_v, i) => this.plain(items, n + i, depth + 1)) };
      }
      case 'object': {
        const shape = this.#contract.shapeOf(resolved);
        const members = [...shape.properties]
          .filter(([key]) => (n % 2 === 0 && depth <= MAX_DEPTH) || shape.required.has(key))
          .map(([key, property]): JsonMember => ({ key, keyStyle: 'plain', value: this.plain(property, n, depth + 1) }));
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
    const spelled = families.some((f) => f.family === 'invalid-outside') ? variantTable('integer-spelling', INTEGER_SPELLINGS.slice(1)) : [];
    return tablesAt(path, [...families.flatMap((f) => variantTable(f.family, f.entries.map(([entry]) => entry))), ...spelled]);
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
      const { min, max, bounded, below, above } = integerRange;
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
        // Only past a side the schema bounds: `minimum: 1` alone leaves 2^63 and 1e400 valid.
        const sides: readonly (readonly [boolean, Entry])[] = [
          [above, ['above', outside([max + 1n, max + 2n], max + 1n, max + width)]],
          [above, ['far-above', outside([10n ** 30n], max + width + 1n, max + width * 2n ** 64n)]],
          [below, ['below', outside([min - 1n, min - 2n], min - width, min - 1n)]],
          [below, ['far-below', outside([-(10n ** 30n)], min - width * 2n ** 64n, min - width - 1n)]],
          [above, fixed('1e400', numberModel('1e400'), `is 1e400 (outside ${format})`)],
          [below, fixed('-1e400', numberModel('-1e400'), `is -1e400 (outside ${format})`)],
        ];
        add('invalid-outside', 5, sides.filter(([bounds]) => bounds).map(([, entry]) => entry));
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
