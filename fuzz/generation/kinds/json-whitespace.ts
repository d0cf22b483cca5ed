/**
 * `json-whitespace`: valid bodies with whitespace at each place RFC 8259's grammar allows it
 * (section 2: `ws` around the value and on both sides of each structural character), derived from
 * the grammar rather than from layouts people write: one text per place with all four whitespace
 * characters there (space, tab, line feed, carriage return), and one text per character with it at
 * every place. Each is the plain valid body to any JSON parser, so it must be read as the plain
 * text is: the declared success (`accepts-valid`) and the same answer (`echo`).
 */
import { JSON_WHITESPACE, WHITESPACE_PLACES, writeSpaced, type WhitespacePlace } from '../json-text.js';
import type { RequestCase } from '../../../oracle/index.js';
import { variantTag } from '../variants.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';

/** Every whitespace character of the grammar, in one run. */
const ALL_FOUR = JSON_WHITESPACE.map(([, char]) => char).join('');
/** The bodies' ids start here, apart from the other kinds' (tables/context.ts: plainBody). */
const FIRST_BODY = 3000;

const shownWhitespace = (text: string): string => JSON.stringify(text).slice(1, -1);

function whitespaceCases(context: KindContext): RequestCase[] {
  const texts: { variant: string; tag: string; spacing: Partial<Record<WhitespacePlace, string>> }[] = [
    ...WHITESPACE_PLACES.map((place) => ({ variant: `"${shownWhitespace(ALL_FOUR)}" ${place.replace('-', ' ')} (RFC 8259, section 2)`, tag: variantTag('json-whitespace', place), spacing: { [place]: ALL_FOUR } })),
    ...JSON_WHITESPACE.map(([name, char]) => ({ variant: `a ${name} at every place the grammar allows whitespace (RFC 8259, section 2)`, tag: variantTag('json-whitespace', name), spacing: Object.fromEntries(WHITESPACE_PLACES.map((place) => [place, char])) })),
  ];
  return texts.map(({ variant, tag, spacing }, i) =>
    context.make({ kind: 'json-whitespace', variant, content: 'valid', auth: context.validAuth, contentType: context.jsonTypes[0], body: Buffer.from(writeSpaced(context.plainBody(FIRST_BODY + i), spacing), 'utf8'), tags: [tag] }),
  );
}

export const jsonWhitespace = requestKind({
  name: 'json-whitespace',
  description: 'valid bodies with whitespace at each place RFC 8259 allows it (around the value, both sides of every structural character), each of space, tab, LF and CR: read as the plain text',
  weight: 0,
  random: () => undefined,
  coverage: whitespaceCases,
});
