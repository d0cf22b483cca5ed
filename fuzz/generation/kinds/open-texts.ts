/**
 * `open-texts`: valid NewPlants in JSON texts whose meaning RFC 8259 leaves to the receiver, sent
 * with what stays certain (RequestCase.open): never a 5xx; a declared 4xx or a 200, and a 200
 * echoes one reading of the body.
 *
 * - Duplicate names (section 4: "the behavior of software that receives such an object is
 *   unpredictable"): every string property twice, with other values. Read with the first member
 *   winning or the last, never a mix (a server that validates the first `name` and stores the
 *   last is caught). Where one of the two values is of the wrong type, only the other reading is
 *   valid, so a 200 must echo it.
 * - Nesting deeper than common parser limits (section 9 lets a parser limit depth: Python's
 *   recursion limit, Jackson's 1000, System.Text.Json's 64) in a property the schema does not have;
 *   then, sized by the grammar and the body limits servers set, the deepest nesting that fits each
 *   (BODY_LIMITS): far past the 10,000 or so levels a recursive parser's stack holds, so a parser
 *   without a depth limit overflows. A server whose limit is smaller refuses it (any declared 4xx,
 *   or 413: RFC 9110, section 15.5.14), which passes; a 5xx, a reset or a dead process fails.
 * - For every operation with a JSON body, whatever its schema, the whole body nested that deep:
 *   the shape an untyped reader (json.loads, then indexing) never expects.
 * - An integer literal of thousands of digits in such a property (section 9 lets a parser limit
 *   numbers; Python's int conversion refuses more than 4300 digits).
 */
import { parseJson } from '../../../src/openapi/index.js';
import { writeJson, writeString, type JsonMember, type JsonModel } from '../json-text.js';
import { variantTag } from '../variants.js';
import type { RequestCase } from '../../../oracle/index.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';

/** Deeper than the limits named above. */
export const OPEN_DEPTH = 1500;
/**
 * Body limits servers commonly keep by default, each filled with the deepest nesting that fits
 * (two bytes a level, `[` and `]`, the least the grammar allows): 64 KiB; body-parser's 100 kB
 * (Express); 1 MiB (Fastify's bodyLimit, nginx's client_max_body_size, and the reference's own,
 * DEFAULT_MAX_BODY_BYTES in src/http/rules.ts). The engine cannot know a server's limit, so it
 * sends one for each: the one that fits the server's limit reaches its parser.
 */
export const BODY_LIMITS: readonly (readonly [string, number])[] = [
  ['64 KiB', 64 * 1024],
  ['100 kB', 100 * 1024],
  ['1 MiB', 1024 * 1024],
];

/** More digits than Python's default int limit (4300). */
export const OPEN_DIGITS = 5000;

const DUPLICATE_REASON = 'RFC 8259, section 4: the names within an object should be unique; what software does with a duplicate is unpredictable, so a refusal or either reading (the first or the last member wins) is allowed';
const LIMIT_REASON = 'RFC 8259, section 9: a parser may limit the depth of nesting and the range of numbers, so a refusal is allowed';

function object(members: readonly JsonMember[]): JsonModel {
  return { kind: 'object', members };
}

function nested(depth: number): JsonModel {
  let model: JsonModel = { kind: 'array', items: [] };
  for (let i = 1; i < depth; i++) model = { kind: 'array', items: [model] };
  return model;
}

/** A name no property of the request schema has, for the extra member. */
function extraKey(context: KindContext): string {
  let key = 'x-extra';
  while (context.shape.properties.has(key)) key += '_';
  return key;
}

interface OpenSpec {
  readonly what: string;
  /** Its tag (see RequestCase.tags): `open-text:<what>`. */
  readonly tag: string;
  readonly members: readonly JsonMember[];
  readonly readings: readonly JsonModel[];
  readonly reason: string;
}

function openCase(context: KindContext, spec: OpenSpec): RequestCase {
  const valid = spec.readings.filter((reading) => context.requestBody.validate(parseJson(writeJson(reading))).valid);
  const made = context.make({ kind: 'open-texts', variant: spec.what, content: 'valid', auth: context.validAuth, contentType: context.jsonTypes[0] ?? 'application/json', body: context.text(object(spec.members)), tags: [variantTag('open-text', spec.tag)] });
  return { ...made, open: { reason: spec.reason, readings: valid.map((reading) => context.text(reading)) } };
}

/** The body with every string member written twice: `first` values, then `last` ones after all members. */
function duplicated(base: readonly JsonMember[], keys: readonly string[], first: (key: string) => JsonModel, last: (key: string) => JsonModel): Omit<OpenSpec, 'what' | 'reason' | 'tag'> {
  const early = base.map((m) => (keys.includes(m.key) ? { ...m, value: first(m.key) } : m));
  const late = keys.map((key): JsonMember => ({ key, keyStyle: 'plain', value: last(key) }));
  const lastWins = base.map((m) => (keys.includes(m.key) ? { ...m, value: last(m.key) } : m));
  return { members: [...early, ...late], readings: [object(early), object(lastWins)] };
}

/** A body of `depth` empty arrays nested, as text (a model that deep would overflow the engine's own recursive writer). */
function nestedText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** The deepest nesting in the extra property `key` that keeps the body within `limit` bytes. */
function sizedDeepCase(context: KindContext, members: readonly JsonMember[], key: string, [label, limit]: readonly [string, number]): RequestCase {
  const plain = writeJson(object(members));
  const prefix = `${plain.slice(0, -1)}${members.length > 0 ? ',' : ''}${writeString(key, 'plain')}:`;
  const depth = Math.floor((limit - Buffer.byteLength(prefix) - 1) / 2);
  // Judged on a stand-in two levels deep: a validator that walks the real one is what is under test.
  const standIn = object([...members, { key, keyStyle: 'plain', value: nested(2) }]);
  const valid = context.requestBody.validate(parseJson(writeJson(standIn))).valid;
  const made = context.make({
    kind: 'open-texts',
    variant: `${key} nested ${depth} arrays deep: the deepest that fits a ${label} body limit`,
    content: 'valid',
    auth: context.validAuth,
    contentType: context.jsonTypes[0] ?? 'application/json',
    body: Buffer.from(`${prefix}${nestedText(depth)}}`, 'utf8'),
    tags: [variantTag('open-text', `depth:${label}`)],
  });
  // An answer echoes the plant without the extra: the reading is the body without it.
  return { ...made, open: { reason: LIMIT_REASON, readings: valid ? [context.text(object(members))] : [] } };
}

/** The whole body nested as deep as fits body-parser's 100 kB: invalid where the schema wants anything but such an array. */
function wholeBodyNested(context: KindContext): RequestCase {
  const [label, limit] = BODY_LIMITS[1] ?? ['100 kB', 100 * 1024];
  const depth = Math.floor((limit - 2) / 2);
  const valid = context.requestBody.validate(parseJson(nestedText(2))).valid;
  return context.make({
    kind: 'open-texts',
    variant: `the whole body ${depth} arrays deep (the deepest that fits a ${label} body limit)`,
    content: valid ? 'valid' : 'invalid',
    auth: context.validAuth,
    contentType: context.jsonTypes[0] ?? 'application/json',
    body: Buffer.from(nestedText(depth), 'utf8'),
    tags: [variantTag('open-text', 'whole-body-depth')],
    ...(valid ? { lenient: LIMIT_REASON } : {}),
  });
}

function openCases(context: KindContext): RequestCase[] {
  const base = context.plainBody(0);
  if (base.kind !== 'object') return [wholeBodyNested(context)];
  const keys = base.members.filter((m) => m.value.kind === 'string').map((m) => m.key);
  const text = (value: string): JsonModel => ({ kind: 'string', value, style: 'plain' });
  const cases: RequestCase[] = [];
  const add = (what: string, spec: Omit<OpenSpec, 'what' | 'reason' | 'tag'>, reason = DUPLICATE_REASON, tag = 'duplicate-names'): void => {
    cases.push(openCase(context, { what, reason, tag, ...spec }));
  };
  const withBody = (n: number): readonly JsonMember[] => {
    const model = context.plainBody(n);
    return model.kind === 'object' ? model.members : [];
  };
  cases.push(wholeBodyNested(context));
  if (keys.length > 0) {
    const names = keys.join(', ');
    add(`${names} each twice, with other values (duplicate names)`, duplicated(withBody(1000), keys, (k) => text(`first ${k}`), (k) => text(`last ${k}`)));
    add(`${names} each twice, first a string, then a number (only the first is valid)`, duplicated(withBody(1002), keys, (k) => text(`first ${k}`), () => ({ kind: 'number', text: '5' })));
    add(`${names} each twice, first a number, then a string (only the last is valid)`, duplicated(withBody(1004), keys, () => ({ kind: 'number', text: '5' }), (k) => text(`last ${k}`)));
  }
  const key = extraKey(context);
  const deep = [...withBody(1006), { key, keyStyle: 'plain' as const, value: nested(OPEN_DEPTH) }];
  add(`${key} nested ${OPEN_DEPTH} arrays deep`, { members: deep, readings: [object(deep)] }, LIMIT_REASON, 'depth');
  BODY_LIMITS.forEach((limit, i) => cases.push(sizedDeepCase(context, withBody(1010 + i), key, limit)));
  const huge = [...withBody(1008), { key, keyStyle: 'plain' as const, value: { kind: 'number' as const, text: `9${'0'.repeat(OPEN_DIGITS - 1)}` } }];
  add(`${key} an integer literal of ${OPEN_DIGITS} digits`, { members: huge, readings: [object(huge)] }, LIMIT_REASON, 'digits');
  return cases;
}

export const openTexts = requestKind({
  name: 'open-texts',
  description: 'valid NewPlants in JSON texts whose meaning RFC 8259 leaves open (duplicate names, nesting deeper than parser limits, integer literals of thousands of digits): a refusal or a 200 that echoes one reading, never a 5xx or a mix',
  weight: 0,
  random: () => undefined,
  coverage: openCases,
});
