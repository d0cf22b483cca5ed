/**
 * A request's parameters read into typed values, and values written into a request: the one
 * place both sides go through (the reference's and the mock's pipeline read; the typed client
 * writes). A parameter read by style gets its texts from its style (parameter-styles/) and its
 * types from its schema; a `content` parameter's text is decoded by its media type's codec and
 * held to that media type's schema (section 4.8.12.3); an unchecked one is its text as it came.
 *
 * Numbers stay exact: an integer's text becomes a LosslessNumber, never a double.
 */
import { LosslessNumber, stringifyJson, type JsonValue } from './json.js';
import { Malformed } from './media-types/index.js';
import { cookiePairs, decodeAt, encodeAt, isObjectTexts, isStyleProblem, part, queryPairs, type RequestParameters, type Serialised, type StyleSource, type StyleValue } from './parameter-styles/index.js';
import { parsedKey, parameterLabel, type ParameterContract, type ParameterProblem, type ParameterScalar, type ParsedParameters } from './parameters.js';

export const NO_PARAMETERS: ParsedParameters = Object.freeze({ path: Object.freeze({}), query: Object.freeze({}), header: Object.freeze({}), cookie: Object.freeze({}) });

/** JSON's number grammar (RFC 8259, section 6): text the kit reads as a number, exactly. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A parameter's text as its typed value; text that is not of the type stays text, for the schema to refuse by name. */
function typed(text: string, scalar: ParameterScalar): JsonValue {
  if (scalar === 'integer' || scalar === 'number') return NUMBER_TEXT.test(text) ? new LosslessNumber(text) : text;
  if (scalar === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** A parameter's value as read, or why the request got it wrong. */
type Read = { readonly value: JsonValue } | ParameterProblem;

/** A style's texts typed by the parameter's schema; a problem for a property given twice. */
function typedValue(parameter: ParameterContract, value: StyleValue): Read {
  if (typeof value === 'string') return { value: typed(value, parameter.scalar ?? 'string') };
  if (!isObjectTexts(value)) return { value: value.map((text) => typed(text, parameter.scalar ?? 'string')) };
  const seen = new Set<string>();
  for (const [name] of value.entries) {
    if (seen.has(name)) return { problem: `${parameterLabel(parameter)}: property ${name} given more than once` };
    seen.add(name);
  }
  // fromEntries defines own properties: a `__proto__` property stays a property.
  return { value: Object.fromEntries(value.entries.map(([name, text]) => [name, typed(text, parameter.propertyScalars.get(name) ?? parameter.additionalScalar)])) };
}

/** Whether a value is empty text: what allowEmptyValue lets through (`?flag`, `?flag=`). */
function isEmpty(value: StyleValue): boolean {
  return value === '' || (Array.isArray(value) && value.length === 1 && value[0] === '');
}

/** The parameter's text(s) as they came, for what is passed through unchecked: one text, or a list when a name is given more than once. */
function passedThrough(parameter: ParameterContract, source: StyleSource): JsonValue | undefined {
  const { request } = source;
  if (parameter.in === 'path') {
    const raw = request.path[parameter.name];
    if (raw === undefined) return undefined;
    const text = decodeAt('path', raw);
    return typeof text === 'string' ? text : raw;
  }
  if (parameter.in === 'header') {
    const value = request.headers[parameter.name.toLowerCase()];
    return typeof value === 'string' ? value : value?.join(', ');
  }
  const texts = (parameter.in === 'query' ? source.query : source.cookies)
    .filter((pair) => pair.name === parameter.name)
    .map((pair) => {
      const text = decodeAt(parameter.in, pair.raw);
      return typeof text === 'string' ? text : pair.raw;
    });
  return texts.length === 0 ? undefined : texts.length === 1 ? texts[0] : texts;
}

/** A value, or its reasons, as the parameter's schema judges it. */
function validated(parameter: ParameterContract, value: JsonValue): Read {
  const validation = parameter.validate?.(value);
  if (!validation || validation.valid) return { value };
  const issues = validation.issues.map((issue) => `${parameterLabel(parameter)}${issue.field === 'body' ? '' : ` item ${issue.field}`}: ${issue.message}`);
  return { problem: [...new Set(issues)].join('; ') };
}

/** A `content` parameter: its text decoded by its media type's codec, held to that media type's schema. */
function readContent(parameter: ParameterContract, source: StyleSource): Read | undefined {
  const text = passedThrough(parameter, source);
  if (Array.isArray(text)) return { problem: `${parameterLabel(parameter)}: given ${text.length} times; give it once` };
  if (typeof text !== 'string') return undefined;
  const decoded = parameter.codec ? parameter.codec.parse(text) : text;
  if (decoded instanceof Malformed) return { problem: `${parameterLabel(parameter)}: ${decoded.reason}` };
  return validated(parameter, decoded);
}

/** A parameter read by its style, typed by its schema and validated. */
function readStyled(parameter: ParameterContract, source: StyleSource): Read | undefined {
  const texts = parameter.serialization?.parse(parameter, source);
  if (texts === undefined) return undefined;
  if (isStyleProblem(texts)) return { problem: `${parameterLabel(parameter)}: ${texts.styleProblem}` };
  // Section 4.8.12.2: an empty value, where allowEmptyValue allows it, is accepted as it is.
  if (parameter.allowEmptyValue && isEmpty(texts)) return { value: '' };
  const read = typedValue(parameter, texts);
  return 'problem' in read ? read : validated(parameter, read.value);
}

/** One parameter read from the request: its typed value, undefined when absent, or a problem naming it. */
function readParameter(parameter: ParameterContract, source: StyleSource): Read | undefined {
  if (parameter.reading === 'content') return readContent(parameter, source);
  if (parameter.reading === 'style') return readStyled(parameter, source);
  const text = passedThrough(parameter, source);
  return text === undefined ? undefined : { value: text };
}

/** Reads and validates every parameter of an operation from a request. */
export function parseParameters(parameters: readonly ParameterContract[], request: RequestParameters): ParsedParameters | ParameterProblem {
  if (parameters.length === 0) return NO_PARAMETERS;
  const source: StyleSource = {
    request,
    query: parameters.some((parameter) => parameter.in === 'query') ? queryPairs(request.query) : [],
    cookies: parameters.some((parameter) => parameter.in === 'cookie') ? cookiePairs(request.headers.cookie) : [],
  };
  const parsed = { path: {} as Record<string, JsonValue>, query: {} as Record<string, JsonValue>, header: {} as Record<string, JsonValue>, cookie: {} as Record<string, JsonValue> };
  for (const parameter of parameters) {
    const read = readParameter(parameter, source);
    if (read === undefined) {
      // What is passed through unchecked is not held to being there either.
      if (parameter.required && parameter.reading !== 'unchecked') return { problem: `${parameterLabel(parameter)}: is required` };
      continue;
    }
    if ('problem' in read) return read;
    parsed[parameter.in][parsedKey(parameter)] = read.value;
  }
  return parsed;
}

export function isParameterProblem(value: ParsedParameters | ParameterProblem): value is ParameterProblem {
  return 'problem' in value;
}

/** A value as a text: a string as it is, numbers (bigint, LosslessNumber) digit for digit, anything else as JSON. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

/** A value as the texts its parameter's style writes: one text, a list, or an object's entries. */
function styleValueOf(parameter: ParameterContract, value: unknown): StyleValue {
  if (parameter.shape === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value)) return { entries: Object.entries(value).map(([name, item]) => [name, textOf(item)] as const) };
  if (parameter.shape === 'array' || Array.isArray(value)) return (Array.isArray(value) ? (value as unknown[]) : [value]).map(textOf);
  return textOf(value);
}

/** One text placed where the parameter goes, encoded for its location. */
function placedText(parameter: ParameterContract, text: string): Serialised {
  if (parameter.in === 'path' || parameter.in === 'header') return { text: encodeAt(parameter, text) };
  return { parts: [part(parameter, parameter.name, encodeAt(parameter, text))] };
}

/**
 * A parameter's value as the request carries it (section 4.8.12.4): a path segment or header
 * field, or query or cookie parts. A `content` parameter is its media type's text; an unchecked
 * one its text (a list's items each as a pair).
 */
export function serialiseParameter(parameter: ParameterContract, value: unknown): Serialised {
  if (parameter.reading === 'content' && parameter.codec) return placedText(parameter, new TextDecoder().decode(parameter.codec.encode(value)));
  if (parameter.reading === 'style' && parameter.serialization) return parameter.serialization.serialise(parameter, styleValueOf(parameter, value));
  if (Array.isArray(value) && (parameter.in === 'query' || parameter.in === 'cookie')) return { parts: value.map((item) => part(parameter, parameter.name, encodeAt(parameter, textOf(item)))) };
  return placedText(parameter, Array.isArray(value) ? value.map(textOf).join(',') : textOf(value));
}
