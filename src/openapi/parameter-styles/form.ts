/**
 * The `form` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{?var}`), the default in the query
 * and for cookies: `color=blue`; an array exploded (the default) as one pair per item,
 * `color=blue&color=black`, or not, `color=blue,black`; an object `color=R,100,G,200`, exploded as
 * a pair per property, `R=100&G=200` (the properties the schema declares are read). In a Cookie
 * field the pairs are cookie-pairs, `color=blue; color=black` (RFC 6265, section 4.2.1).
 */
import { isObjectTexts, type ParameterStyle, type StyledParameter, type StyleProblem, type StyleValue, type WirePair } from './style.js';
import { decodeAt, encodeItems, flatTexts, pairsAt, part, valueOfRaws } from './wire.js';

/** The one raw value of `name` among `pairs`; a problem when it is given more than once. */
function once(pairs: readonly WirePair[], name: string): string | undefined | StyleProblem {
  const found = pairs.filter((pair) => pair.name === name);
  if (found.length > 1) return { styleProblem: `given ${found.length} times; give it once` };
  return found[0]?.raw;
}

/** An exploded object: a pair per declared property. */
function explodedObject(parameter: StyledParameter, pairs: readonly WirePair[]): StyleValue | undefined | StyleProblem {
  const entries: [string, string][] = [];
  for (const property of parameter.properties ?? []) {
    const raw = once(pairs, property);
    if (raw === undefined) continue;
    if (typeof raw !== 'string') return { styleProblem: `property ${property} ${raw.styleProblem}` };
    const text = decodeAt(parameter.in, raw);
    if (typeof text !== 'string') return text;
    entries.push([property, text]);
  }
  return entries.length === 0 ? undefined : { entries };
}

export const formStyle: ParameterStyle = {
  name: 'form',
  locations: ['query', 'cookie'],
  shapes: ['primitive', 'array', 'object'],
  parse: (parameter, source) => {
    const pairs = pairsAt(parameter, source);
    if (parameter.shape === 'object' && parameter.explode) return explodedObject(parameter, pairs);
    if (parameter.shape === 'array') {
      const raws = pairs.filter((pair) => pair.name === parameter.name).map((pair) => pair.raw);
      return raws.length === 0 ? undefined : valueOfRaws(parameter, parameter.explode ? raws : raws.flatMap((raw) => raw.split(',')), false);
    }
    const raw = once(pairs, parameter.name);
    if (raw === undefined || typeof raw !== 'string') return raw;
    return valueOfRaws(parameter, parameter.shape === 'object' ? raw.split(',') : [raw], false);
  },
  serialise: (parameter, value) => {
    if (isObjectTexts(value) && parameter.explode) return { parts: value.entries.map(([name, text]) => part(parameter, name, encodeItems(parameter, [text]).join(''))) };
    if (Array.isArray(value) && parameter.explode) return { parts: encodeItems(parameter, value).map((text) => part(parameter, parameter.name, text)) };
    return { parts: [part(parameter, parameter.name, encodeItems(parameter, flatTexts(value), ',').join(','))] };
  },
};
