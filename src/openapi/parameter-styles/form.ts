/**
 * The `form` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{?var}`), the default in the query:
 * `name=value`; an array exploded (the default) as one pair per item, `name=a&name=b`, or not, as
 * one pair of comma-separated items, `name=a,b`.
 */
import type { ParameterStyle } from './style.js';

export const formStyle: ParameterStyle = {
  name: 'form',
  locations: ['query'],
  parse: (parameter, { query }) => {
    const values = query?.getAll(parameter.name) ?? [];
    if (parameter.array) return parameter.explode ? values : values.flatMap((value) => value.split(','));
    if (values.length > 1) return { styleProblem: `given ${values.length} times; give it once` };
    return values;
  },
  serialise: (parameter, items) => ({ pairs: parameter.explode ? items.map((item) => [parameter.name, item] as const) : [[parameter.name, items.join(',')]] }),
};
