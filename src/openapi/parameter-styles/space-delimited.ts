/** The `spaceDelimited` style (OpenAPI 3.1, section 4.8.12.4): `color=blue%20black%20brown`; a `+` is a space too (form-urlencoded). */
import { delimitedStyle } from './delimited.js';

export const spaceDelimitedStyle = delimitedStyle('spaceDelimited', /%20|\+| /i, '%20');
