/** One edge string, named: the name is its variant (`string-edge:nul`). */
export interface EdgeString {
  readonly name: string;
  readonly value: string;
  /** What family of defects it probes, for the docs. */
  readonly family: 'whitespace' | 'unicode' | 'control' | 'syntax' | 'injection' | 'bidi' | 'surrogate' | 'redos';
  /** A ReDoS probe's parts: `count` times `unit`, then `end` (its value); shrinking shortens the run. */
  readonly run?: { readonly unit: string; readonly count: number; readonly end: string };
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
  redos('letters-then-symbol', 'a', REDOS_RUN, '!'),
  redos('spaces-then-letter', ' ', REDOS_RUN, 'a'),
  redos('digits-then-letter', '1', REDOS_RUN, 'a'),
  redos('words-then-symbol', 'a.', REDOS_RUN / 2, '!'),
  redos('spaced-letters-then-symbol', 'a ', REDOS_RUN / 2, '!'),
];

/** A ReDoS probe: a run of `count` units, then `end`. */
function redos(name: string, unit: string, count: number, end: string): EdgeString {
  return { name, value: `${unit.repeat(count)}${end}`, family: 'redos', run: { unit, count, end } };
}
