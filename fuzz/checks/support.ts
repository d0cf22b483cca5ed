/** Helpers the checks share: reading bodies strictly, naming things in messages, comparing JSON values exactly. */
import { exactInteger, isJsonObject, isLosslessNumber, parseJson, type Contract, type JsonValue, type OperationContract, type Schema } from '../../src/openapi/index.js';
import { codePointsOf } from '../json-text.js';
import type { HttpOutcome, HttpRequest, RequestCase } from '../types.js';

export type Response = Extract<HttpOutcome, { kind: 'response' }>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type without parameters, lower case (RFC 9110, section 8.3.1). */
export function essence(contentType: string | undefined): string {
  return (contentType?.split(';', 1)[0] ?? '').trim().toLowerCase();
}

const decoded = new WeakMap<Uint8Array, { value: JsonValue } | { error: string }>();

/**
 * A body as JSON, strictly (UTF-8, RFC 8259), parsed once per body however many checks ask. A
 * leading byte order mark is skipped, as RFC 8259, section 8.1 lets a parser do: sending one is a
 * finding of its own (the hygiene checks), not a reason to misread the body.
 */
export function decodeJson(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let result = decoded.get(bytes);
  if (!result) {
    result = decodeJsonOnce(bytes);
    decoded.set(bytes, result);
  }
  return result;
}

function decodeJsonOnce(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'not valid UTF-8' };
  }
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The operation a request is for, ignoring its query string. */
export function operationOf(contract: Contract, request: HttpRequest): OperationContract | undefined {
  return contract.findOperation(request.method, request.path.split('?', 1)[0] ?? request.path);
}

/** The start of a body, for messages. */
export function excerpt(bytes: Uint8Array, max = 200): string {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.length === 0) return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
}

export function schemaName(schema: Schema | undefined): string {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? (/[^/]+$/.exec(ref)?.[0] ?? 'schema') : 'the declared schema';
}

/** A 5xx, or no response at all: `no-server-error`'s business, so the other checks stay quiet about it. */
export function isServerError(outcome: HttpOutcome): boolean {
  return outcome.kind === 'failure' || outcome.status >= 500;
}

export function describeRequest(request: RequestCase): string {
  return request.variant ? `${request.kind} request (${request.variant})` : `${request.kind} request`;
}

/** The declared 2xx statuses of an operation; 200 (rule 1) when none is declared. */
export function successStatuses(operation: OperationContract | undefined): number[] {
  const declared = operation?.declaredStatuses.filter((s) => s >= 200 && s < 300) ?? [];
  return declared.length > 0 ? declared : [200];
}

/** Whether the status is a 4xx the operation declares (exactly or by a 4XX range; `default` does not count). */
export function isDeclared4xx(operation: OperationContract | undefined, status: number): boolean {
  const declared = operation?.response(status);
  return status >= 400 && status < 500 && declared !== undefined && declared.status !== 'default';
}

/** A `WWW-Authenticate` value with a challenge for `scheme` (RFC 9110, section 11.6.1; several challenges may be listed). */
export function challenges(header: string | undefined, scheme: string): boolean {
  return header !== undefined && challengeSchemes(header).some((s) => s.toLowerCase() === scheme.toLowerCase());
}

/**
 * The schemes of the challenges a `WWW-Authenticate` value lists, in order (RFC 9110, section
 * 11.6.1: `#challenge`, each `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`). The list is split
 * at commas outside quoted strings; an element that starts with `name=` is a parameter of the
 * challenge before it, any other starts a challenge with its first word. Repeated header lines
 * arrive joined with `, ` (RFC 9110, section 5.3), so they read as one list.
 */
export function challengeSchemes(header: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header.charAt(i);
    if (quoted && c === '\\') {
      current += c + header.charAt(i + 1);
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === ',' && !quoted) {
      elements.push(current);
      current = '';
    } else current += c;
  }
  elements.push(current);
  return elements.flatMap((element) => {
    const text = element.trim();
    if (text === '' || /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(text)) return [];
    const scheme = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?=[ \t]|$)/.exec(text)?.[0];
    return scheme === undefined ? [] : [scheme];
  });
}

export function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const points = codePointsOf(value);
    return points.length > 60 ? `a string of ${points.length} characters starting ${JSON.stringify(points.slice(0, 40).join(''))}` : JSON.stringify(value);
  }
  if (isLosslessNumber(value)) return value.value;
  const text = JSON.stringify(value, (_k, v: unknown) => (isLosslessNumber(v) ? v.value : v));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Where two strings first differ, by code point: enough to see truncation or a mangled astral character. */
export function firstDifference(sent: string, got: string): string {
  const a = codePointsOf(sent);
  const b = codePointsOf(got);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const hex = (c: string | undefined): string => (c === undefined ? 'the end' : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return ` (${a.length} vs ${b.length} code points; first difference at ${i}: sent ${hex(a[i])}, got ${hex(b[i])})`;
}

/**
 * Whether `got` is `sent` (RFC 8259 values): strings code point for code point, integers as exact
 * integers whatever their spelling (1e2 is 100), and an integer may come back as the string of its
 * decimal digits (a common way to keep int64 exact for JavaScript clients) - but never rounded.
 */
export function sameJson(sent: JsonValue, got: JsonValue | undefined): boolean {
  if (got === undefined) return false;
  if (isLosslessNumber(sent)) {
    const integer = exactInteger(sent);
    if (integer !== undefined) {
      if (typeof got === 'string') return got === integer.toString();
      return isLosslessNumber(got) && exactInteger(got) === integer;
    }
    return isLosslessNumber(got) && Number(got.value) === Number(sent.value);
  }
  if (typeof sent !== 'object' || sent === null) return sent === got;
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((item, i) => sameJson(item, got[i]));
  if (!isJsonObject(got)) return false;
  const keys = Object.keys(sent);
  return keys.length === Object.keys(got).length && keys.every((k) => Object.hasOwn(got, k) && sameJson(sent[k] as JsonValue, got[k]));
}
