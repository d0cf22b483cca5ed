/** Keys and members that have broken real servers, put into objects that allow more properties. */
import fc from 'fast-check';
import type { JsonMember, JsonModel } from '../json-text.js';
import { variantTag } from '../variants.js';
import { anyCharacter } from './characters.js';

/**
 * Keys that have broken real servers: prototype pollution (`__proto__`, `constructor`), NoSQL
 * operators, path syntax, the empty key, NUL.
 */
export const HOSTILE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isAdmin', '$where', '$set', '', ' ', '\u0000', 'a.b', 'a[0]', '🌱'];

/** A hostile key as a table entry: its JSON spelling, so that the empty key and NUL have a printable name. */
export function hostileKeyName(key: string): string {
  return JSON.stringify(key);
}

export function extraKey(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) }, { weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.string({ unit: anyCharacter, maxLength: 6 }) });
}

const polluted: JsonModel = { kind: 'object', members: [{ key: 'polluted', keyStyle: 'plain', value: { kind: 'literal', text: 'true' } }] };

/** Prototype-pollution payloads as whole members: `"__proto__": {"polluted": true}` and the constructor route. */
export const POLLUTION_MEMBERS: readonly (readonly [string, JsonMember])[] = [
  ['proto', { key: '__proto__', keyStyle: 'plain', value: polluted }],
  ['constructor-prototype', { key: 'constructor', keyStyle: 'plain', value: { kind: 'object', members: [{ key: 'prototype', keyStyle: 'plain', value: polluted }] } }],
];

/** The tag of an extra member that is a hostile key or a pollution payload. */
export function extraTag(member: JsonMember): string | undefined {
  const pollution = POLLUTION_MEMBERS.find(([, m]) => m === member);
  if (pollution) return variantTag('pollution', pollution[0]);
  return HOSTILE_KEYS.includes(member.key) ? variantTag('hostile-key', hostileKeyName(member.key)) : undefined;
}
