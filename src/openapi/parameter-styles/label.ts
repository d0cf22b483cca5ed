/**
 * The `label` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{.var}`), in the path: `.blue`;
 * an array `.blue,black,brown`, exploded `.blue.black.brown`; an object `.R,100,G,200`, exploded
 * `.R=100.G=200` (OpenAPI 3.1.1's table, which follows RFC 6570; 3.1.0's printed `.blue.black` for
 * both). A `.` inside an item is written `%2E`.
 */
import { isObjectTexts, type ParameterStyle } from './style.js';
import { encodeItems, flatTexts, valueOfRaws } from './wire.js';

export const labelStyle: ParameterStyle = {
  name: 'label',
  locations: ['path'],
  shapes: ['primitive', 'array', 'object'],
  parse: (parameter, { request }) => {
    const text = request.path[parameter.name];
    if (text === undefined) return undefined;
    if (!text.startsWith('.')) return { styleProblem: 'does not begin with "." (the label style)' };
    const rest = text.slice(1);
    if (parameter.shape === 'primitive') return valueOfRaws(parameter, [rest], false);
    return valueOfRaws(parameter, rest.split(parameter.explode ? '.' : ','), parameter.shape === 'object' && parameter.explode);
  },
  serialise: (parameter, value) => {
    if (isObjectTexts(value) && parameter.explode) return { text: `.${value.entries.map(([name, text]) => `${encodeItems(parameter, [name], '.').join('')}=${encodeItems(parameter, [text], '.').join('')}`).join('.')}` };
    return { text: `.${encodeItems(parameter, flatTexts(value), '.').join(parameter.explode ? '.' : ',')}` };
  },
};
