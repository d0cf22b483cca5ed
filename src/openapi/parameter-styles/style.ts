/**
 * What a parameter style is (OpenAPI 3.1, section 4.8.12.4): where it may be used, for which
 * values, how a request's text of a parameter becomes its texts, and how texts become that text
 * again. One file per style beside this one, each listed once in index.ts (docs/DESIGN.md,
 * "Recipes"); the wire's pieces they share (query and cookie pairs, percent-encoding) are wire.ts's.
 *
 * A style works on texts: the typed values (integers exact, booleans) are parameters.ts's, from
 * the schema, so that a style never sees a number.
 */

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** What a parameter's value is, by its schema: a primitive, an array of primitives, an object of primitives. */
export type ParameterShape = 'primitive' | 'array' | 'object';

/** What a style needs to know of a parameter. */
export interface StyledParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly explode: boolean;
  readonly shape: ParameterShape;
  /** An object's declared property names: what `form` exploded reads as query (or cookie) names. */
  readonly properties?: readonly string[];
  /** Section 4.8.12.2: reserved characters (RFC 3986, section 2.2) go unencoded in the query. */
  readonly allowReserved?: boolean;
}

/** What a request gives to read parameters from. */
export interface RequestParameters {
  /** The raw (percent-encoded) text of each templated path segment, by parameter name. */
  readonly path: Readonly<Record<string, string>>;
  /** The query string, without `?`. */
  readonly query: string;
  /** Lower-case names, as node:http gives them; cookie parameters are read from `cookie`. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** A query or cookie pair: its name decoded, its value as the request wrote it (still percent-encoded). */
export interface WirePair {
  readonly name: string;
  readonly raw: string;
}

/** A request's parameters as a style reads them: the query and the cookies split once for all of them. */
export interface StyleSource {
  readonly request: RequestParameters;
  readonly query: readonly WirePair[];
  readonly cookies: readonly WirePair[];
}

/** What the request got wrong about a parameter's text, without its name (`not valid percent-encoding`). */
export interface StyleProblem {
  readonly styleProblem: string;
}

/** An object's properties as texts, in the order the request gives them. */
export interface ObjectTexts {
  readonly entries: readonly (readonly [string, string])[];
}

/** A parameter's value as texts: one text (a primitive), a list (an array), or an object's entries. */
export type StyleValue = string | readonly string[] | ObjectTexts;

/**
 * A parameter as the request carries it: the text of a path segment or a header field, or parts
 * (`name=value`, already percent-encoded) that the query joins with `&` and a Cookie field with `; `.
 */
export type Serialised = { readonly text: string } | { readonly parts: readonly string[] };

export interface ParameterStyle {
  /** Its name in a Parameter Object's `style`. */
  readonly name: string;
  /** Where it may be used (section 4.8.12.4's table of styles). */
  readonly locations: readonly ParameterLocation[];
  /** The values it writes (section 4.8.12.4's table; `deepObject`: objects only). */
  readonly shapes: readonly ParameterShape[];
  /** The one `explode` it is defined for, if only one (section 4.8.12.5: n/a for the other). */
  readonly explodeOnly?: boolean;
  /** The parameter's texts as the request gives them, percent-decoded; undefined when it is absent. */
  parse(parameter: StyledParameter, source: StyleSource): StyleValue | undefined | StyleProblem;
  /** Texts as the request carries them. */
  serialise(parameter: StyledParameter, value: StyleValue): Serialised;
}

export function isStyleProblem(value: StyleValue | undefined | StyleProblem): value is StyleProblem {
  return typeof value === 'object' && !Array.isArray(value) && 'styleProblem' in value;
}

export function isObjectTexts(value: StyleValue): value is ObjectTexts {
  // Not `'entries' in value`: every array has an entries method.
  return typeof value === 'object' && !Array.isArray(value);
}
