/**
 * The `simple` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{var}`), the default in the path
 * and in headers: a primitive as it is, an array's items separated by commas, an object's names
 * and values separated by commas (`R,100,G,200`), or exploded as `R=100,G=200`. A path segment is
 * percent-encoded; a header field is not (its items are trimmed: RFC 9110, section 5.6.1).
 */
import type { ParameterStyle, StyledParameter, StyleSource } from './style.js';
import { encodeItems, flatTexts, valueOfRaws } from './wire.js';
import { isObjectTexts } from './style.js';

/** The parameter's text: a path segment as written, a header field (given twice, one list: RFC 9110, section 5.3). */
function textOf(parameter: StyledParameter, { request }: StyleSource): string | undefined {
  if (parameter.in === 'path') return request.path[parameter.name];
  const value = request.headers[parameter.name.toLowerCase()];
  return typeof value === 'string' ? value : value?.join(', ');
}

export const simpleStyle: ParameterStyle = {
  name: 'simple',
  locations: ['path', 'header'],
  shapes: ['primitive', 'array', 'object'],
  parse: (parameter, source) => {
    const text = textOf(parameter, source);
    if (text === undefined) return undefined;
    const trim = parameter.in === 'header' ? (item: string): string => item.trim() : (item: string): string => item;
    if (parameter.shape === 'primitive') return valueOfRaws(parameter, [trim(text)], false);
    return valueOfRaws(parameter, text.split(',').map(trim), parameter.shape === 'object' && parameter.explode);
  },
  serialise: (parameter, value) => {
    if (isObjectTexts(value) && parameter.explode) return { text: value.entries.map(([name, text]) => `${encodeItems(parameter, [name]).join('')}=${encodeItems(parameter, [text]).join('')}`).join(',') };
    return { text: encodeItems(parameter, flatTexts(value)).join(',') };
  },
};
