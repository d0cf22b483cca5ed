/**
 * HTML built so that nothing is inserted unescaped by mistake: the `html` tag escapes every
 * string and number put into a template; only `Html` values (other templates) go in as they are.
 * A report page shows what a target sent back, which may be anything (`<script>` in a body, bidi
 * controls, NUL): that text must reach the reader as text.
 */

const HTML_BRAND: unique symbol = Symbol('html');

/** Markup built by `html` (or a constant through `trusted`): safe to insert as it is. */
export interface Html {
  readonly [HTML_BRAND]: string;
}

export type HtmlValue = Html | string | number | readonly Html[] | undefined | false;

function markup(source: string): Html {
  return { [HTML_BRAND]: source };
}

/** Markup the caller wrote itself: constants only, never text from a target. */
export function trusted(source: string): Html {
  return markup(source);
}

function isHtml(value: unknown): value is Html {
  return typeof value === 'object' && value !== null && HTML_BRAND in value;
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Lone surrogates: written to a UTF-8 file they would become U+FFFD, so they are shown as escapes. */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/**
 * Characters a reader could not see, or that would change how the text around them reads: C0 and
 * C1 controls but tab and line feed (HTML drops NUL and folds CR: HTML standard, section 13.2.3.5),
 * DEL, the bidirectional controls that reorder text (the "Trojan Source" characters; Unicode
 * UAX #9), noncharacters and lone surrogates.
 */
const INVISIBLE = `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ufdd0-\\ufdef\\ufffe\\uffff]|${LONE_SURROGATE}`;
const ESCAPED = new RegExp(`[&<>"']|${INVISIBLE}`, 'g');
/** What HTML cannot carry at all: NUL and the other C0 controls but tab and line feed, lone surrogates. */
const UNCARRIED = new RegExp(`[&<>"']|[\\u0000-\\u0008\\u000b-\\u001f]|${LONE_SURROGATE}`, 'g');

function hex(c: string): string {
  return (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** `\uxxxx` for one character (those escaped are all one UTF-16 unit). */
function escapeOf(c: string): string {
  return `\\u${hex(c).toLowerCase()}`;
}

/**
 * Text as HTML, anywhere (element content or an attribute value): markup characters as entities,
 * invisible characters as `\uxxxx`. What the `html` tag does to every string put into it.
 */
export function text(value: string): Html {
  return markup(value.replace(ESCAPED, (c) => ENTITIES[c] ?? escapeOf(c)));
}

/** Text as element content, each invisible character's escape marked so that it stands out from the text around it. */
export function markedText(value: string): Html {
  return markup(value.replace(ESCAPED, (c) => ENTITIES[c] ?? `<span class="esc" title="U+${hex(c)}">${escapeOf(c)}</span>`));
}

/**
 * Text as HTML that copies back exactly (a shell command): markup characters as entities, and
 * only what HTML cannot carry at all as `\uxxxx` (report.ts writes controls in a command through
 * printf, so a command holds none).
 */
export function exactText(value: string): Html {
  return markup(value.replace(UNCARRIED, (c) => ENTITIES[c] ?? escapeOf(c)));
}

function insert(value: HtmlValue): string {
  if (value === undefined || value === false) return '';
  if (typeof value === 'number' || typeof value === 'string') return text(String(value))[HTML_BRAND];
  if (isHtml(value)) return value[HTML_BRAND];
  return value.map((part) => part[HTML_BRAND]).join('');
}

/** A template whose strings and numbers are escaped; `undefined` and `false` insert nothing. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += insert(value) + (strings[i + 1] ?? '');
  });
  return markup(out);
}

/** The markup as a string, to write to a file. */
export function render(value: Html): string {
  return value[HTML_BRAND];
}
