/**
 * The seven named checks of docs/conform.md, each a pure function of the request, what came back and
 * the contract, returning violations as data (never throwing). They ask no more than the
 * contract says: any declared 4xx will do for an invalid request, whatever status the reference
 * implementation happens to use (decision 6).
 */
import { exactInteger, isJsonObject, isLosslessNumber, parseJson, type Contract, type JsonValue, type OperationContract, type Schema } from '../src/openapi/index.js';
import { formatIssues } from '../src/openapi/index.js';
import { codePointsOf } from './json-text.js';
import type { CheckName, CheckOptions, HttpOutcome, RequestCase, Violation } from './types.js';

export type Check = (request: RequestCase, outcome: HttpOutcome, contract: Contract, options?: CheckOptions) => Violation[];

type Response = Extract<HttpOutcome, { kind: 'response' }>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type without parameters, lower case (RFC 9110, section 8.3.1). */
export function essence(contentType: string | undefined): string {
  return (contentType?.split(';', 1)[0] ?? '').trim().toLowerCase();
}

const decoded = new WeakMap<Uint8Array, { value: JsonValue } | { error: string }>();

/** A body as JSON, strictly (UTF-8, RFC 8259), parsed once per body however many checks ask. */
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

function operationOf(contract: Contract, request: RequestCase): OperationContract | undefined {
  return contract.findOperation(request.method, request.path);
}

/** The start of a body, for messages. */
export function excerpt(bytes: Uint8Array, max = 200): string {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.length === 0) return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
}

function schemaName(schema: Schema | undefined): string {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? (/[^/]+$/.exec(ref)?.[0] ?? 'schema') : 'the declared schema';
}

function isServerError(outcome: HttpOutcome): boolean {
  return outcome.kind === 'failure' || outcome.status >= 500;
}

const INVALID_LABELS = new Set(['invalid-body', 'malformed-json', 'bad-media-type']);

function describeRequest(request: RequestCase): string {
  return request.variant ? `${request.label} request (${request.variant})` : `${request.label} request`;
}

/** Whether a check has anything to say about an exchange: the requests a report counts for it. */
export function checkApplies(name: CheckName, request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): boolean {
  if (name === 'no-server-error') return true;
  if (outcome.kind !== 'response') return false;
  switch (name) {
    case 'response-shape':
      return operationOf(contract, request)?.response(outcome.status) !== undefined;
    case 'status-declared':
      return operationOf(contract, request) !== undefined;
    case 'accepts-valid':
      return request.label === 'valid' && !isServerError(outcome);
    case 'rejects-invalid':
      return INVALID_LABELS.has(request.label) && !isServerError(outcome);
    case 'requires-auth':
      return request.label === 'bad-auth' && !isServerError(outcome);
    case 'echo':
      return options.profile !== 'mock' && request.label === 'valid' && outcome.status >= 200 && outcome.status < 300;
  }
}

/** `response-shape`: the body and media type are the ones the contract declares for the status (a Plant for 200, an Error otherwise); declared required headers are there. */
export const responseShape: Check = (request, outcome, contract, options) => {
  if (!checkApplies('response-shape', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const declared = operationOf(contract, request)?.response(response.status);
  if (!declared) return [];
  const violations: Violation[] = [];
  const fail = (message: string): void => {
    violations.push({ check: 'response-shape', message: `status ${response.status}: ${message}` });
  };
  for (const [name, header] of declared.headers) {
    if (header.required && response.headers[name] === undefined) fail(`the ${name} header the contract declares as required is missing`);
  }
  if (declared.mediaTypes.length === 0) return violations;
  const type = response.headers['content-type'];
  if (!declared.mediaTypes.some((t) => t.toLowerCase() === essence(type))) {
    fail(`Content-Type is ${type === undefined ? 'missing' : `"${type}"`}; the contract declares ${declared.mediaTypes.join(' or ')}`);
  }
  if (declared.validateBody) {
    const parsed = decodeJson(response.body);
    if ('error' in parsed) {
      fail(`the body is ${parsed.error}, not ${schemaName(declared.schema)}: ${excerpt(response.body)}`);
    } else {
      const validation = declared.validateBody(parsed.value);
      if (!validation.valid) fail(`the body is not ${schemaName(declared.schema)} (${formatIssues(validation.issues)}): ${excerpt(response.body)}`);
    }
  }
  return violations;
};

/** `status-declared`: the status is declared for the operation (exactly, by an NXX range, or by `default`). */
export const statusDeclared: Check = (request, outcome, contract, options) => {
  if (!checkApplies('status-declared', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const operation = operationOf(contract, request);
  if (!operation || operation.response(response.status)) return [];
  return [{ check: 'status-declared', message: `status ${response.status} is not declared for ${operation.method} ${operation.path} (declared: ${operation.responses.map((r) => r.status).join(', ')}); ${describeRequest(request)}; body: ${excerpt(response.body)}` }];
};

function successStatuses(operation: OperationContract | undefined): number[] {
  const declared = operation?.declaredStatuses.filter((s) => s >= 200 && s < 300) ?? [];
  return declared.length > 0 ? declared : [200];
}

/** `accepts-valid`: a valid request with valid credentials gets the declared success status (rule 1: 200). */
export const acceptsValid: Check = (request, outcome, contract, options) => {
  if (!checkApplies('accepts-valid', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const expected = successStatuses(operationOf(contract, request));
  if (expected.includes(response.status)) return [];
  return [{ check: 'accepts-valid', message: `${describeRequest(request)} got ${response.status}, expected ${expected.join(' or ')}; body: ${excerpt(response.body)}` }];
};

/** `rejects-invalid`: a request with one thing wrong (body, JSON, media type) gets a 4xx the contract declares - any of them. */
export const rejectsInvalid: Check = (request, outcome, contract, options) => {
  if (!checkApplies('rejects-invalid', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const operation = operationOf(contract, request);
  const declared = operation?.response(response.status);
  if (response.status >= 400 && response.status < 500 && declared !== undefined && declared.status !== 'default') return [];
  const fourXX = operation?.responses.map((r) => r.status).filter((s) => s.startsWith('4')) ?? [];
  return [{ check: 'rejects-invalid', message: `${describeRequest(request)} got ${response.status}, expected a declared 4xx (${fourXX.join(', ') || 'none declared'}); body: ${excerpt(response.body)}` }];
};

/** A `WWW-Authenticate` value with a challenge for `scheme` (RFC 9110, section 11.6.1; several challenges may be listed). */
export function challenges(header: string | undefined, scheme: string): boolean {
  if (header === undefined) return false;
  return new RegExp(`(^|,)\\s*${scheme}(\\s|,|$)`, 'i').test(header);
}

/**
 * `requires-auth`: missing or wrong credentials get 401 with a `WWW-Authenticate` challenge for
 * the contract's scheme (RFC 6750, section 3), never a success. Malformed credentials may also
 * get 400 (RFC 6750, section 3.1, `invalid_request`).
 */
export const requiresAuth: Check = (request, outcome, contract, options) => {
  if (!checkApplies('requires-auth', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const scheme = operationOf(contract, request)?.security[0]?.[0]?.scheme ?? 'bearer';
  const fail = (message: string): Violation[] => [{ check: 'requires-auth', message: `${describeRequest(request)}: ${message}` }];
  if (response.status >= 200 && response.status < 300) return fail(`accepted with ${response.status}; credentials must be checked`);
  if (response.status === 401) {
    const header = response.headers['www-authenticate'];
    if (challenges(header, scheme)) return [];
    return fail(header === undefined ? 'a 401 without a WWW-Authenticate header (RFC 6750, section 3)' : `a 401 whose WWW-Authenticate "${header}" has no ${scheme} challenge (RFC 6750, section 3)`);
  }
  if (response.status === 400 && request.credentials === 'malformed') return [];
  return fail(`got ${response.status}, expected 401${request.credentials === 'malformed' ? ' (or 400)' : ''}; body: ${excerpt(response.body)}`);
};

/** `no-server-error`: no request gets a 5xx, a reset connection, a timeout or a response that is not HTTP. */
export const noServerError: Check = (request, outcome) => {
  if (outcome.kind === 'failure') return [{ check: 'no-server-error', message: `${describeRequest(request)}: ${outcome.failure} - ${outcome.message}` }];
  if (outcome.status >= 500) return [{ check: 'no-server-error', message: `${describeRequest(request)} got ${outcome.status}; body: ${excerpt(outcome.body)}` }];
  return [];
};

function show(value: JsonValue | undefined): string {
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
function firstDifference(sent: string, got: string): string {
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

/**
 * `echo`: the success body carries what was sent - every property the response schema declares
 * (name, tag) exactly, and every other property of the request schema (id) exactly where present.
 * Not under the `mock` profile: a mock does not store what it was sent.
 */
export const echo: Check = (request, outcome, contract, options) => {
  if (!checkApplies('echo', request, outcome, contract, options)) return [];
  const response = outcome as Response;
  const operation = operationOf(contract, request);
  const requestShape = operation?.requestBody?.shape;
  const responseSchema = operation?.response(response.status)?.schema;
  if (!requestShape || !responseSchema) return [];
  const sent = decodeJson(request.body);
  const got = decodeJson(response.body);
  if (!('value' in sent) || !('value' in got) || !isJsonObject(sent.value) || !isJsonObject(got.value)) return [];
  const sentObject = sent.value;
  const gotObject = got.value;
  const echoed = contract.shapeOf(responseSchema).properties;
  const violations: Violation[] = [];
  for (const key of requestShape.properties.keys()) {
    if (!Object.hasOwn(sentObject, key)) continue;
    const value = sentObject[key] as JsonValue;
    const present = Object.hasOwn(gotObject, key);
    if (!present && !echoed.has(key)) continue;
    const back = present ? gotObject[key] : undefined;
    if (sameJson(value, back)) continue;
    const detail = typeof value === 'string' && typeof back === 'string' ? firstDifference(value, back) : '';
    violations.push({ check: 'echo', message: `${key} was sent as ${show(value)} but came back as ${show(back)}${detail}; ${describeRequest(request)}` });
  }
  return violations;
};

/** The checks by name, in report order. */
export const CHECKS: Readonly<Record<CheckName, Check>> = {
  'response-shape': responseShape,
  'status-declared': statusDeclared,
  'accepts-valid': acceptsValid,
  'rejects-invalid': rejectsInvalid,
  'requires-auth': requiresAuth,
  'no-server-error': noServerError,
  echo,
};

/** Every check on one exchange. */
export function runChecks(request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): Violation[] {
  return Object.values(CHECKS).flatMap((check) => check(request, outcome, contract, options));
}
