/**
 * The parameter styles the kit serves (OpenAPI 3.1, section 4.8.12.4): one per file, each listed
 * once in PARAMETER_STYLES. The reading of a request (parameters.ts) and the writing of one (the
 * typed client) both go through a parameter's style; a style none serves where it is used, or for
 * the parameter's value, is named unchecked when the contract is loaded and its text passed through.
 */
import { deepObjectStyle } from './deep-object.js';
import { formStyle } from './form.js';
import { labelStyle } from './label.js';
import { matrixStyle } from './matrix.js';
import { pipeDelimitedStyle } from './pipe-delimited.js';
import { simpleStyle } from './simple.js';
import { spaceDelimitedStyle } from './space-delimited.js';
import type { ParameterLocation, ParameterStyle } from './style.js';

export * from './style.js';
export { cookiePairs, decodeAt, encodeAt, part, queryPairs } from './wire.js';
export { deepObjectStyle } from './deep-object.js';
export { formStyle } from './form.js';
export { labelStyle } from './label.js';
export { matrixStyle } from './matrix.js';
export { pipeDelimitedStyle } from './pipe-delimited.js';
export { simpleStyle } from './simple.js';
export { spaceDelimitedStyle } from './space-delimited.js';

/** Every parameter style of the kit. Adding one: its file here, and its line in this list. */
export const PARAMETER_STYLES: readonly ParameterStyle[] = [simpleStyle, formStyle, matrixStyle, labelStyle, spaceDelimitedStyle, pipeDelimitedStyle, deepObjectStyle];

/** The style named `name` where it is used, among `styles`; undefined when none serves it there. */
export function parameterStyle(name: string, location: ParameterLocation, styles: readonly ParameterStyle[] = PARAMETER_STYLES): ParameterStyle | undefined {
  return styles.find((style) => style.name === name && style.locations.includes(location));
}

/** The style a parameter has when its declaration names none (section 4.8.12.4). */
export const DEFAULT_STYLE: Readonly<Record<ParameterLocation, string>> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };
