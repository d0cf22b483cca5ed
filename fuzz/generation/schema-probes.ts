/**
 * The coverage phase's values, derived by walking the contract's JSON Schemas: for every schema,
 * each edge the engine knows, once, the same in every run. A probe changes one thing of a plain
 * valid value (SchemaArbitraries.plain); whether the result is still valid is for the contract's
 * validator to say (tables/probes.ts asks it), so a probe needs no knowledge of which keywords
 * make it valid - a `maxLength`, a `minimum`, an `enum`, a `pattern` all count.
 *
 * - integer schemas: the bounds of the schema (format int32/int64, minimum/maximum, exclusive
 *   ones) and their neighbours, 0 and ±1, the 2^53 cliff (±(2^53-1), ±2^53, ±(2^53+1)), the int32,
 *   int64 and uint64 bounds, each bound in every integer spelling (`9.223372036854775807e18`,
 *   `1e19`, `-0`, `1.0`...), numbers beyond a double (`1e400`), an exponent of a billion and fractions;
 * - string schemas: every edge string (EDGE_STRINGS: whitespace, controls, quotes, lone
 *   surrogates, astral, combining marks, U+2028, bidi, a BOM inside text, ReDoS probes), lengths
 *   around the schema's limits and common column limits (255/256, 4095/4096/4097, 65535/65536)
 *   and 10,000, each string style, and runs that make backtracking patterns slow, as long as the
 *   schema's limits allow (values/backtracking-probes.ts);
 * - every schema: each JSON type it does not allow, and the values a lenient server coerces;
 * - object schemas: each property's probes, each required property missing, or sent under its
 *   key in another case (`Name`, `ID`) instead or besides, each hostile key and prototype-pollution
 *   payload as an extra property, extras of every JSON type, the object wrapped in an array or
 *   encoded twice.
 */
import { hiddenIn, type Contract, type Schema } from '../../src/openapi/index.js';
import { codePointsOf, LONE_SURROGATE_LENIENCY } from '../../oracle/index.js';
import { INTEGER_SPELLINGS, hasLoneSurrogate, nullModel, numberModel, spellInteger, STRING_STYLES, stringModel, writeJson, writeString, type JsonMember, type JsonModel } from './json-text.js';
import { SchemaArbitraries } from './schema-arbitraries.js';
import { backtrackingProbes } from './values/backtracking-probes.js';
import { EDGE_STRINGS } from './values/edge-strings.js';
import { HOSTILE_KEYS, hostileKeyName, POLLUTION_MEMBERS } from './values/hostile-keys.js';
import { describeInteger, integerBounds, NAMED_INTEGERS } from './values/integers.js';
import { modelOf, typesOf, type JsonType } from './values/json-values.js';
import { lengthBounds, LONG_STRING } from './values/strings.js';
import { FRACTIONS, WRONG_TYPES } from './values/wrong-values.js';

/** One change to a valid value. */
export interface Probe {
  /** Stable and unique among a schema's probes: `id/integer:max+1`, `name/missing`, `extra:"__proto__"`. */
  readonly name: string;
  /** The property names (and array indexes) from the root to the value it changes; empty for the root. */
  readonly path: readonly string[];
  /** What it does to that value, for people: `is 2^63 (9223372036854775808)`, `is missing`. */
  readonly predicate: string;
  /** Set where the RFCs leave the answer to a valid value open (see RequestCase.lenient). */
  readonly lenient?: string;
  /** The value with the change made. */
  edit(value: JsonModel): JsonModel;
}

/** `name is missing`, `the body is null`. */
export function describeProbe(probe: Probe): string {
  return `${probe.path.length === 0 ? 'the body' : probe.path.join('.')} ${probe.predicate}`;
}

/** Lengths where storage and buffers have limits: VARCHAR(255), 4 KiB pages and buffers, 64 KiB (MySQL TEXT, uint16 lengths). */
export const COLUMN_LENGTHS: readonly number[] = [255, 256, 4095, 4096, 4097, 65535, 65536];

/** Probe strings stay ASCII and at most this long, so a body stays under 100 kB (a common framework limit the contract does not forbid). */
const MAX_PROBE_LENGTH = 90_000;

/** Deeper than this, nested schemas are probed only as a whole (a recursive schema ends here). */
const MAX_DEPTH = 4;

const FILL = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An ASCII string of `length` characters: letters and digits in a cycle, so a cut or a lost stretch shows. */
export function asciiOfLength(length: number): string {
  return FILL.repeat(Math.ceil(length / FILL.length)).slice(0, length);
}

/** Characters a terminal would hide or act on: controls, format characters (bidi overrides, BOM), separators, surrogates, unassigned ones, whitespace other than space. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]|[^\S ]/gu;

/** A string for people: JSON-quoted, with what a terminal would hide or act on escaped, long ones cut. */
export function shown(value: string): string {
  // Counted, not split into an array: a probe's string reaches 90,000 characters, and every
  // string probe of every property is described (an array of each took most of planning's time).
  const count = codePointCount(value);
  const text = count <= 24 ? value : firstCodePoints(value, 12);
  // As JSON escapes them: UTF-16 units, so an astral character is a surrogate pair.
  const quoted = JSON.stringify(text).replace(INVISIBLE, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
  return count <= 24 ? quoted : `${quoted}… (${count} characters)`;
}

/** The code points of a string (codePointsOf's length), counted: a surrogate pair is one, a lone surrogate one. */
function codePointCount(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** The first `n` code points of a string. */
function firstCodePoints(value: string, n: number): string {
  let text = '';
  let taken = 0;
  for (const point of value) {
    if (taken++ === n) break;
    text += point;
  }
  return text;
}

/** A key in the letter cases a case-insensitive binder confuses with it: `Name`, `NAME`, `nAME`; the key itself left out. */
export function otherCases(key: string): string[] {
  const capitalised = key.charAt(0).toUpperCase() + key.slice(1);
  const swapped = codePointsOf(key)
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  return [...new Set([capitalised, key.toUpperCase(), key.toLowerCase(), swapped])].filter((k) => k !== key);
}

function setMember(model: JsonModel, key: string, value: JsonModel): JsonModel {
  if (model.kind !== 'object') return model;
  const present = model.members.some((m) => m.key === key);
  const members = present ? model.members.map((m) => (m.key === key ? { ...m, value } : m)) : [...model.members, { key, keyStyle: 'plain' as const, value }];
  return { kind: 'object', members };
}

function memberOf(model: JsonModel, key: string): JsonModel | undefined {
  return model.kind === 'object' ? model.members.find((m) => m.key === key)?.value : undefined;
}

function withMember(model: JsonModel, member: JsonMember): JsonModel {
  return model.kind === 'object' ? { kind: 'object', members: [...model.members.filter((m) => m.key !== member.key), member] } : model;
}

const fixed = (name: string, predicate: string, model: JsonModel, lenient?: string): Probe => ({ name, path: [], predicate, edit: () => model, ...(lenient === undefined ? {} : { lenient }) });

/** A probe of a value inside this one, at `step` (a key or an index), made relative to this value. */
function inside(step: string, plainChild: JsonModel, child: Probe, get: (model: JsonModel) => JsonModel | undefined, set: (model: JsonModel, value: JsonModel) => JsonModel): Probe {
  return {
    name: `${step}/${child.name}`,
    path: [step, ...child.path],
    predicate: child.predicate,
    ...(child.lenient === undefined ? {} : { lenient: child.lenient }),
    edit: (model) => set(model, child.edit(get(model) ?? plainChild)),
  };
}

/** The JSON type of a value from the contract (an enum member). */
function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'boolean' : 'object';
}

/** Every probe of a schema of `contract`: the coverage phase's values for it. */
export function probesOf(contract: Contract, schema: Schema): Probe[] {
  // Once per schema a contract resolves to: a create and a replace of one resource share theirs.
  const resolved = contract.resolve(schema);
  let bySchema = walked.get(contract);
  if (!bySchema) walked.set(contract, (bySchema = new WeakMap()));
  let probes = bySchema.get(resolved);
  if (!probes) {
    const schemas = new SchemaArbitraries(contract);
    const seen = new Set<string>();
    probes = walk(contract, schemas, schema, 0).filter((p) => (seen.has(p.name) ? false : (seen.add(p.name), true)));
    bySchema.set(resolved, probes);
  }
  return [...probes];
}

const walked = new WeakMap<Contract, WeakMap<Schema, readonly Probe[]>>();

function walk(contract: Contract, schemas: SchemaArbitraries, schema: Schema, depth: number): Probe[] {
  const resolved = contract.resolve(schema);
  const plain = schemas.plain(resolved);
  if ('const' in resolved) return [...constProbes([resolved.const]), ...wrongTypes([typeOfValue(resolved.const)], plain)];
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) {
    const members: unknown[] = resolved.enum;
    return [...constProbes(members), ...wrongTypes(typesOf(resolved) ?? members.map(typeOfValue), plain)];
  }
  const branches = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
  if (branches) {
    if (depth >= MAX_DEPTH) return [];
    return branches.flatMap((branch, i) => walk(contract, schemas, branch as Schema, depth + 1).map((p) => ({ ...p, name: `${i}:${p.name}` })));
  }
  const types = typesOf(resolved);
  if (types === undefined) return [];
  const probes: Probe[] = [];
  for (const type of types) {
    switch (type) {
      case 'integer':
        probes.push(...integerProbes(resolved));
        break;
      case 'number':
        probes.push(...integerProbes(resolved), ...numberProbes(resolved));
        break;
      case 'string':
        probes.push(...stringProbes(resolved));
        break;
      case 'boolean':
        probes.push(fixed('boolean:true', 'is true', { kind: 'literal', text: 'true' }), fixed('boolean:false', 'is false', { kind: 'literal', text: 'false' }));
        break;
      case 'null':
        probes.push(fixed('null', 'is null', nullModel));
        break;
      case 'array':
        probes.push(...(depth >= MAX_DEPTH ? [] : arrayProbes(contract, schemas, resolved, depth)));
        break;
      case 'object':
        probes.push(...(depth >= MAX_DEPTH ? [] : objectProbes(contract, schemas, resolved, depth)));
        break;
    }
  }
  return [...probes, ...wrongTypes(types, plain)];
}

/** Each member of an enum (or the const), and near misses of its strings: another case, a trailing space. */
function constProbes(members: readonly unknown[]): Probe[] {
  return members.flatMap((member, i) => {
    const model = modelOf(member);
    const probes = [fixed(`enum:${i}`, `is ${JSON.stringify(member)} (allowed by the contract)`, model)];
    if (typeof member === 'string') {
      const cased = member.toUpperCase() === member ? member.toLowerCase() : member.toUpperCase();
      if (!members.includes(cased)) probes.push(fixed(`enum-case:${i}`, `is ${shown(cased)} (${shown(member)} in another case)`, stringModel(cased)));
      if (!members.includes(`${member} `)) probes.push(fixed(`enum-space:${i}`, `is ${shown(`${member} `)} (${shown(member)} with a trailing space)`, stringModel(`${member} `)));
    }
    return probes;
  });
}

/** A value of each JSON type the schema does not allow, and the values of another type a lenient server coerces into an allowed one. */
function wrongTypes(types: readonly JsonType[], plain: JsonModel): Probe[] {
  const allowed = new Set(types);
  if (allowed.has('number')) allowed.add('integer');
  const probes: Probe[] = [];
  if (!allowed.has('null')) probes.push(fixed('type:null', 'is null', nullModel));
  for (const [type, name, model, description] of WRONG_TYPES) if (!allowed.has(type)) probes.push(fixed(`type:${name}`, description, model));
  if (allowed.has('integer') && !allowed.has('string') && plain.kind === 'number') probes.push(fixed('coerced:digits-string', `is the string "${plain.text}" (digits, but a string)`, stringModel(plain.text)));
  if (allowed.has('string') && !allowed.has('integer')) probes.push(fixed('coerced:number', 'is the number 42', numberModel('42')));
  if (allowed.has('string') && !allowed.has('boolean')) probes.push(fixed('coerced:boolean', 'is true (a boolean)', { kind: 'literal', text: 'true' }));
  if (allowed.has('boolean') && !allowed.has('string')) probes.push(fixed('coerced:boolean-string', 'is the string "true"', stringModel('true')));
  if (allowed.has('boolean') && !allowed.has('integer')) probes.push(fixed('coerced:number-one', 'is the number 1', numberModel('1')));
  if (allowed.has('object')) {
    probes.push(
      fixed('type:empty-object', 'is an empty object', { kind: 'object', members: [] }),
      { name: 'in-array', path: [], predicate: 'is an array holding a valid object', edit: (model) => ({ kind: 'array', items: [model] }) },
      { name: 'encoded-twice', path: [], predicate: 'is a JSON string holding a valid object (JSON encoded twice)', edit: (model) => stringModel(writeJson(model)) },
    );
  }
  return probes;
}

/** Integers in the schema's range and just outside, the 2^53 cliff, the widths' bounds, each bound in every spelling. */
function integerProbes(schema: Schema): Probe[] {
  const { min, max } = integerBounds(schema);
  const spelledValues: [string, bigint][] = [
    ['min', min],
    ['max', max],
    ['min-1', min - 1n],
    ['max+1', max + 1n],
    ['zero', 0n],
    ['one', 1n],
    ['10^19', 10n ** 19n],
  ];
  const values: [string, bigint][] = [...spelledValues.slice(0, 4), ['min+1', min + 1n], ['max-1', max - 1n], ...spelledValues.slice(4), ['minus-one', -1n], ...NAMED_INTEGERS.map(([value, name]): [string, bigint] => [name, value])];
  const texts = new Set<string>();
  const probes: Probe[] = [];
  const add = (name: string, text: string, predicate: string): void => {
    if (texts.has(text)) return;
    texts.add(text);
    probes.push(fixed(`integer:${name}`, predicate, numberModel(text)));
  };
  const described = (n: bigint): string => (describeInteger(n) === n.toString() ? n.toString() : `${describeInteger(n)} (${n})`);
  for (const [name, value] of values) add(name, value.toString(), `is ${described(value)}`);
  for (const [name, value] of spelledValues) {
    for (const spelling of INTEGER_SPELLINGS.slice(1)) add(`${name}:${spelling}`, spellInteger(value, spelling), `is ${describeInteger(value)} written ${spellInteger(value, spelling)}`);
  }
  for (const text of ['1e400', '-1e400']) add(text, text, `is ${text} (beyond every double)`);
  // Grammar-valid (RFC 8259, section 6: exp = e [ minus / plus ] 1*DIGIT), and no double: an exact-decimal reader
  // (Python's Decimal, Java's BigDecimal) that turns it into an integer before its range check builds a billion digits.
  add('huge-exponent', '1e1000000000', 'is 1e1000000000 (an exponent of a billion: turned into an integer, a billion digits)');
  for (const text of FRACTIONS) add(`fraction:${text}`, text, `is ${text} (not an integer)`);
  return probes;
}

/** Numbers that are not integers: small and huge fractions, the double's extremes, the schema's bounds if it has any. */
function numberProbes(schema: Schema): Probe[] {
  const bounds = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum].filter((n): n is number => typeof n === 'number');
  const texts = ['0.1', '-1.5', '1e-7', '5e-324', '1.7976931348623157e308', '-1.7976931348623157e308', ...bounds.map((n) => JSON.stringify(n))];
  return [...new Set(texts)].map((text) => fixed(`number:${text}`, `is ${text}`, numberModel(text)));
}

/** Every edge string, lengths around the limits, every string style. */
/**
 * By length bounds: a string's probes depend on them alone, and a contract's string properties
 * share a few (most have none) - made once, with their long strings and descriptions, instead of
 * once for every property.
 */
const STRING_PROBES = new Map<string, readonly Probe[]>();

function stringProbes(schema: Schema): readonly Probe[] {
  const { min, max } = lengthBounds(schema);
  const key = `${min} ${max ?? ''}`;
  let probes = STRING_PROBES.get(key);
  if (!probes) STRING_PROBES.set(key, (probes = stringProbesWithin(min, max)));
  return probes;
}

function stringProbesWithin(min: number, max: number | undefined): Probe[] {
  const probes: Probe[] = EDGE_STRINGS.map((edge) => fixed(`string-edge:${edge.name}`, `is ${shown(edge.value)} (${edge.name})`, stringModel(edge.value), hasLoneSurrogate(edge.value) ? LONE_SURROGATE_LENIENCY : undefined));
  const lengths = [1, min - 1, min, min + 1, ...(max === undefined ? [] : [max - 1, max, max + 1]), ...COLUMN_LENGTHS, LONG_STRING].filter((n) => n >= 1 && n <= MAX_PROBE_LENGTH);
  for (const length of [...new Set(lengths)].sort((a, b) => a - b)) probes.push(fixed(`length:${length}`, `is ${length} ${length === 1 ? 'character' : 'characters'} long`, stringModel(asciiOfLength(length))));
  for (const run of backtrackingProbes(Math.max(min, 1), Math.min(max ?? MAX_PROBE_LENGTH, MAX_PROBE_LENGTH))) {
    probes.push(fixed(`backtracking:${run.name}`, `is ${shown(run.value)} (a run of ${run.units} that fails at its end: backtracking)`, stringModel(run.value)));
  }
  const mixed = 'Mon/"stera"\\ 🌱\u0001é';
  for (const style of STRING_STYLES.slice(1)) probes.push(fixed(`string-style:${style}`, `is ${shown(mixed)} written ${writeString(mixed, style)}`, stringModel(mixed, style)));
  return probes;
}

function arrayProbes(contract: Contract, schemas: SchemaArbitraries, schema: Schema, depth: number): Probe[] {
  const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : {};
  const item = schemas.plain(items);
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const counts = [0, 1, minItems - 1, minItems, ...(maxItems === undefined ? [] : [maxItems, maxItems + 1])].filter((n) => n >= 0 && n <= 1000);
  const probes = [...new Set(counts)].map((n) => fixed(`items:${n}`, `is an array of ${n} items`, { kind: 'array', items: Array.from({ length: n }, () => item) }));
  const first = (model: JsonModel): JsonModel | undefined => (model.kind === 'array' ? model.items[0] : undefined);
  const setFirst = (model: JsonModel, value: JsonModel): JsonModel => (model.kind === 'array' ? { kind: 'array', items: [value, ...model.items.slice(1)] } : model);
  return [...probes, ...walk(contract, schemas, items, depth + 1).map((p) => inside('0', item, p, first, setFirst))];
}

/** The JSON types as extra properties, one each (an integer beyond int64 among them: extras are anything). */
const EXTRAS_OF_EVERY_TYPE: readonly JsonMember[] = (
  [
    ['extra-null', nullModel],
    ['extra-boolean', { kind: 'literal', text: 'false' }],
    ['extra-integer', numberModel('12345678901234567890')],
    ['extra-number', numberModel('-1.5e-3')],
    ['extra-string', stringModel('Monstera')],
    ['extra-array', { kind: 'array', items: [numberModel('1'), stringModel('a'), nullModel] }],
    ['extra-object', { kind: 'object', members: [{ key: 'a', keyStyle: 'plain', value: { kind: 'object', members: [] } }] }],
  ] as const satisfies readonly (readonly [string, JsonModel])[]
).map(([key, value]) => ({ key, keyStyle: 'plain', value }));

function objectProbes(contract: Contract, schemas: SchemaArbitraries, schema: Schema, depth: number): Probe[] {
  const shape = contract.shapeOf(schema);
  const probes: Probe[] = [];
  for (const [key, property] of shape.properties) {
    const plainChild = schemas.plain(property);
    probes.push(...walk(contract, schemas, property, depth + 1).map((p) => inside(key, plainChild, p, (m) => memberOf(m, key), (m, v) => setMember(m, key, v))));
  }
  for (const key of shape.required) {
    const property = shape.properties.get(key) ?? {};
    // A readOnly property is not required in a request (OpenAPI 3.1, section 4.8.24.4): leaving it out is no probe.
    if (hiddenIn('request', property, (s) => contract.resolve(s))) continue;
    const other = schemas.plain(property, 9_999);
    probes.push({ name: `${key}/missing`, path: [key], predicate: 'is missing', edit: (model) => (model.kind === 'object' ? { kind: 'object', members: model.members.filter((m) => m.key !== key) } : model) });
    for (const spelling of otherCases(key)) {
      if (shape.properties.has(spelling)) continue;
      probes.push({
        name: `${key}/other-case:${spelling}`,
        path: [key],
        predicate: `is missing, sent as "${spelling}" (another case)`,
        edit: (model) => (model.kind === 'object' ? { kind: 'object', members: [...model.members.filter((m) => m.key !== key), { key: spelling, keyStyle: 'plain', value: memberOf(model, key) ?? other }] } : model),
      });
      probes.push({
        name: `${key}/beside-other-case:${spelling}`,
        path: [key],
        predicate: `is sent, and "${spelling}" after it with another value`,
        edit: (model) => withMember(model, { key: spelling, keyStyle: 'plain', value: other }),
      });
    }
  }
  for (const key of HOSTILE_KEYS) {
    if (shape.properties.has(key)) continue;
    probes.push({ name: `extra:${hostileKeyName(key)}`, path: [], predicate: `has the extra property ${hostileKeyName(key)}`, edit: (model) => withMember(model, { key, keyStyle: 'plain', value: stringModel('Monstera') }) });
  }
  for (const [name, member] of POLLUTION_MEMBERS) {
    if (shape.properties.has(member.key)) continue;
    probes.push({ name: `pollution:${name}`, path: [], predicate: `has ${writeJson({ kind: 'object', members: [member] })} (prototype pollution)`, edit: (model) => withMember(model, member) });
  }
  probes.push({ name: 'extras-of-every-type', path: [], predicate: 'has extra properties of every JSON type', edit: (model) => EXTRAS_OF_EVERY_TYPE.reduce(withMember, model) });
  return probes;
}
