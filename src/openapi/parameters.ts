/**
 * An operation's parameters (OpenAPI 3.1, section 4.8.12): where each is, its schema and style,
 * or the media type that describes it (`content`). Reading a concrete request into typed values,
 * and writing values into a request, is parameter-values.ts's; each style's text is
 * parameter-styles/'s. The kit reads every style of section 4.8.12.4 where it is defined, for
 * primitives, arrays of primitives and objects of primitives, and parameters in the path, the
 * query, headers and cookies. What it cannot read (a style out of its place or for a value it does
 * not define, nested values, a media type no codec serves) is named unchecked (Contract.unchecked)
 * and its text passed through as it is - never a reason to refuse the contract.
 *
 * Numbers stay exact: an integer parameter is kept as its decimal text (a LosslessNumber), so an
 * int64 key never passes through a double.
 */
import type { JsonValue } from './json.js';
import { codecFor, type MediaTypeCodec } from './media-types/index.js';
import { DEFAULT_STYLE, parameterStyle, type ParameterLocation, type ParameterStyle, type StyledParameter } from './parameter-styles/index.js';
import { asRecord, type BodyValidator, type RefuseFeature, type Schema } from './types.js';

export type { ParameterLocation, ParameterShape, RequestParameters } from './parameter-styles/index.js';

/** The type a parameter's text is read as (an array's items, for an array). */
export type ParameterScalar = 'integer' | 'number' | 'boolean' | 'string';

/** How a parameter is read: by its style and schema, as its media type's text (`content`), or passed through unchecked. */
export type ParameterReading = 'style' | 'content' | 'unchecked';

export interface ParameterContract extends StyledParameter {
  readonly required: boolean;
  /** The schema with `$ref`s followed (a `content` parameter's media type's; `{}` when there is none). */
  readonly schema: Schema;
  /** The name of its style (the default for its location when it names none). */
  readonly style: string;
  readonly reading: ParameterReading;
  /** Its style, which reads and writes its text (parameter-styles/); undefined unless read by style. */
  readonly serialization: ParameterStyle | undefined;
  /** A `content` parameter's media type and codec. */
  readonly mediaType?: string;
  readonly codec?: MediaTypeCodec;
  /** Whether the value is a list (an array schema). */
  readonly array: boolean;
  /** A primitive's type, or an array's items'; undefined for an object and a parameter not read by style. */
  readonly scalar: ParameterScalar | undefined;
  /** An object's property types; a property the schema does not declare is read as `additionalScalar`. */
  readonly propertyScalars: ReadonlyMap<string, ParameterScalar>;
  readonly additionalScalar: ParameterScalar;
  /** Section 4.8.12.2, query only: an empty value (`?flag` or `?flag=`) is accepted as it is. */
  readonly allowEmptyValue: boolean;
  /** Undefined when nothing of the value can be checked. */
  readonly validate: BodyValidator | undefined;
  /** Where it is declared (a JSON pointer into the document). */
  readonly pointer: string;
}

export type ParameterValues = Readonly<Record<string, JsonValue>>;

/** A request's parameters as typed values, by location and name (header names in lower case). */
export interface ParsedParameters {
  readonly path: ParameterValues;
  readonly query: ParameterValues;
  readonly header: ParameterValues;
  readonly cookie: ParameterValues;
}

/** A parameter the request got wrong: the message names it (`query parameter limit: must be an integer`). */
export interface ParameterProblem {
  readonly problem: string;
}

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
  /** Told what is served but not checked (Contract.unchecked). */
  readonly unchecked: RefuseFeature;
}

/** The key a parameter's value has among its location's (a header's name in lower case). */
export function parsedKey(parameter: { readonly name: string; readonly in: ParameterLocation }): string {
  return parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
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
      if (parameter) byKey.set(`${parameter.in} ${parsedKey(parameter)}`, parameter);
    });
  };
  add(pathLevel, base.path);
  add(operationLevel, base.operation);
  return [...byKey.values()];
}

const LOCATIONS: readonly string[] = ['path', 'query', 'header', 'cookie'];

/** What a parameter is, whatever reads it: its place and the fields every reading shares. */
type Placed = Pick<ParameterContract, 'name' | 'in' | 'required' | 'allowReserved' | 'allowEmptyValue' | 'pointer' | 'explode' | 'style'>;

function compileParameter(raw: Schema, declaredAt: string, sources: ParameterSources): ParameterContract | undefined {
  const pointer = sources.locate(raw, declaredAt);
  const parameter = sources.resolve(raw);
  const name = String(parameter.name);
  const location = String(parameter.in);
  if (!LOCATIONS.includes(location)) {
    sources.refuse(`a parameter in ${location}`, pointer);
    return undefined;
  }
  const at = location as ParameterLocation;
  if (at === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  if (at === 'header' && name.toLowerCase() === SESSION_HEADER) {
    sources.refuse(`the header parameter ${name}, reserved by the kit for sessions`, pointer);
    return undefined;
  }
  const style = typeof parameter.style === 'string' ? parameter.style : DEFAULT_STYLE[at];
  const placed: Placed = {
    name,
    in: at,
    required: at === 'path' || parameter.required === true,
    // Section 4.8.12.2: both apply to query parameters only.
    allowReserved: at === 'query' && parameter.allowReserved === true,
    allowEmptyValue: at === 'query' && parameter.allowEmptyValue === true,
    pointer,
    // Section 4.8.12.4: explode defaults to true for form, false otherwise.
    explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
    style,
  };
  if (parameter.content !== undefined) return compileContent(placed, asRecord(parameter.content), sources);
  if (parameter.schema === undefined) return unchecked(placed, sources, `${parameterLabel(placed)}, described by neither schema nor content`, pointer);
  return compileStyled(placed, parameter, sources);
}

function compileStyled(placed: Placed, parameter: Schema, sources: ParameterSources): ParameterContract {
  const schemaAt = sources.pointerOf(asRecord(parameter.schema), `${placed.pointer}/schema`);
  const schema = sources.resolve(asRecord(parameter.schema));
  const read = readingOf(schema, sources.resolve);
  if (read === undefined) return unchecked(placed, sources, `${parameterLabel(placed)} of a type the kit does not read from text (it reads primitives, and arrays and objects of them)`, `${placed.pointer}/schema`, schema);
  const style = parameterStyle(placed.style, placed.in);
  if (style === undefined) return unchecked(placed, sources, `the ${placed.style} style of ${parameterLabel(placed)} (not a style of the ${placed.in})`, `${placed.pointer}/style`, schema);
  if (!style.shapes.includes(read.shape) || (style.explodeOnly !== undefined && style.explodeOnly !== placed.explode)) {
    return unchecked(placed, sources, `the ${placed.style} style with explode ${placed.explode} for ${read.shape} ${parameterLabel(placed)} (not defined by OpenAPI)`, `${placed.pointer}/style`, schema);
  }
  return { ...placed, ...read, schema, reading: 'style', serialization: style, array: read.shape === 'array', validate: sources.validatorAt(schemaAt) };
}

function compileContent(placed: Placed, content: Schema, sources: ParameterSources): ParameterContract {
  // Section 4.8.12.3: the map MUST have one entry.
  const [mediaType, rawMedia] = Object.entries(content)[0] ?? [];
  const contentAt = `${placed.pointer}/content`;
  if (mediaType === undefined) return unchecked(placed, sources, `${parameterLabel(placed)}, described by an empty content`, contentAt);
  const codec = codecFor(mediaType);
  if (codec === undefined) return unchecked(placed, sources, `the media type ${mediaType} of ${parameterLabel(placed)} (read as its text, unchecked)`, `${contentAt}/${mediaType.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  const media = asRecord(rawMedia);
  const schemaAt = media.schema === undefined ? undefined : sources.pointerOf(asRecord(media.schema), `${contentAt}/${mediaType.replaceAll('~', '~0').replaceAll('/', '~1')}/schema`);
  const validate = schemaAt !== undefined && codec.validation === 'schema' ? sources.validatorAt(schemaAt) : undefined;
  return { ...placed, ...NOTHING_TYPED, schema: media.schema === undefined ? {} : sources.resolve(asRecord(media.schema)), reading: 'content', serialization: undefined, mediaType, codec, validate };
}

const NOTHING_TYPED = { shape: 'primitive', array: false, scalar: undefined, propertyScalars: new Map<string, ParameterScalar>(), additionalScalar: 'string' } as const;

/** A parameter read as its text, unchecked, and named so (Contract.unchecked). */
function unchecked(placed: Placed, sources: ParameterSources, feature: string, pointer: string, schema: Schema = {}): ParameterContract {
  sources.unchecked(`${feature}: its text is passed through unchecked`, pointer);
  return { ...placed, ...NOTHING_TYPED, schema, reading: 'unchecked', serialization: undefined, validate: undefined };
}

/** How a value of `schema` is read from text: its shape and the types of its texts; undefined for what text cannot carry (nested values, unions). */
function readingOf(schema: Schema, resolve: (schema: Schema) => Schema): Pick<ParameterContract, 'shape' | 'scalar' | 'propertyScalars' | 'additionalScalar' | 'properties'> | undefined {
  const none = { propertyScalars: new Map<string, ParameterScalar>(), additionalScalar: 'string' as const };
  if (schema.type === 'array') {
    const scalar = scalarOf(resolve(asRecord(schema.items)).type);
    return scalar === undefined ? undefined : { shape: 'array', scalar, ...none };
  }
  if (schema.type === 'object' || (schema.type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined))) {
    const propertyScalars = new Map<string, ParameterScalar>();
    for (const [name, property] of Object.entries(asRecord(schema.properties))) {
      const scalar = scalarOf(resolve(asRecord(property)).type);
      if (scalar === undefined) return undefined;
      propertyScalars.set(name, scalar);
    }
    const additional = typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null ? scalarOf(resolve(asRecord(schema.additionalProperties)).type) : 'string';
    if (additional === undefined) return undefined;
    return { shape: 'object', scalar: undefined, propertyScalars, additionalScalar: additional, properties: [...propertyScalars.keys()] };
  }
  const scalar = scalarOf(schema.type);
  return scalar === undefined ? undefined : { shape: 'primitive', scalar, ...none };
}

function scalarOf(type: unknown): ParameterScalar | undefined {
  if (type === undefined) return 'string';
  // `[T, "null"]` (3.1's nullable, and what the upgrader makes of 3.0's `nullable: true`): a
  // parameter's text is never JSON null, so it reads as T, and the schema still accepts it.
  if (Array.isArray(type)) return type.length === 2 && type.includes('null') ? scalarOf(type.find((item) => item !== 'null')) : undefined;
  return type === 'integer' || type === 'number' || type === 'boolean' || type === 'string' ? type : undefined;
}

/** How messages name a parameter: `query parameter limit`. */
export function parameterLabel(parameter: { readonly name: string; readonly in: ParameterLocation }): string {
  return `${parameter.in} parameter ${parameter.name}`;
}
