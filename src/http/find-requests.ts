/**
 * Asserting on a request journal from a test (vitest, Playwright, node:test - no framework
 * assumed): `findRequests` gives the entries a matcher matches, as data; `assertRequests` throws
 * unless exactly `times` match, with a message that lists what the journal holds, so a failing
 * test says what was sent instead.
 *
 *   assertRequests(mock, { method: 'POST', path: '/plants', body: { name: 'Fern' } });      // sent once
 *   expect(findRequests(mock, { outcome: 'refused', status: 401 })).toHaveLength(0);
 *
 * A body pattern is matched against the body parsed as JSON, losslessly: members given must be
 * there and match, members not given may be there too; an array matches an array of the same
 * length, element by element; a number matches the same number exactly (a bigint for an int64 id
 * beyond 2^53: `{ id: 9223372036854775807n }`).
 */
import { exactInteger, isLosslessNumber, parseJson, type JsonValue } from '../openapi/portable.js';
import type { JournalVerdict } from './exchange.js';
import type { JournalBody, JournalEntry } from './journal.js';

/** A JSON value to match a body against: what is given must match, members not given may be there too. */
export type JsonPattern = string | number | bigint | boolean | null | readonly JsonPattern[] | { readonly [member: string]: JsonPattern };

export interface RequestMatcher {
  /** The method, exactly (`POST`). */
  readonly method?: string;
  /** The path without the query: exactly, or a RegExp it matches. */
  readonly path?: string | RegExp;
  /** Header values as journaled (lower-case names; credentials masked: `authorization: 'Bearer ***'`): exactly, or a RegExp. */
  readonly headers?: Readonly<Record<string, string | RegExp>>;
  /** An object or array: the body as JSON contains it; a string: the body's exact text; a RegExp: the text matches. */
  readonly body?: JsonPattern | RegExp;
  /** The verdict's outcome: `accepted`, `refused`, `preflight`, `defect` (the kit's servers); `passed`, `warned`, `violated`, `not-judged` (the proxy). */
  readonly outcome?: string;
  /** The rule that refused it (`credentials`, `schema`, `prefer`, …). */
  readonly rule?: string;
  /** A check with a finding on it (`echo`, `status-declared`, …; the proxy's verdicts). */
  readonly check?: string;
  /** The status of the answer. */
  readonly status?: number;
}

/** A journal's entries, or a server that keeps one (`startMock()`, `startReference({ journal: true })`). */
export type JournalSource<V extends JournalVerdict = JournalVerdict> = readonly JournalEntry<V>[] | { requests(): readonly JournalEntry<V>[] };

/** The entries the matcher matches, oldest first. */
export function findRequests<V extends JournalVerdict>(source: JournalSource<V>, matcher: RequestMatcher): JournalEntry<V>[] {
  return entriesOf(source).filter((entry) => matches(entry, matcher));
}

/** Thrown by `assertRequests`; `found` holds the entries that matched. */
export class RequestAssertionError extends Error {
  readonly found: readonly JournalEntry[];

  constructor(message: string, found: readonly JournalEntry[]) {
    super(message);
    this.name = 'RequestAssertionError';
    this.found = found;
  }
}

/** The entries the matcher matches, when exactly `times` do (default once); otherwise a RequestAssertionError listing the journal. */
export function assertRequests<V extends JournalVerdict>(source: JournalSource<V>, matcher: RequestMatcher, times = 1): JournalEntry<V>[] {
  const entries = entriesOf(source);
  const found = entries.filter((entry) => matches(entry, matcher));
  if (found.length === times) return found;
  const held = entries.length === 0 ? 'the journal is empty' : `the journal holds ${String(entries.length)}:\n${entries.map((entry) => `  ${describeEntry(entry)}`).join('\n')}`;
  throw new RequestAssertionError(`expected ${String(times)} ${times === 1 ? 'request' : 'requests'} matching ${describeMatcher(matcher)}, found ${String(found.length)}; ${held}`, found);
}

function entriesOf<V extends JournalVerdict>(source: JournalSource<V>): readonly JournalEntry<V>[] {
  return 'requests' in source ? source.requests() : source;
}

function matches(entry: JournalEntry, matcher: RequestMatcher): boolean {
  const { request, verdict, answer } = entry;
  if (matcher.method !== undefined && request.method !== matcher.method) return false;
  if (matcher.path !== undefined && !textMatches(request.path, matcher.path)) return false;
  if (matcher.outcome !== undefined && verdict.outcome !== matcher.outcome) return false;
  if (matcher.rule !== undefined && !(verdict.outcome === 'refused' && verdict.rule === matcher.rule)) return false;
  if (matcher.check !== undefined && !('findings' in verdict && verdict.findings.some((finding) => finding.check === matcher.check))) return false;
  if (matcher.status !== undefined && answer.status !== matcher.status) return false;
  for (const [name, expected] of Object.entries(matcher.headers ?? {})) {
    const actual = request.headers[name.toLowerCase()];
    if (actual === undefined || !textMatches(actual, expected)) return false;
  }
  if (matcher.body !== undefined) {
    const text = bodyText(request.body);
    if (text === undefined) return false;
    if (matcher.body instanceof RegExp || typeof matcher.body === 'string') return textMatches(text, matcher.body);
    let value: JsonValue;
    try {
      value = parseJson(text);
    } catch {
      return false;
    }
    if (!jsonMatches(value, matcher.body)) return false;
  }
  return true;
}

function textMatches(actual: string, expected: string | RegExp): boolean {
  if (typeof expected === 'string') return actual === expected;
  expected.lastIndex = 0;
  return expected.test(actual);
}

function bodyText(body: JournalBody | null): string | undefined {
  return body === null || !('text' in body) ? undefined : body.text;
}

function jsonMatches(value: JsonValue, pattern: JsonPattern): boolean {
  if (pattern === null || typeof pattern === 'boolean' || typeof pattern === 'string') return value === pattern;
  if (typeof pattern === 'number' || typeof pattern === 'bigint') return isLosslessNumber(value) && sameNumber(value.value, pattern);
  if (isPatternArray(pattern)) return Array.isArray(value) && value.length === pattern.length && pattern.every((element, index) => jsonMatches(value[index] as JsonValue, element));
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) return false;
  return Object.entries(pattern).every(([name, expected]) => Object.hasOwn(value, name) && jsonMatches(value[name] as JsonValue, expected));
}

function isPatternArray(pattern: JsonPattern): pattern is readonly JsonPattern[] {
  return Array.isArray(pattern);
}

/** The same number, exactly: integers as integers (1e2 is 100), others by their double. */
function sameNumber(text: string, pattern: number | bigint): boolean {
  const integer = exactInteger(text);
  if (typeof pattern === 'bigint') return integer === pattern;
  if (Number.isInteger(pattern) && integer !== undefined) return integer === BigInt(pattern);
  return Number(text) === pattern;
}

function describeMatcher(matcher: RequestMatcher): string {
  return JSON.stringify(matcher, (_key, value: unknown) => (value instanceof RegExp ? String(value) : typeof value === 'bigint' ? `${value.toString()}n` : value));
}

/** One line per entry: `#3 POST /plants -> 401, refused by credentials (unauthorized); body {"name":"Fern","id":1}`. */
function describeEntry(entry: JournalEntry): string {
  const outcome = describeVerdict(entry.verdict);
  const text = bodyText(entry.request.body);
  const body = entry.request.body === null ? 'body not read' : text === undefined ? `body of ${String(entry.request.body.bytes)} bytes, not UTF-8` : `body ${text.length > 120 ? `${text.slice(0, 120)}…` : text}`;
  return `#${String(entry.id)} ${entry.request.method} ${entry.request.target} -> ${String(entry.answer.status)}${entry.answer.fault === undefined ? '' : ` (fault=${entry.answer.fault})`}, ${outcome}; ${body}`;
}

/** `refused by credentials (unauthorized)`; for the proxy, `violated: echo, status-declared` or `not-judged (why)`. */
function describeVerdict(verdict: JournalVerdict): string {
  switch (verdict.outcome) {
    case 'refused':
      return `refused by ${verdict.rule} (${verdict.code})`;
    case 'violated':
    case 'warned':
      return `${verdict.outcome}: ${[...new Set(verdict.findings.map((finding) => finding.check))].join(', ')}`;
    case 'not-judged':
      return `not judged (${verdict.reason ?? 'no reason given'})`;
    default:
      return verdict.outcome;
  }
}
