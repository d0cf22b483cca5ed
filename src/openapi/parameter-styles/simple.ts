/**
 * The `simple` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{var}`), the default in the path
 * and in headers: a scalar as it is, an array's items separated by commas. `explode` changes
 * nothing for a scalar or an array. A path segment is percent-encoded; a header field is not.
 */
import type { ParameterStyle } from './style.js';

export const simpleStyle: ParameterStyle = {
  name: 'simple',
  locations: ['path', 'header'],
  parse: (parameter, { request }) => {
    if (parameter.in === 'path') {
      const raw = request.path[parameter.name];
      if (raw === undefined) return [];
      try {
        // Split before decoding: a `%2C` is a comma inside an item.
        return (parameter.array ? raw.split(',') : [raw]).map(decodeURIComponent);
      } catch {
        return { styleProblem: 'not valid percent-encoding' };
      }
    }
    const value = request.headers[parameter.name.toLowerCase()];
    // A field given twice is one list (RFC 9110, section 5.3).
    const text = typeof value === 'string' ? value : value?.join(', ');
    if (text === undefined) return [];
    return parameter.array ? text.split(',').map((item) => item.trim()) : [text.trim()];
  },
  serialise: (parameter, items) => ({ text: parameter.in === 'path' ? items.map(encodeURIComponent).join(',') : items.join(',') }),
};
