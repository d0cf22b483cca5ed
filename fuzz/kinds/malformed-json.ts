/**
 * `malformed-json`: a body that is not JSON for any parser (RFC 8259), sent with valid credentials
 * and a declared media type. Every malformation is one entry of MALFORMATIONS: the random phase
 * picks among them uniformly, the coverage phase sends each once.
 *
 * Left out on purpose: trailing data after the value (Go's json.Decoder and Jackson's default
 * accept it), duplicate keys and a byte-order mark (RFC 8259 lets parsers accept them), NaN
 * outside an integer field (Python's json module accepts it), deep nesting (a limit of the
 * implementation, not of JSON).
 */
import fc from 'fast-check';
import { writeJson, type JsonMember, type JsonModel, type Layout } from '../json-text.js';
import type { KindContext } from './context.js';
import { requestKind } from './kind.js';

/** One way to make a JSON text malformed. `at` (0..1) chooses a position where there is a choice. */
export interface Malformation {
  /** A stable name: `bad-number:0x10`, `invalid-escape:\x41`. */
  readonly name: string;
  /** Set when RFC 8259 lets a parser accept the text anyway: the reason (see RequestCase.lenient). */
  readonly lenient?: string;
  apply(model: JsonModel, layout: Layout, integerKeys: readonly string[], at: number): { bytes: Uint8Array; variant: string } | undefined;
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/** Index of the first occurrence of `char` outside string literals, or -1. */
function structuralIndex(text: string, char: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === char) return i;
  }
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

/** Index of the opening quote of the first member value that is a string, or -1. */
function firstStringValue(text: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ':') {
      const next = text.slice(i + 1).search(/\S/);
      if (next >= 0 && text[i + 1 + next] === '"') return i + 1 + next;
    }
  }
  return -1;
}

/** Number spellings JSON does not allow (RFC 8259, section 6); each replaces an integer property's value. */
export const BAD_NUMBERS: readonly string[] = ['NaN', 'Infinity', '-Infinity', '01', '-01', '+1', '0x10', '.5', '1.', '1e', '1e+', '--1', '1_000', '- 1'];
/** Escapes JSON does not have (RFC 8259, section 7). */
export const BAD_ESCAPES: readonly string[] = ['\\x41', "\\'", '\\u12G4', '\\a', '\\U0041', '\\0'];
/** Control characters that must be escaped inside a string (RFC 8259, section 7). */
const RAW_CONTROLS: readonly string[] = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001f'];
/** Byte sequences that are not UTF-8 (RFC 3629): lone continuation and invalid lead bytes, an overlong encoding, an encoded surrogate, a sequence cut short. */
export const INVALID_UTF8: readonly (readonly [string, readonly number[]])[] = [
  ['the byte 0xFF', [0xff]],
  ['the byte 0xFE', [0xfe]],
  ['a lone continuation byte 0x80', [0x80]],
  ['the overlong encoding C0 AF of /', [0xc0, 0xaf]],
  ['an encoded surrogate ED A0 80', [0xed, 0xa0, 0x80]],
  ['a three-byte sequence cut short E2 82', [0xe2, 0x82]],
  ['a code point above U+10FFFF F4 90 80 80', [0xf4, 0x90, 0x80, 0x80]],
];

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
  ...BAD_ESCAPES.map((escape) => inFirstString(`invalid-escape:${escape}`, escape, `the invalid escape ${escape} in a string`)),
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
      lenient: 'RFC 8259, section 9 lets a parser accept non-JSON forms; a decoder that replaces the bytes with U+FFFD makes a string of it, so the server stores something other than was sent',
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
  description: 'bodies that are not JSON: cut off, trailing commas, comments, single quotes, unclosed strings, raw control characters, invalid escapes, byte sequences that are not UTF-8, numbers JSON does not allow',
  weight: 8,
  random: (context) => {
    const usable = MALFORMATIONS.filter((m) => m.apply(context.plainBody(0), 'compact', context.integerKeys, 0.5) !== undefined);
    return fc
      .record({ model: context.body, layout: context.layout, mediaType: context.mediaType, auth: context.goodAuth, how: fc.constantFrom(...usable), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
      .map(({ model, layout, mediaType, auth, how, at }) => {
        // A generated body may lack what a malformation needs (no string, no integer): then it is cut off instead.
        const applied = how.apply(model, layout, context.integerKeys, at);
        const made = applied ?? (MALFORMATIONS[0] as Malformation).apply(model, layout, context.integerKeys, at);
        const { bytes, variant } = made ?? { bytes: new Uint8Array(), variant: 'an empty body' };
        const lenient = applied === undefined ? undefined : how.lenient;
        return context.make({ kind: 'malformed-json', variant, content: 'invalid', auth, contentType: mediaType, body: bytes, ...(lenient === undefined ? {} : { lenient }) });
      });
  },
  coverage: (context) =>
    MALFORMATIONS.flatMap((how, n) => {
      const made = how.apply(context.plainBody(n), 'compact', context.integerKeys, 0.5);
      if (!made) return [];
      return [context.make({ kind: 'malformed-json', variant: made.variant, content: 'invalid', auth: context.validAuth, contentType: context.jsonTypes[0], body: made.bytes, ...(how.lenient === undefined ? {} : { lenient: how.lenient }) })];
    }),
});

export type { KindContext };
