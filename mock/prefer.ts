/**
 * The mock's own preferences in `Prefer` (RFC 7240), beside Prism's (`code`, `example`, `dynamic`,
 * `seed`, which Prism reads itself and which ignore these): how the answer goes out, not what it is.
 *
 * - `delay=300` holds the answer back 300 ms; `delay=100-800` picks a delay in that range, from
 *   the mock's `--seed` when it has one, so that a run is repeatable.
 * - `fault=reset|timeout|garbage|truncated` breaks the answer on purpose (exchange.ts, `Fault`).
 *
 * Outside the contract by design: nothing here happens unless the request asks for it.
 */
import { createHash } from 'node:crypto';
import { FAULTS, type Delivery, type Fault } from '../src/http/index.js';

/**
 * The longest delay a request may ask for: the bound of `--delay`, ten minutes - longer than any
 * client's own timeout (a test wanting no answer at all asks for `fault=timeout`), and short
 * enough that a held answer, which keeps its connection and its body in memory, is let go.
 */
export const MAX_DELAY_MS = 600_000;

/** What a request asks of the mock's delivery. */
export interface DeliveryPreferences {
  /** The range the delay is picked from; `min === max` for one delay. */
  readonly delay?: { readonly min: number; readonly max: number };
  readonly fault?: Fault;
}

/**
 * The preferences of a `Prefer` field value (RFC 7240, section 2): a comma-separated list of
 * `token [ "=" word ] *( ";" parameter )`, the word a token or a quoted string. Names compare
 * case-insensitively, values are kept as they are; a preference given twice counts the first time
 * only (section 2). Parameters are not used by any preference the mock reads, and are dropped.
 */
export function preferences(value: string): ReadonlyMap<string, string> {
  const found = new Map<string, string>();
  for (const preference of splitOutsideQuotes(value, ',')) {
    const [first = ''] = splitOutsideQuotes(preference, ';');
    const equals = first.indexOf('=');
    const name = (equals === -1 ? first : first.slice(0, equals)).trim().toLowerCase();
    if (name === '' || found.has(name)) continue;
    found.set(name, equals === -1 ? '' : unquote(first.slice(equals + 1).trim()));
  }
  return found;
}

/**
 * The delivery preferences of a `Prefer` header (none: an empty object). One the mock cannot
 * honour - a malformed delay (`delay=soon`, `delay=800-100`), one over `MAX_DELAY_MS`, an unknown
 * fault (`fault=explode`) - is left out, and the others still apply: "a server that does not
 * recognize or is unable to comply with particular preference tokens [...] MUST ignore those
 * tokens and continue processing instead of signaling an error" (RFC 7240, section 2).
 */
export function deliveryPreferences(prefer: string | undefined): DeliveryPreferences {
  if (prefer === undefined) return {};
  const asked = preferences(prefer);
  const delay = delayRange(asked.get('delay'));
  const fault = FAULTS.find((known) => known === asked.get('fault'));
  return { ...(delay === undefined ? {} : { delay }), ...(fault === undefined ? {} : { fault }) };
}

/** `300` or `100-800`: whole milliseconds from 0 to `MAX_DELAY_MS`, the range's ends in order. */
function delayRange(text: string | undefined): DeliveryPreferences['delay'] {
  const match = text === undefined ? null : /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(text);
  if (match === null) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return max > MAX_DELAY_MS || min > max ? undefined : { min, max };
}

/**
 * Draws the delays of ranges (`delay=100-800`). With a seed the n-th draw of a run is the same in
 * every run (a hash of the seed and n); without one, each draw is random.
 */
export function delayPicker(seed: string | undefined): (min: number, max: number) => number {
  let draws = 0;
  return (min, max) => {
    if (min === max) return min;
    const unit = seed === undefined ? Math.random() : createHash('sha256').update(`${seed}\u0000${String(draws++)}`).digest().readUInt32BE(0) / 2 ** 32;
    return min + Math.floor(unit * (max - min + 1));
  };
}

/** How an answer goes out: the request's own delivery preferences over the mock's `--delay`. */
export function deliveryFor(asked: DeliveryPreferences, delayMs: number, pick: (min: number, max: number) => number): Delivery | undefined {
  const delay = asked.delay === undefined ? delayMs : pick(asked.delay.min, asked.delay.max);
  if (asked.fault === undefined && delay === 0) return undefined;
  return { delayMs: delay, fault: asked.fault };
}

/** Splits at `separator` where it is not inside a quoted string (RFC 9110, section 5.6.4: `\` escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unquote(word: string): string {
  return word.length >= 2 && word.startsWith('"') && word.endsWith('"') ? word.slice(1, -1).replace(/\\(.)/g, '$1') : word;
}
