/**
 * The `deepObject` style (OpenAPI 3.1, section 4.8.12.4), in the query, for objects, exploded:
 * a pair per property, `color[R]=100&color[G]=200` (written `color%5BR%5D=100`; read either way).
 * Nested objects and arrays in properties are not defined by the specification, and not read.
 */
import { isObjectTexts, type ParameterStyle } from './style.js';
import { decodeAt, encodeItems, part } from './wire.js';

export const deepObjectStyle: ParameterStyle = {
  name: 'deepObject',
  locations: ['query'],
  shapes: ['object'],
  explodeOnly: true,
  parse: (parameter, { query }) => {
    const prefix = `${parameter.name}[`;
    const entries: [string, string][] = [];
    for (const pair of query) {
      if (!pair.name.startsWith(prefix) || !pair.name.endsWith(']')) continue;
      const property = pair.name.slice(prefix.length, -1);
      if (entries.some(([name]) => name === property)) return { styleProblem: `property ${property} given more than once` };
      const text = decodeAt('query', pair.raw);
      if (typeof text !== 'string') return text;
      entries.push([property, text]);
    }
    return entries.length === 0 ? undefined : { entries };
  },
  serialise: (parameter, value) => ({
    parts: (isObjectTexts(value) ? value.entries : []).map(([name, text]) => part(parameter, `${parameter.name}[${name}]`, encodeItems(parameter, [text]).join(''))),
  }),
};
