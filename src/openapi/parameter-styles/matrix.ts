/**
 * The `matrix` style (OpenAPI 3.1, section 4.8.12.4; RFC 6570's `{;var}`), in the path:
 * `;color=blue` (`;color` when empty); an array `;color=blue,black,brown`, exploded
 * `;color=blue;color=black;color=brown`; an object `;color=R,100,G,200`, exploded `;R=100;G=200`.
 */
import { isObjectTexts, type ParameterStyle, type StyledParameter, type StyleProblem, type StyleValue } from './style.js';
import { decodeAt, encodeItems, flatTexts, valueOfRaws } from './wire.js';

/** The value of `name=value` (or of a bare `name`: empty) when the part names the parameter. */
function valueNamed(parameter: StyledParameter, piece: string): string | StyleProblem {
  const at = piece.indexOf('=');
  const name = decodeAt('path', at < 0 ? piece : piece.slice(0, at));
  if (name !== parameter.name) return { styleProblem: `names ${JSON.stringify(typeof name === 'string' ? name : piece)}, not ${parameter.name} (the matrix style)` };
  return at < 0 ? '' : piece.slice(at + 1);
}

function parseMatrix(parameter: StyledParameter, text: string): StyleValue | StyleProblem {
  if (!text.startsWith(';')) return { styleProblem: 'does not begin with ";" (the matrix style)' };
  const pieces = text.slice(1).split(';');
  if (parameter.shape === 'object' && parameter.explode) return valueOfRaws(parameter, pieces, true);
  const raws: string[] = [];
  for (const piece of pieces) {
    const raw = valueNamed(parameter, piece);
    if (typeof raw !== 'string') return raw;
    raws.push(raw);
  }
  if (parameter.shape === 'primitive' || parameter.explode) return valueOfRaws(parameter, raws, false);
  if (raws.length !== 1) return { styleProblem: 'given more than once (the matrix style, not exploded)' };
  return valueOfRaws(parameter, (raws[0] as string).split(','), false);
}

export const matrixStyle: ParameterStyle = {
  name: 'matrix',
  locations: ['path'],
  shapes: ['primitive', 'array', 'object'],
  parse: (parameter, { request }) => {
    const text = request.path[parameter.name];
    return text === undefined ? undefined : parseMatrix(parameter, text);
  },
  serialise: (parameter, value) => {
    const named = (text: string): string => `;${encodeItems(parameter, [parameter.name]).join('')}${text === '' ? '' : `=${text}`}`;
    if (isObjectTexts(value) && parameter.explode) return { text: value.entries.map(([name, text]) => `;${encodeItems(parameter, [name]).join('')}=${encodeItems(parameter, [text]).join('')}`).join('') };
    if (Array.isArray(value) && parameter.explode) return { text: encodeItems(parameter, value).map(named).join('') };
    return { text: named(encodeItems(parameter, flatTexts(value)).join(',')) };
  },
};
