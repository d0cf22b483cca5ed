/**
 * The wire's pieces the styles share: the query's and the Cookie field's pairs, percent-encoding
 * by location, and the reading of a list of texts as a value of the parameter's shape. Items are
 * split on a style's delimiters before they are decoded, so that an encoded delimiter (`%2C`) is
 * data (OpenAPI 3.1.1, Appendix E); the writing side encodes every delimiter inside an item.
 */
import { isObjectTexts, type ObjectTexts, type ParameterLocation, type StyledParameter, type StyleProblem, type StyleValue, type WirePair } from './style.js';

/** A form-urlencoded component as URLSearchParams decodes it (`+` is a space; a broken escape stays as it is). */
function formDecode(raw: string): string {
  return raw.includes('%') || raw.includes('+') ? (new URLSearchParams(`v=${raw}`).get('v') ?? '') : raw;
}

/** The query's pairs in order (WHATWG URL, application/x-www-form-urlencoded parsing), values left encoded. */
export function queryPairs(query: string): WirePair[] {
  const pairs: WirePair[] = [];
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const at = piece.indexOf('=');
    pairs.push(at < 0 ? { name: formDecode(piece), raw: '' } : { name: formDecode(piece.slice(0, at)), raw: piece.slice(at + 1) });
  }
  return pairs;
}

/** The Cookie field's cookie-pairs (RFC 6265, section 4.2.1: `name=value; name=value`), a quoted value unquoted, values left encoded. */
export function cookiePairs(field: string | readonly string[] | undefined): WirePair[] {
  const text = typeof field === 'string' ? field : field?.join('; ');
  if (text === undefined) return [];
  const pairs: WirePair[] = [];
  for (const piece of text.split(';')) {
    const at = piece.indexOf('=');
    if (at < 0) continue;
    const raw = piece.slice(at + 1).trim();
    pairs.push({ name: piece.slice(0, at).trim(), raw: raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw });
  }
  return pairs;
}

const PERCENT_PROBLEM: StyleProblem = { styleProblem: 'not valid percent-encoding' };

/** A raw text decoded as its location decodes: path and cookie strictly (RFC 3986), the query as forms do, a header not at all. */
export function decodeAt(location: ParameterLocation, raw: string): string | StyleProblem {
  if (location === 'header') return raw;
  if (location === 'query') return formDecode(raw);
  try {
    return decodeURIComponent(raw);
  } catch {
    return PERCENT_PROBLEM;
  }
}

/** Every text decoded, or the first problem. */
export function decodeAll(location: ParameterLocation, raws: readonly string[]): string[] | StyleProblem {
  const texts: string[] = [];
  for (const raw of raws) {
    const text = decodeAt(location, raw);
    if (typeof text !== 'string') return text;
    texts.push(text);
  }
  return texts;
}

/** RFC 3986's reserved characters that do not change how a query is split or decoded (`&`, `=`, `+`, `#` stay encoded). */
const RESERVED_KEPT = /%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B)/gi;

/** A text as its location writes it: percent-encoded (the query leaving reserved characters under allowReserved), a header as it is. */
export function encodeAt(parameter: StyledParameter, text: string): string {
  if (parameter.in === 'header') return text;
  const encoded = encodeURIComponent(text);
  return parameter.in === 'query' && parameter.allowReserved === true ? encoded.replace(RESERVED_KEPT, (escape) => decodeURIComponent(escape)) : encoded;
}

/** Texts encoded, and each `delimiter` inside them too (encodeURIComponent leaves `.`, `!`, `*`...). */
export function encodeItems(parameter: StyledParameter, items: readonly string[], delimiter?: string): string[] {
  return items.map((item) => {
    const encoded = encodeAt(parameter, item);
    return delimiter === undefined || parameter.in === 'header' ? encoded : encoded.split(delimiter).join(`%${delimiter.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  });
}

/** The texts of a value as one flat list: an array's items, an object's names and values in turn (RFC 6570's non-exploded form). */
export function flatTexts(value: StyleValue): string[] {
  if (typeof value === 'string') return [value];
  return isObjectTexts(value) ? value.entries.flatMap(([name, text]) => [name, text]) : [...value];
}

/** An object from names and values in turn (`R,100,G,200`). */
export function entriesOfFlat(texts: readonly string[]): ObjectTexts | StyleProblem {
  if (texts.length % 2 !== 0) return { styleProblem: 'an object needs names and values in pairs' };
  const entries: [string, string][] = [];
  for (let i = 0; i < texts.length; i += 2) entries.push([texts[i] as string, texts[i + 1] as string]);
  return { entries };
}

/** An object from `name=value` texts (`R=100`), each split at its first `=` before decoding. */
export function entriesOfPairs(location: ParameterLocation, raws: readonly string[]): ObjectTexts | StyleProblem {
  const entries: [string, string][] = [];
  for (const raw of raws) {
    const at = raw.indexOf('=');
    if (at < 0) return { styleProblem: `${JSON.stringify(raw)} is not name=value` };
    const decoded = decodeAll(location, [raw.slice(0, at), raw.slice(at + 1)]);
    if (!Array.isArray(decoded)) return decoded;
    entries.push([decoded[0] as string, decoded[1] as string]);
  }
  return { entries };
}

/** Split raw texts as the parameter's shape reads them: one text, a list, or an object (flat names and values, or `name=value` when `named`). */
export function valueOfRaws(parameter: StyledParameter, raws: readonly string[], named: boolean): StyleValue | StyleProblem {
  if (parameter.shape === 'object') {
    if (named) return entriesOfPairs(parameter.in, raws);
    const texts = decodeAll(parameter.in, raws);
    return Array.isArray(texts) ? entriesOfFlat(texts) : texts;
  }
  const texts = decodeAll(parameter.in, raws);
  if (!Array.isArray(texts)) return texts;
  if (parameter.shape === 'array') return texts;
  return texts.length === 1 ? (texts[0] as string) : { styleProblem: `given ${texts.length} times; give it once` };
}

/** The pairs of the query or the Cookie field, by the parameter's location. */
export function pairsAt(parameter: StyledParameter, source: { readonly query: readonly WirePair[]; readonly cookies: readonly WirePair[] }): readonly WirePair[] {
  return parameter.in === 'cookie' ? source.cookies : source.query;
}

/** `name=value` with both encoded for the parameter's location (a cookie's name is a token, written as it is). */
export function part(parameter: StyledParameter, name: string, encodedValue: string): string {
  return `${parameter.in === 'cookie' ? name : encodeAt(parameter, name)}=${encodedValue}`;
}
