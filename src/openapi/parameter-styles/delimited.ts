/**
 * What `spaceDelimited` and `pipeDelimited` share (OpenAPI 3.1, section 4.8.12.4): an array's
 * items, or an object's names and values in turn, in one query pair, separated by a delimiter
 * (`color=blue%20black`, `color=blue%7Cblack`). Defined for explode false only (section 4.8.12.5).
 * The delimiter is read written plainly or percent-encoded (OpenAPI 3.1.1, Appendix E).
 */
import type { ParameterStyle } from './style.js';
import { encodeItems, flatTexts, part, valueOfRaws } from './wire.js';

export function delimitedStyle(name: string, delimiter: RegExp, written: string): ParameterStyle {
  return {
    name,
    locations: ['query'],
    shapes: ['array', 'object'],
    explodeOnly: false,
    parse: (parameter, { query }) => {
      const found = query.filter((pair) => pair.name === parameter.name);
      if (found.length === 0) return undefined;
      if (found.length > 1) return { styleProblem: `given ${found.length} times; give it once (the ${name} style)` };
      return valueOfRaws(parameter, (found[0]?.raw ?? '').split(delimiter), false);
    },
    serialise: (parameter, value) => ({ parts: [part(parameter, parameter.name, encodeItems(parameter, flatTexts(value)).join(written))] }),
  };
}
