/**
 * Walks along the resource patterns real APIs use (src/openapi/resources.ts), for the stateful
 * phase: a key the server assigns (read at run time from the create's answer: the key property of
 * its body, else its `Location`, RFC 9110 section 10.2.2), a collection nested under a parent
 * (the parent is created first, its key fills the child's paths), an update by PATCH (RFC 5789)
 * then a read, and a list after a create. Unlike walks.ts, whose sequences are made whole before
 * they are sent, these carry placeholders the engine fills as the answers come (AnswerBinding).
 */
import { isJsonObject, isLosslessNumber, parseJson, resourcePatterns, stringifyJson, type Contract, type JsonObject, type JsonValue, type ResourcePattern } from '../src/openapi/index.js';
import type { AnswerBinding, HttpOutcome } from './types.js';
import { decodeJson } from './json-values.js';
import { parameterText } from './walks.js';

/** A pattern to walk, with the patterns of its parents (outermost first) whose creates come before its own. */
export interface ResourceWalk {
  readonly pattern: ResourcePattern;
  readonly parents: readonly ResourcePattern[];
  /** The key is not read from a declared link: findings of its sequences are warnings. */
  readonly inferred: boolean;
}

/** The resource walks of a contract: each pattern with a create and an item path, whose parents (if nested) are patterns too. */
export function resourceWalksOf(contract: Contract): ResourceWalk[] {
  const patterns = resourcePatterns(contract);
  return patterns.flatMap((pattern): ResourceWalk[] => {
    if (pattern.item === undefined || pattern.keyParameter === undefined) return [];
    const parents = parentsOf(patterns, pattern);
    return parents === undefined ? [] : [{ pattern, parents, inferred: pattern.keyFrom !== 'link' }];
  });
}

/** The chain of patterns whose items are this collection's parents: `/a/{aId}/b` sits under the pattern whose item is `/a/{aId}`. */
function parentsOf(patterns: readonly ResourcePattern[], pattern: ResourcePattern, depth = 0): ResourcePattern[] | undefined {
  if (pattern.parentParameters.length === 0) return [];
  if (depth > 8) return undefined;
  const parentItem = pattern.collection.slice(0, pattern.collection.lastIndexOf('/'));
  const parent = patterns.find((p) => p.item === parentItem && p.keyParameter === pattern.parentParameters.at(-1));
  const above = parent === undefined ? undefined : parentsOf(patterns, parent, depth + 1);
  return parent === undefined || above === undefined ? undefined : [...above, parent];
}

/** The key an answer gives: the key property of its JSON body, else its `Location` matched against the item's path; undefined where neither does. */
export function keyFromAnswer(binding: AnswerBinding, outcome: HttpOutcome | undefined): string | undefined {
  if (outcome?.kind !== 'response' || outcome.status < 200 || outcome.status >= 300) return undefined;
  const parsed = decodeJson(outcome.body);
  const value = 'value' in parsed && isJsonObject(parsed.value) ? parsed.value[binding.property] : undefined;
  if (isKeyValue(value)) return parameterText(value);
  const location = outcome.headers.location;
  return location === undefined || binding.item === undefined || binding.parameter === undefined ? undefined : keyFromLocation(location, binding.item, binding.parameter);
}

/** The key parameter's segment of a `Location` (absolute or relative, resolved as RFC 3986 section 5 says) whose path ends with the item's template. */
export function keyFromLocation(location: string, item: string, parameter: string): string | undefined {
  let path: string;
  try {
    path = new URL(location, 'http://base.invalid/').pathname.replace(/\/$/, '');
  } catch {
    return undefined;
  }
  const names: string[] = [];
  const pattern = item
    .split('/')
    .map((segment) => segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^/{}]+)\\?\}/g, (_m, name: string) => (names.push(name), '([^/]+)')))
    .join('/');
  const match = new RegExp(`${pattern}$`).exec(path);
  const index = names.indexOf(parameter);
  const segment = match === null || index < 0 ? undefined : match[index + 1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A value a key can be: a string or a number (an int64 kept digit for digit). */
export function isKeyValue(value: JsonValue | undefined): value is JsonValue {
  return typeof value === 'string' || typeof value === 'number' || (value !== undefined && isLosslessNumber(value));
}

/** Why a binding could not be filled, for people. */
export function unresolvedReason(binding: AnswerBinding, outcome: HttpOutcome | undefined): string {
  const answered = outcome === undefined ? 'was not sent' : outcome.kind === 'response' ? `answered ${outcome.status}` : 'got no answer';
  return `the create ${answered} and gave no key: neither a body property ${binding.property} nor a Location matching ${binding.item ?? 'the item path'}`;
}

/** RFC 7396, section 2: MergePatch(Target, Patch) - a null member deletes, an object merges, anything else replaces. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const base: JsonObject = isJsonObject(target) ? target : {};
  const result: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(base)) if (patch[name] !== null) result[name] = value;
  for (const [name, value] of Object.entries(patch)) if (value !== null) result[name] = mergePatch(base[name], value);
  return result;
}

/**
 * What a read must answer after an update: the created resource merged with the patch - by RFC
 * 7396 for a merge patch, member by member for a partial JSON object (RFC 5789 leaves its meaning to
 * the media type, so a member set to null there may be stored or removed: it is left out).
 */
export function updatedResource(created: string, patch: string, merge: boolean): string {
  const before = parseJson(created);
  const change = parseJson(patch);
  if (merge) return stringifyJson(mergePatch(before, change));
  if (!isJsonObject(before) || !isJsonObject(change)) return stringifyJson(change);
  const nulled = new Set(Object.keys(change).filter((name) => change[name] === null));
  const kept = Object.entries({ ...before, ...change }).filter(([name]) => !nulled.has(name));
  return stringifyJson(Object.fromEntries(kept));
}

/** The items of a list's answer: a bare array, or every array property of an envelope object. */
function listItems(body: JsonValue): JsonValue[] {
  if (Array.isArray(body)) return body;
  if (!isJsonObject(body)) return [];
  return Object.values(body).flatMap((value) => (Array.isArray(value) ? value : []));
}

/** Whether a list's answer holds an item whose key property is `text`. */
export function listedIn(outcome: HttpOutcome, key: { readonly property: string; readonly text: string }): boolean | undefined {
  if (outcome.kind !== 'response') return undefined;
  const parsed = decodeJson(outcome.body);
  if (!('value' in parsed)) return undefined;
  return listItems(parsed.value).some((item) => {
    const value = isJsonObject(item) ? item[key.property] : undefined;
    return isKeyValue(value) && parameterText(value) === key.text;
  });
}

/**
 * The next page of a list, as a path and query relative to the request's: a `Link` header's
 * `rel="next"` (RFC 8288), else a string member `next` of the envelope or of an object in it
 * (`{"links": {"next": "..."}}`, `{"next": "..."}`), where it is another page of the same path;
 * undefined on the last page.
 */
export function nextPage(outcome: HttpOutcome, requestPath: string): string | undefined {
  if (outcome.kind !== 'response') return undefined;
  const fromHeader = /<([^>]*)>\s*;[^,]*\brel="?next"?/i.exec(outcome.headers.link ?? '')?.[1];
  const parsed = decodeJson(outcome.body);
  const body = 'value' in parsed && isJsonObject(parsed.value) ? parsed.value : undefined;
  const nested = body === undefined ? [] : Object.values(body).filter(isJsonObject);
  const fromBody = [body, ...nested].map((object) => object?.next).find((value): value is string => typeof value === 'string' && value !== '');
  const next = fromHeader ?? fromBody;
  if (next === undefined) return undefined;
  try {
    const here = new URL(requestPath, 'http://base.invalid/');
    const url = new URL(next, here);
    // Only a page of the same list (its query the page): a link elsewhere is not followed.
    return url.pathname === here.pathname && url.search !== here.search ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}
