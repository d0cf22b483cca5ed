/**
 * What a parameter style is (OpenAPI 3.1, section 4.8.12.4): where it may be used, how a request's
 * text of a parameter becomes its items, and how items become that text again. One file per style
 * beside this one, each listed once in index.ts (docs/DESIGN.md, "Recipes").
 *
 * A style works on texts: the typed values (integers exact, booleans) are parameters.ts's, from
 * the schema, so that a style never sees a number.
 */

export type ParameterLocation = 'path' | 'query' | 'header';

/** What a style needs to know of a parameter. */
export interface StyledParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly explode: boolean;
  /** Whether the value is a list (an array schema). */
  readonly array: boolean;
}

/** What a request gives to read parameters from. */
export interface RequestParameters {
  /** The raw (percent-encoded) text of each templated path segment, by parameter name. */
  readonly path: Readonly<Record<string, string>>;
  /** The query string, without `?`. */
  readonly query: string;
  /** Lower-case names, as node:http gives them. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** A request's parameters as a style reads them: the query parsed once for all of them (undefined when no parameter is in the query). */
export interface StyleSource {
  readonly request: RequestParameters;
  readonly query: URLSearchParams | undefined;
}

/** What the request got wrong about a parameter's text, without its name (`not valid percent-encoding`). */
export interface StyleProblem {
  readonly styleProblem: string;
}

/** A parameter as the request carries it: the text of a path segment or a header field, or query pairs (name, value; not yet percent-encoded). */
export type Serialised = { readonly text: string } | { readonly pairs: readonly (readonly [string, string])[] };

export interface ParameterStyle {
  /** Its name in a Parameter Object's `style`. */
  readonly name: string;
  /** Where it may be used (section 4.8.12.4's table of styles). */
  readonly locations: readonly ParameterLocation[];
  /** The parameter's items as the request gives them, percent-decoded; none when it is absent. A scalar has one. */
  parse(parameter: StyledParameter, source: StyleSource): readonly string[] | StyleProblem;
  /** Items (one for a scalar) as the request carries them. */
  serialise(parameter: StyledParameter, items: readonly string[]): Serialised;
}

export function isStyleProblem(value: readonly string[] | StyleProblem): value is StyleProblem {
  return 'styleProblem' in value;
}
