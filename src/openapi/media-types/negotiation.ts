/**
 * Proactive content negotiation by `Accept` (RFC 9110, section 12.5.1): which of the media types a
 * response offers the client gets. Each offered type takes the quality of the most specific range
 * that matches it (`text/plain;format=flowed` over `text/plain` over `text/*` over `*` + `/*`); the
 * highest quality above 0 wins, and a tie goes to the type declared first. An offered range (a
 * response content key `*` + `/*` or `application/*`) matches every range it overlaps, and is sent
 * as the most specific concrete type the client named within it.
 */
import { mediaTypeEssence } from './essence.js';

/** One member of an Accept field: its type, subtype (either may be `*`), parameters and weight. */
export interface AcceptRange {
  readonly type: string;
  readonly subtype: string;
  /** Parameters but `q`, lower-case names, values as given (unquoted). */
  readonly parameters: ReadonlyMap<string, string>;
  /** The weight, 0 to 1 (RFC 9110, section 12.4.2); 1 when not given. */
  readonly q: number;
}

/** What negotiation chose: the index of the offered type and the concrete media type to send. */
export interface Negotiated {
  readonly index: number;
  readonly mediaType: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The ranges of an Accept field value; a member that is not a media range is skipped (a malformed member is no preference). */
export function parseAccept(field: string): AcceptRange[] {
  const ranges: AcceptRange[] = [];
  for (const member of splitOutsideQuotes(field, ',')) {
    const [range = '', ...rawParameters] = splitOutsideQuotes(member, ';').map((part) => part.trim());
    const slash = range.indexOf('/');
    const type = range.slice(0, slash).toLowerCase();
    const subtype = range.slice(slash + 1).toLowerCase();
    if (slash === -1 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    const parameters = new Map<string, string>();
    let q = 1;
    let valid = true;
    for (const raw of rawParameters) {
      const equals = raw.indexOf('=');
      if (equals === -1) continue;
      const name = raw.slice(0, equals).trim().toLowerCase();
      const value = unquote(raw.slice(equals + 1).trim());
      if (name === 'q') {
        valid = WEIGHT.test(value);
        q = Number(value);
        // Parameters after the weight are accept-extensions (RFC 7231's grammar), not the range's.
        break;
      }
      parameters.set(name, value);
    }
    if (valid) ranges.push({ type, subtype, parameters, q });
  }
  return ranges;
}

/**
 * The offered type the client prefers, by its Accept field (undefined or empty: the first
 * offered); undefined when none is acceptable (a 406).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): Negotiated | undefined {
  const ranges = accept === undefined || accept.trim() === '' ? [] : parseAccept(accept);
  const first = offered[0];
  if (ranges.length === 0) return first === undefined ? undefined : { index: 0, mediaType: concrete(mediaTypeEssence(first), undefined) };
  let best: (Negotiated & { q: number }) | undefined;
  offered.forEach((type, index) => {
    const essence = mediaTypeEssence(type);
    const choice = essence.includes('*') ? forRange(essence, ranges) : forType(type, essence, ranges);
    if (choice !== undefined && choice.q > 0 && (best === undefined || choice.q > best.q)) best = { index, mediaType: choice.mediaType, q: choice.q };
  });
  return best && { index: best.index, mediaType: best.mediaType };
}

/** A concrete offered type: the weight of the most specific range that matches it. */
function forType(type: string, essence: string, ranges: readonly AcceptRange[]): { q: number; mediaType: string } | undefined {
  const slash = essence.indexOf('/');
  const offeredType = essence.slice(0, slash);
  const offeredSubtype = essence.slice(slash + 1);
  const offeredParameters = parseParameters(type);
  let match: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    if (range.type !== '*' && range.type !== offeredType) continue;
    if (range.subtype !== '*' && range.subtype !== offeredSubtype) continue;
    if ([...range.parameters].some(([name, value]) => offeredParameters.get(name) !== value)) continue;
    const specificity = (range.type === '*' ? 0 : 1) + (range.subtype === '*' ? 0 : 1) + range.parameters.size;
    if (match === undefined || specificity > match.specificity) match = { specificity, q: range.q };
  }
  return match && { q: match.q, mediaType: essence };
}

/** An offered range (`*` + `/*`, `application/*`): the best weight among the ranges it overlaps, sent as the most specific type named. */
function forRange(essence: string, ranges: readonly AcceptRange[]): { q: number; mediaType: string } | undefined {
  const [offeredType = '*'] = essence.split('/');
  let best: { q: number; range: AcceptRange } | undefined;
  for (const range of ranges) {
    if (offeredType !== '*' && range.type !== '*' && range.type !== offeredType) continue;
    const better = best === undefined || range.q > best.q || (range.q === best.q && range.subtype !== '*' && best.range.subtype === '*');
    if (better) best = { q: range.q, range };
  }
  return best && { q: best.q, mediaType: concrete(essence, best.range) };
}

/** The type to send for an offered essence (perhaps a range), given the client's range (perhaps none). */
function concrete(essence: string, range: AcceptRange | undefined): string {
  if (!essence.includes('*')) return essence;
  if (range !== undefined && range.type !== '*' && range.subtype !== '*') return `${range.type}/${range.subtype}`;
  const type = range !== undefined && range.type !== '*' ? range.type : essence.split('/')[0];
  // A range the client leaves open is sent as its most generic member (RFC 2046: octet-stream, text/plain).
  return type === 'text' ? 'text/plain' : 'application/octet-stream';
}

function parseParameters(type: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const raw of splitOutsideQuotes(type, ';').slice(1)) {
    const equals = raw.indexOf('=');
    if (equals !== -1) parameters.set(raw.slice(0, equals).trim().toLowerCase(), unquote(raw.slice(equals + 1).trim()));
  }
  return parameters;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** Splits at `separator` outside double-quoted strings (RFC 9110, section 5.6.4). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted && char === '\\') {
      current += char + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.filter((part) => part.trim() !== '');
}
