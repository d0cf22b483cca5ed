/** The `pipeDelimited` style (OpenAPI 3.1, section 4.8.12.4): `color=blue%7Cblack%7Cbrown` (OpenAPI 3.1.1's table; `|` unencoded is read too). */
import { delimitedStyle } from './delimited.js';

export const pipeDelimitedStyle = delimitedStyle('pipeDelimited', /%7C|\|/i, '%7C');
