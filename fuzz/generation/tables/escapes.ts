/**
 * Valid bodies that carry every escape RFC 8259, section 7 allows: a string property of a plain
 * valid body set to a text holding every character with a short escape (`\"`, `\\`, `\/`, `\b`,
 * `\f`, `\n`, `\r`, `\t`), a character outside ASCII and an astral one, written in each string
 * style (json-text.ts): `plain` writes the short escapes, `solidus` `\/` and upper-case `\u00XX`,
 * `ascii` `\uXXXX` and a surrogate pair, `escape-all` every character so. Only bodies the
 * contract's validator accepts are sent (a user's contract may bound or pattern the string).
 */
import { parseJson } from '../../../src/openapi/index.js';
import { STRING_STYLES, writeJson, type JsonModel, type StringStyle } from '../json-text.js';
import type { KindContext } from './context.js';

/** Every character with a short escape, a control without one, a character outside ASCII and an astral one. */
export const EVERY_ESCAPE = '"\\/\b\f\n\r\t\u0001é\u{1F331}';

/** The valid bodies carrying EVERY_ESCAPE in each string style, with the property and style they were written in. */
export function escapeBodies(context: KindContext, base: JsonModel): { model: JsonModel; key: string; style: StringStyle }[] {
  if (base.kind !== 'object') return [];
  const key = base.members.find((m) => m.value.kind === 'string')?.key;
  if (key === undefined) return [];
  return STRING_STYLES.map((style) => {
    const model: JsonModel = { kind: 'object', members: base.members.map((m) => (m.key === key ? { ...m, value: { kind: 'string', value: EVERY_ESCAPE, style } } : m)) };
    return { model, key, style };
  }).filter(({ model }) => context.requestBody.validate(parseJson(writeJson(model))).valid);
}
