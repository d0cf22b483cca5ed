/**
 * Which path template of the contract a concrete path falls under. OpenAPI 3.1 (section 4.8.8):
 * a concrete path is matched before a templated one; here literal segments win over templated
 * ones segment by segment, so `/plants/mine` is matched before `/plants/{id}`. A segment may also
 * mix text and parameters (`{id}.json`, `{from}..{to}`: section 4.8.8 lets a template expression
 * stand for part of a segment): it is matched by its literal text, a parameter whose schema lists
 * its values (`enum`, `const`: `{id}{format}` with format `.json` or `.xml`) by one of them, any
 * other by the shortest run of characters that lets the rest fit; it ranks between a literal
 * segment and a whole parameter.
 */
import type { RefuseFeature, Schema } from './types.js';

/** A path parameter's schema, by the template it is in and its name: where a mixed segment reads the values it lists. */
export type PathParameterSchema = (path: string, name: string) => Schema | undefined;

/** A concrete path under a template: the template and the raw text of its templated segments. */
export interface PathMatch {
  readonly template: string;
  /** The raw (percent-encoded) text of each templated segment, by parameter name. */
  readonly values: Readonly<Record<string, string>>;
}

/** A segment of a template: literal text, a whole parameter, or text and parameters mixed. */
type Segment =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'parameter'; readonly name: string }
  | { readonly kind: 'mixed'; readonly pattern: RegExp; readonly names: readonly string[] };

interface Template {
  readonly path: string;
  readonly segments: readonly Segment[];
}

/** How specific a segment is: literal text first, then mixed, then a whole parameter. */
const RANK: Readonly<Record<Segment['kind'], number>> = { literal: 0, mixed: 1, parameter: 2 };

const WHOLE_PARAMETER = /^\{([^{}]+)\}$/;
const NO_VALUES: Readonly<Record<string, string>> = Object.freeze({});

/** The names of a template's parameters, in order (`/plants/{id}` → [`id`]). */
export function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((found) => found[1] as string);
}

/** More specific before less, segment by segment; then the shorter first. */
function compareTemplates(a: Template, b: Template): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const difference = RANK[(a.segments[i] as Segment).kind] - RANK[(b.segments[i] as Segment).kind];
    if (difference !== 0) return difference;
  }
  return a.segments.length - b.segments.length;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a parameter inside a mixed segment matches: one of the texts its schema lists, longest first; else a lazy run. */
function parameterPattern(schema: Schema | undefined): string {
  const listed = schema?.const !== undefined ? [schema.const] : Array.isArray(schema?.enum) ? schema.enum : [];
  const texts = listed.filter((value): value is string | number => typeof value === 'string' || typeof value === 'number').map(String);
  if (texts.length === 0 || texts.length !== listed.length) return '(.+?)';
  return `(${texts.sort((a, b) => b.length - a.length).map(escaped).join('|')})`;
}

/** A segment of a template as written (`plants`, `{id}`, `{id}.json`). */
function segmentOf(segment: string, schemaOf: (name: string) => Schema | undefined): Segment {
  const whole = WHOLE_PARAMETER.exec(segment)?.[1];
  if (whole !== undefined) return { kind: 'parameter', name: whole };
  if (!/\{[^{}]+\}/.test(segment)) return { kind: 'literal', text: segment };
  const names: string[] = [];
  // Each parameter a lazy run of one character or more; the text between matched as written.
  const source = segment.split(/(\{[^{}]+\})/).map((part) => {
    const name = WHOLE_PARAMETER.exec(part)?.[1];
    if (name === undefined) return escaped(part);
    names.push(name);
    return parameterPattern(schemaOf(name));
  });
  return { kind: 'mixed', pattern: new RegExp(`^${source.join('')}$`), names };
}

/** Whether a concrete segment fits a template's, its parameters' raw text put in `values`. */
function fits(segment: Segment, text: string, values: Record<string, string>): boolean {
  if (segment.kind === 'literal') return segment.text === text;
  if (segment.kind === 'parameter') {
    values[segment.name] = text;
    return text !== '';
  }
  const found = segment.pattern.exec(text);
  if (found === null) return false;
  segment.names.forEach((name, i) => (values[name] = found[i + 1] as string));
  return true;
}

/** A matcher over the contract's path templates. */
export function compilePaths(paths: readonly string[], refuse: RefuseFeature, schemaOf: PathParameterSchema = () => undefined): (path: string) => PathMatch | undefined {
  const literal = new Map<string, PathMatch>();
  const templated: Template[] = [];
  for (const path of paths) {
    const segments = path.split('/').map((segment) => segmentOf(segment, (name) => schemaOf(path, name)));
    const stray = path.split('/').find((segment, i) => (segments[i] as Segment).kind === 'literal' && /[{}]/.test(segment));
    if (stray !== undefined) refuse(`the path segment ${stray}, whose braces are not a parameter`, `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (segments.some((segment) => segment.kind !== 'literal')) templated.push({ path, segments });
    // A path without parameters is found by a lookup, with no object made per request.
    else literal.set(path, Object.freeze({ template: path, values: NO_VALUES }));
  }
  templated.sort(compareTemplates);
  return (path) => {
    const exact = literal.get(path);
    if (exact !== undefined || templated.length === 0) return exact;
    const given = path.split('/');
    for (const template of templated) {
      if (template.segments.length !== given.length) continue;
      const values: Record<string, string> = {};
      if (template.segments.every((segment, i) => fits(segment, given[i] as string, values))) return { template: template.path, values };
    }
    return undefined;
  };
}
