/** The map's rows on JSON texts (RFC 8259): what a server must read, what it may refuse, what it writes. */
import type { Requirement } from './requirement.js';
import { tested, type JudgeRow } from './rows.js';

const NEVER_5XX = 'a 5xx, a reset connection or no answer fails; a declared 4xx passes';
/** What a text the grammar does not allow gets. */
const REJECTED: JudgeRow = { check: 'rejects-invalid', how: 'a declared 4xx, never a 2xx' };

export const JSON_TEXT_REQUIREMENTS: readonly Requirement[] = [
  tested({
    id: '8259-2-whitespace-at-every-place',
    says: 'Insignificant whitespace is allowed before or after any of the six structural characters (JSON-text = ws value ws; begin-object = ws %x7B ws, name-separator = ws %x3A ws, value-separator = ws %x2C ws, ...)',
    provoke: {
      how: 'json-whitespace: for every operation with a JSON body, a valid body with all four ws characters (space, tab, LF, CR) at one place the grammar allows them - before and after the value, after { and [, before } and ], both sides of : and of , - a text per place; then each character alone at every place',
      tags: ['json-whitespace:'],
    },
    judge: { check: 'accepts-valid', how: 'read as the plain text: the declared success (and `echo`: the same plant)' },
    faults: ['whitespace-before-comma-refused'],
  }),
  tested({
    id: '8259-2-whitespace-layouts',
    says: 'JSON-text = ws value ws: whitespace as people and tools write it (indented, CRLF and tabs, a trailing newline as curl -d @file sends) is the same text',
    provoke: { how: 'valid: the plain valid body in every layout (spaced, pretty, tabs-crlf, trailing-newline, surrounded)', tags: ['layout:'] },
    judge: { check: 'accepts-valid', how: 'the declared success, as for the compact text' },
    faults: ['refuses-trailing-newline'],
  }),
  tested({
    id: '8259-2-only-four-whitespace-characters',
    says: 'ws = *( %x20 / %x09 / %x0A / %x0D ): no other character is whitespace between tokens or around the value',
    provoke: {
      how: 'malformed-json: U+000B, U+000C, U+00A0, U+2028, U+3000, U+FEFF (a BOM inside the text) and NUL between tokens, before the value (a leading BOM aside: section 8.1) and after it - what String.prototype.trim and str.strip remove',
      tags: ['malformation:not-whitespace:', 'malformation:not-whitespace-before:', 'malformation:not-whitespace-after:'],
    },
    judge: REJECTED,
    faults: ['trims-other-whitespace', 'first-value-only'],
  }),
  tested({
    id: '8259-2-one-value-per-text',
    says: 'A JSON text is a serialized value: JSON-text = ws value ws, one value',
    provoke: { how: 'malformed-json: the body twice ({...}{...}) and the body followed by the number 1, sent as lenient', tags: ['malformation:two-values', 'malformation:value-after-value'] },
    judge: {
      check: 'rejects-invalid',
      how: 'a declared 4xx passes; a 2xx warns',
      warning: "Jackson (FAIL_ON_TRAILING_TOKENS is off by default, so Spring) and Go's json.Decoder read the first value and ignore the rest, and the first value is the body the client meant; anything after the value that is not a value (a NUL, a form feed) stays a failure (the row above)",
    },
    faults: ['second-value-ignored'],
  }),
  tested({
    id: '8259-2-whole-text',
    says: 'A JSON text is a whole value: nothing cut off, no empty text, separators where the grammar puts them (object = begin-object [ member *( value-separator member ) ] end-object)',
    provoke: {
      how: 'malformed-json: the text cut off at a random point, after its first and before its last character; an empty body and one of whitespace only (where the body is required); a comma before the first member, two commas, none; = for :; a string never closed; a value missing or written as None, True, undefined, nil',
      tags: ['malformation:truncated', 'malformation:truncated-after-open', 'malformation:truncated-before-close', 'malformation:empty', 'malformation:whitespace-only', 'malformation:leading-comma', 'malformation:double-comma', 'malformation:missing-comma', 'malformation:missing-colon', 'malformation:unclosed-string', 'malformation:bad-value:'],
    },
    judge: REJECTED,
    faults: ['completes-truncated-json'],
  }),
  tested({
    id: '8259-2-no-trailing-comma-comment-or-single-quote',
    says: 'The grammar has no trailing comma, no comment and no single-quoted or bare name (section 4: a name is a string; section 7: a string begins and ends with quotation marks)',
    provoke: { how: 'malformed-json: a comma before }, a /* comment */ and a // comment, the first key in single quotes and without quotes', tags: ['malformation:trailing-comma', 'malformation:comment', 'malformation:line-comment', 'malformation:single-quoted-key', 'malformation:unquoted-key'] },
    judge: REJECTED,
    faults: ['json5-parser'],
  }),
  tested({
    id: '8259-6-number-grammar',
    says: 'number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ): no leading zeros, no plus sign, no bare point, no NaN or Infinity, no hexadecimal',
    provoke: { how: "malformed-json: an integer property written NaN, Infinity, -Infinity, 01, -01, 00, +1, +0, 0x10, 0b11, .5, 1., 1e, 1e+, 1e1.5, 1.2.3, --1, -, 1_000, 1,5, '- 1', '1 2' and a full-width digit", tags: ['malformation:bad-number:'] },
    judge: REJECTED,
    faults: ['accepts-plus-and-leading-zeros', 'json5-parser'],
  }),
  tested({
    id: '8259-6-number-spellings',
    says: 'A number may have a fraction and an exponent (E or e, a sign, leading zeros in the exponent): 100, 100.0, 1e2, 1E+2, 1e+02 are one integer to JSON Schema',
    provoke: { how: 'valid: every integer property at its bounds in every spelling (probes), and at random', tags: ['probe:id/integer:'] },
    judge: { check: 'accepts-valid', how: 'the declared success (a spelling of an out-of-range value: rejects-invalid)' },
    faults: ['rejects-exponent-ids'],
  }),
  tested({
    id: '8259-7-controls-escaped',
    says: 'All Unicode characters may be placed within the quotation marks, except for the characters that MUST be escaped: quotation mark, reverse solidus, and the control characters (U+0000 through U+001F)',
    provoke: { how: 'malformed-json: NUL, U+0001, backspace, tab, LF, VT, CR, ESC and U+001F raw inside the first key, and inside the first string value (where a lenient parser then reads a valid body)', tags: ['malformation:raw-control:', 'malformation:raw-control-in-value:'] },
    judge: REJECTED,
    faults: ['raw-controls-accepted'],
  }),
  tested({
    id: '8259-7-only-defined-escapes',
    says: 'escape = %x5C followed by one of " \\ / b f n r t or uXXXX (four hex digits): no other escape',
    provoke: { how: "malformed-json: \\x41, \\', \\u12G4, \\u{41}, \\a, \\v, \\U0041, \\0, \\%, a backslash before a space and before a line feed, in the first key and in the first string value", tags: ['malformation:invalid-escape:', 'malformation:invalid-escape-in-value:'] },
    judge: REJECTED,
    faults: ['any-escape-accepted'],
  }),
  tested({
    id: '8259-7-any-character-escaped',
    says: 'Any character may be escaped (\\u006e is n; astral characters as a surrogate pair; \\/ is /): every spelling is the same string',
    provoke: { how: 'valid: a string property written with every character escaped, with everything beyond ASCII escaped, and with \\/ and upper-case escapes (probes), and at random', tags: ['probe:name/string-style:'] },
    judge: { check: 'echo', how: 'the 200 carries the string the escapes denote' },
    faults: ['no-unicode-escapes'],
  }),
  tested({
    id: '8259-8.1-utf8',
    says: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8',
    provoke: { how: 'malformed-json: bytes that are not UTF-8 (0xFF, an overlong /, an encoded surrogate, a sequence cut short, a code point past U+10FFFF) between tokens; inside a string value as lenient (section 9: a parser may decode them)', tags: ['malformation:invalid-utf8:', 'malformation:invalid-utf8-in-string:'] },
    judge: { check: 'rejects-invalid', how: 'between tokens a declared 4xx; inside a string a 2xx warns' },
    faults: ['drops-invalid-utf8'],
  }),
  tested({
    id: '8259-8.1-no-byte-order-mark-sent',
    says: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text',
    provoke: { how: 'every JSON answer is read', tags: [] },
    judge: { check: 'no-byte-order-mark', how: 'a JSON answer that starts with EF BB BF (or a UTF-16 mark) fails' },
    faults: ['byte-order-mark'],
  }),
  tested({
    id: '8259-8.2-lone-surrogates',
    says: 'A string with an escaped lone surrogate (\\ud800) is allowed by the grammar; the behavior of software that receives it is unpredictable',
    provoke: { how: 'valid: a string property holding each lone surrogate, sent as lenient', tags: ['probe:name/string-edge:'] },
    judge: { check: 'no-server-error', how: 'a 2xx or a declared 4xx; ' + NEVER_5XX },
    faults: ['server-error-on-lone-surrogate'],
  }),
  tested({
    id: '8259-4-duplicate-names',
    says: 'The names within an object SHOULD be unique; with duplicates, the behavior of software that receives such an object is unpredictable',
    provoke: { how: 'open-texts: every string property twice with other values; once where only the first is valid, once where only the last is', tags: ['open-text:duplicate-names'] },
    judge: { check: 'echo', how: 'a declared 4xx or a 200 that echoes one reading (first member wins, or last), never a mix; a 5xx fails no-server-error' },
    faults: ['first-validated-last-stored'],
  }),
  tested({
    id: '8259-9-nesting-limit',
    says: 'An implementation may set limits on the maximum depth of nesting',
    provoke: {
      how: 'open-texts: an extra property nested 1,500 arrays deep; then, sized by the grammar (two bytes a level) and the body limits servers keep, the deepest nesting that fits 64 KiB, 100 kB (body-parser) and 1 MiB (Fastify, nginx, the reference): about 32,000, 51,000 and 524,000 levels, past the 10,000 or so a recursive parser holds; and the whole body 51,000 levels deep, for every operation with a JSON body whatever its schema',
      tags: ['open-text:depth', 'open-text:depth:', 'open-text:whole-body-depth'],
    },
    judge: { check: 'no-server-error', how: 'a 2xx, a declared 4xx or 413 (status-declared warns about an undeclared one); ' + NEVER_5XX },
    faults: ['recursive-parser-depth', 'recursive-parser-stack'],
  }),
  tested({
    id: '8259-9-number-range',
    says: 'An implementation may set limits on the range and precision of numbers',
    provoke: { how: 'open-texts: an integer literal of 5,000 digits in an extra property; invalid-body: every integer property at 1e400, -1e400 and 1e1000000000 (an exponent of a billion, which an exact-decimal reader expands)', tags: ['open-text:digits', 'probe:id/integer:1e400', 'probe:id/integer:huge-exponent'] },
    judge: { check: 'no-server-error', how: NEVER_5XX + ' (a value beyond the schema must be refused: rejects-invalid)' },
    faults: ['huge-integer-literal', 'exact-decimal-expanded'],
  }),
  tested({
    id: '8259-2-any-value-is-a-text',
    says: 'A JSON text is a serialized value: null, true, a number, a string or an array is a text as much as an object (what an untyped reader that indexes the body never expects)',
    provoke: { how: 'invalid-body: the whole body null, true, false, a number, a string, the empty string, an array empty, of a string and holding a valid object; each property of every other JSON type (probes)', tags: ['probe:type:', 'probe:in-array', 'non-object:'] },
    judge: { check: 'rejects-invalid', how: 'a declared 4xx; a 5xx fails no-server-error' },
    faults: ['unwraps-arrays'],
  }),
  tested({
    id: '8259-9-malformed-answered',
    says: 'A JSON parser MUST accept all texts that conform to the JSON grammar; a text that does not is refused, and the refusal is an answer',
    provoke: { how: 'malformed-json: every malformation above', tags: ['malformation:'] },
    judge: { check: 'no-server-error', how: NEVER_5XX },
    faults: ['hangs-on-malformed-json'],
  }),
  tested({
    id: '8259-3-values-and-literal-names',
    says: 'A JSON value MUST be an object, array, number, or string, or one of the following three literal names: false null true. The literal names MUST be lowercase.',
    provoke: { how: 'malformed-json: the first member written as nothing, None, True, undefined, nil, a single-quoted and a bare word', tags: ['malformation:bad-value:'] },
    judge: REJECTED,
    faults: ['yaml-reads-json'],
  }),
  tested({
    id: '8259-5-arrays-whole',
    says: 'An array structure is represented as square brackets surrounding zero or more values (or elements); elements are separated by commas.',
    provoke: { how: 'invalid-body: the whole body an empty array, an array of a string and an array holding a valid object', tags: ['probe:in-array', 'non-object:'] },
    judge: { check: 'rejects-invalid', how: 'an array where the schema asks for an object is read whole and refused with a declared 4xx, never taken for its first element' },
    faults: ['unwraps-arrays'],
  }),
];
