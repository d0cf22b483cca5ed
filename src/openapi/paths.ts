/**
 * Which path template of the contract a concrete path falls under. OpenAPI 3.1 (section 4.8.8):
 * a concrete path is matched before a templated one; here literal segments win over templated
 * ones segment by segment, so `/plants/mine` is matched before `/plants/{id}`. A templated
 * segment is a whole segment (`{id}`); a template that mixes text and a parameter in one
 * segment (`/plants/{id}.json`) is refused when the contract is loaded.
 */
import type { RefuseFeature } from './types.js';

/** A concrete path under a template: the template and the raw text of its templated segments. */
export interface PathMatch {
  readonly template: string;
  /** The raw (percent-encoded) text of each templated segment, by parameter name. */
  readonly values: Readonly<Record<string, string>>;
}

interface Template {
  readonly path: string;
  /** Each segment: its literal text, or the parameter's name (`parameter` true). */
  readonly segments: readonly { readonly text: string; readonly parameter: boolean }[];
}

const WHOLE_PARAMETER = /^\{([^{}]+)\}$/;
const NO_VALUES: Readonly<Record<string, string>> = Object.freeze({});

/** The names of a template's parameters, in order (`/plants/{id}` → [`id`]). */
export function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((found) => found[1] as string);
}

/** Literal before templated, segment by segment; then the shorter first. */
function compareTemplates(a: Template, b: Template): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i] as Template['segments'][number];
    const y = b.segments[i] as Template['segments'][number];
    if (x.parameter !== y.parameter) return x.parameter ? 1 : -1;
  }
  return a.segments.length - b.segments.length;
}

/** A matcher over the contract's path templates. */
export function compilePaths(paths: readonly string[], refuse: RefuseFeature): (path: string) => PathMatch | undefined {
  const literal = new Map<string, PathMatch>();
  const templated: Template[] = [];
  for (const path of paths) {
    const segments = path.split('/').map((segment) => {
      const parameter = WHOLE_PARAMETER.exec(segment)?.[1];
      if (parameter === undefined && /[{}]/.test(segment)) refuse(`the path segment ${segment}, which mixes text and a parameter`, `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return parameter === undefined ? { text: segment, parameter: false } : { text: parameter, parameter: true };
    });
    if (segments.some((segment) => segment.parameter)) templated.push({ path, segments });
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
      const fits = template.segments.every((segment, i) => {
        const text = given[i] as string;
        if (!segment.parameter) return segment.text === text;
        values[segment.text] = text;
        return text !== '';
      });
      if (fits) return { template: template.path, values };
    }
    return undefined;
  };
}
