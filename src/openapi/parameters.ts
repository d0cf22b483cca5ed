/**
 * An operation's parameters (OpenAPI 3.1, section 4.8.12): where each is, its schema and style,
 * and the reading of a concrete request's path segments, query string and headers into typed
 * values. Each parameter's style (parameter-styles/) turns its text into items; this file types
 * them by the schema. The kit serves the styles OpenAPI gives by default - `simple` for path and
 * header parameters, `form` for query parameters (exploded or not), arrays included; a contract
 * that asks for another style, a cookie parameter, `content` instead of `schema` or an
 * object-valued parameter is refused when it is loaded (contract.ts), never served half.
 *
 * Numbers stay exact: an integer parameter is kept as its decimal text (a LosslessNumber), so an
 * int64 key never passes through a double.
 */
import { LosslessNumber, type JsonValue } from './json.js';
import { DEFAULT_STYLE, isStyleProblem, parameterStyle, type ParameterLocation, type ParameterStyle, type RequestParameters } from './parameter-styles/index.js';
import { asRecord, type BodyValidator, type RefuseFeature, type Schema } from './types.js';

export type { ParameterLocation, RequestParameters } from './parameter-styles/index.js';

/** The type a parameter's text is read as (an array's items, for an array). */
export type ParameterScalar = 'integer' | 'number' | 'boolean' | 'string';

export interface ParameterContract {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** The schema with `$ref`s followed. */
  readonly schema: Schema;
  /** The name of its style: `simple` (path, header) or `form` (query) today. */
  readonly style: string;
  /** Its style, which reads and writes its text (parameter-styles/). */
  readonly serialization: ParameterStyle;
  readonly explode: boolean;
  /** Whether the value is a list (an array schema). */
  readonly array: boolean;
  readonly scalar: ParameterScalar;
  readonly validate: BodyValidator;
  /** Where it is declared (a JSON pointer into the document). */
  readonly pointer: string;
}

export type ParameterValues = Readonly<Record<string, JsonValue>>;

/** A request's parameters as typed values, by location and name (header names in lower case). */
export interface ParsedParameters {
  readonly path: ParameterValues;
  readonly query: ParameterValues;
  readonly header: ParameterValues;
}

/** A parameter the request got wrong: the message names it (`query parameter limit: must be an integer`). */
export interface ParameterProblem {
  readonly problem: string;
}

export const NO_PARAMETERS: ParsedParameters = Object.freeze({ path: Object.freeze({}), query: Object.freeze({}), header: Object.freeze({}) });

/** OpenAPI 3.1, section 4.8.12.1: these header parameters SHALL be ignored (other fields describe them). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * A request header the kit reserves (each test's own store in the reference: docs/reference-server.md),
 * as the admin path is reserved: a contract may not declare it.
 */
export const SESSION_HEADER = 'plant-store-session';

/** What compiling a parameter needs of the contract around it. */
export interface ParameterSources {
  readonly resolve: (schema: Schema) => Schema;
  readonly validatorAt: (pointer: string) => BodyValidator;
  readonly pointerOf: (schema: Schema, fallback: string) => string;
  /** Where a parameter reached through $refs is: at the end of its $refs, else `fallback`. */
  readonly locate: (object: Schema, fallback: string) => string;
  readonly refuse: RefuseFeature;
}

/**
 * The parameters of an operation: those of its path item, overridden by its own of the same name
 * and location (section 4.8.10). Header parameters OpenAPI ignores are left out.
 */
export function compileParameters(pathLevel: unknown, operationLevel: unknown, base: { path: string; operation: string }, sources: ParameterSources): ParameterContract[] {
  const byKey = new Map<string, ParameterContract>();
  const add = (list: unknown, at: string): void => {
    (Array.isArray(list) ? list : []).forEach((raw, index) => {
      const parameter = compileParameter(asRecord(raw), `${at}/parameters/${index}`, sources);
      if (parameter) byKey.set(`${parameter.in} ${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`, parameter);
    });
  };
  add(pathLevel, base.path);
  add(operationLevel, base.operation);
  return [...byKey.values()];
}

function compileParameter(raw: Schema, declaredAt: string, sources: ParameterSources): ParameterContract | undefined {
  const pointer = sources.locate(raw, declaredAt);
  const refused = (feature: string, where: string): ParameterContract | undefined => {
    sources.refuse(feature, where);
    return undefined;
  };
  const parameter = sources.resolve(raw);
  const name = String(parameter.name);
  const location = String(parameter.in);
  if (location === 'cookie') return refused(`the cookie parameter ${name}`, pointer);
  if (location !== 'path' && location !== 'query' && location !== 'header') return refused(`a parameter in ${location}`, pointer);
  if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  if (location === 'header' && name.toLowerCase() === SESSION_HEADER) return refused(`the header parameter ${name}, reserved by the kit for sessions`, pointer);
  const style = typeof parameter.style === 'string' ? parameter.style : DEFAULT_STYLE[location];
  const serialization = parameterStyle(style, location);
  if (serialization === undefined) return refused(`the ${style} style of ${location} parameter ${name}`, `${pointer}/style`);
  if (parameter.content !== undefined || parameter.schema === undefined) return refused(`${location} parameter ${name} described by content rather than schema`, pointer);
  const schemaAt = sources.pointerOf(asRecord(parameter.schema), `${pointer}/schema`);
  const schema = sources.resolve(asRecord(parameter.schema));
  const array = schema.type === 'array';
  const scalarSchema = array ? sources.resolve(asRecord(schema.items)) : schema;
  const scalar = scalarOf(scalarSchema.type);
  if (scalar === undefined) return refused(`${location} parameter ${name} of type ${JSON.stringify(scalarSchema.type)} (the kit reads integer, number, boolean, string and arrays of them)`, `${pointer}/schema`);
  return {
    name,
    in: location,
    required: location === 'path' || parameter.required === true,
    schema,
    style,
    serialization,
    // Section 4.8.12.4: explode defaults to true for form, false otherwise.
    explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
    array,
    scalar,
    validate: sources.validatorAt(schemaAt),
    pointer,
  };
}

function scalarOf(type: unknown): ParameterScalar | undefined {
  if (type === undefined) return 'string';
  // `[T, "null"]` (3.1's nullable, and what the upgrader makes of 3.0's `nullable: true`): a
  // parameter's text is never JSON null, so it reads as T, and the schema still accepts it.
  if (Array.isArray(type)) return type.length === 2 && type.includes('null') ? scalarOf(type.find((item) => item !== 'null')) : undefined;
  return type === 'integer' || type === 'number' || type === 'boolean' || type === 'string' ? type : undefined;
}

/** JSON's number grammar (RFC 8259, section 6): text the kit reads as a number, exactly. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A parameter's text as its typed value; text that is not of the type stays text, for the schema to refuse by name. */
function typed(text: string, scalar: ParameterScalar): JsonValue {
  if (scalar === 'integer' || scalar === 'number') return NUMBER_TEXT.test(text) ? new LosslessNumber(text) : text;
  if (scalar === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function label(parameter: ParameterContract): string {
  return `${parameter.in} parameter ${parameter.name}`;
}

/** Reads and validates every parameter of an operation from a request. */
export function parseParameters(parameters: readonly ParameterContract[], request: RequestParameters): ParsedParameters | ParameterProblem {
  if (parameters.length === 0) return NO_PARAMETERS;
  const query = parameters.some((parameter) => parameter.in === 'query') ? new URLSearchParams(request.query) : undefined;
  const source = { request, query };
  const parsed = { path: {} as Record<string, JsonValue>, query: {} as Record<string, JsonValue>, header: {} as Record<string, JsonValue> };
  for (const parameter of parameters) {
    const texts = parameter.serialization.parse(parameter, source);
    if (isStyleProblem(texts)) return { problem: `${label(parameter)}: ${texts.styleProblem}` };
    if (texts.length === 0) {
      if (parameter.required) return { problem: `${label(parameter)}: is required` };
      continue;
    }
    const value = parameter.array ? texts.map((text) => typed(text, parameter.scalar)) : typed(texts[0] as string, parameter.scalar);
    const validation = parameter.validate(value);
    if (!validation.valid) {
      const issues = validation.issues.map((issue) => `${label(parameter)}${issue.field === 'body' ? '' : ` item ${issue.field}`}: ${issue.message}`);
      return { problem: [...new Set(issues)].join('; ') };
    }
    parsed[parameter.in][parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name] = value;
  }
  return parsed;
}

export function isParameterProblem(value: ParsedParameters | ParameterProblem): value is ParameterProblem {
  return 'problem' in value;
}
