/**
 * What an answer of a kit server must be, in two strengths:
 * - `shapeViolations`: any answer the contract allows for the request (a Plant for 200, an Error
 *   whose `error` is the status otherwise, application/json, the headers its status requires),
 *   returned as data;
 * - `expectAnswer`: that, and the answer stated for it - the status docs/DESIGN.md decides, an Error's
 *   catalogue code, the problem its message names and its headers, or for a 200 the plant as
 *   stored (decision 3), id digit for digit, or one of the contract's examples (the mock).
 */
import { expect } from 'vitest';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, parseJson, type BodyValidator, type JsonValue, type OperationContract } from '../../src/openapi/index.js';
import type { ErrorCode } from '../../src/http/index.js';

export const contract = loadContract();
const found = contract.findOperation('POST', '/plants');
if (!found) throw new Error('openapi.yaml declares no POST /plants');
export const addPlant: OperationContract = found;

/** The plant a 200 must carry: name and tag as sent, id as its canonical decimal digits. */
export interface ExpectedPlant {
  readonly name: string;
  readonly tag?: string;
  readonly id: string;
}

export interface ExpectedError {
  readonly status: number;
  readonly code: ErrorCode;
  /** Parts of the Error's message, in any order: the fields or the problem it must name. */
  readonly message: string | readonly string[];
  /** Headers the answer must carry with exactly these values (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
}

export type Expected =
  /** The plant as stored (the reference). */
  | { readonly status: 200; readonly plant: ExpectedPlant }
  /** One of the 200 examples openapi.yaml declares (the mock answering from examples). */
  | { readonly status: 200; readonly example: true }
  /** A CORS preflight granted: no body, these headers (the mock). */
  | { readonly status: 204; readonly preflight: true; readonly headers: Readonly<Record<string, string>> }
  | ExpectedError;

export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Text, or the bytes on the wire (which must be UTF-8). */
  readonly body: string | Uint8Array;
  /** The catalogue code, where the answer came without a socket. */
  readonly code?: string | undefined;
}

/** What the answer was to: its method (a HEAD answer has no body) and target (for `Allow`). */
export interface AnsweredRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
}

const POST_PLANTS: AnsweredRequest = { method: 'POST', path: '/plants' };
const utf8 = new TextDecoder('utf-8', { fatal: true });
const errorSchema = contract.validatorForComponent('Error');

/** The body as a string, failing when the server wrote bytes that are not UTF-8. */
export function decodeBody(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : utf8.decode(body);
}

/** The path of a request target: no query, and no scheme and authority in the absolute form (RFC 9112, section 3.2.2). */
export function pathOf(target: string): string {
  return target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split('?', 1)[0] ?? '';
}

/**
 * The validator for a status: the operation's declared response, or for the statuses that come
 * before any operation is chosen (404, 405, transport errors) the contract's Error - every
 * non-200 answer is that Error (docs/DESIGN.md, decision 4).
 */
export function validatorFor(status: number, operation: OperationContract = addPlant): BodyValidator {
  const declared = operation.declaredStatuses.includes(status) ? operation.response(status)?.validateBody : undefined;
  if (declared) return declared;
  if (status === 200) throw new Error('openapi.yaml declares no JSON body for 200');
  return errorSchema;
}

/** Every example openapi.yaml declares for a response of POST /plants: [status, name, value]. */
export function declaredExamples(): [status: number, name: string, value: unknown][] {
  const responses = ((contract.document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)['/plants']?.post?.responses ?? {}) as Record<
    string,
    { content?: { 'application/json'?: { examples?: Record<string, { value: unknown }> } } }
  >;
  return Object.entries(responses).flatMap(([status, response]) =>
    Object.entries(response.content?.['application/json']?.examples ?? {}).map(([name, example]): [number, string, unknown] => [Number(status), name, example.value]),
  );
}

const headerOf = (request: AnsweredRequest, name: string): string | undefined => {
  const value = request.headers?.[name];
  return typeof value === 'string' ? value : value?.[0];
};

/** Why `answer` is not an answer the contract allows for `request` (empty when it is). */
export function shapeViolations(request: AnsweredRequest, answer: Answer): string[] {
  const problems: string[] = [];
  const path = pathOf(request.path);
  let text: string;
  try {
    text = decodeBody(answer.body);
  } catch {
    return ['the body is not UTF-8'];
  }
  if (answer.status === 204) {
    // Only a CORS preflight may get an answer without a body (the mock's; see mock/cors.ts).
    const origin = headerOf(request, 'origin');
    if (request.method !== 'OPTIONS' || origin === undefined || answer.headers['access-control-allow-origin'] !== origin) problems.push('204 to something other than a CORS preflight');
    if (text.length > 0) problems.push('204 with a body');
    return problems;
  }
  const mediaType = (answer.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') problems.push(`content-type ${answer.headers['content-type'] ?? 'missing'}`);
  const operation = contract.findOperation(request.method, path);
  for (const [name, header] of operation?.response(answer.status)?.headers ?? []) {
    if (header.required && answer.headers[name] === undefined) problems.push(`declared header ${name} missing`);
  }
  if (answer.status === 401 && !/^Bearer\b/i.test(answer.headers['www-authenticate'] ?? '')) problems.push('401 without WWW-Authenticate: Bearer');
  if (answer.status === 405 && answer.headers.allow !== contract.methodsFor(path)?.join(', ')) problems.push(`405 with Allow: ${answer.headers.allow ?? 'missing'}`);
  // On the wire a HEAD answer carries the headers of the GET answer but no body (RFC 9110,
  // section 9.3.2); without a socket the app's answer still has the body the socket layer drops.
  if (request.method === 'HEAD' && text === '') return problems;
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch {
    return [...problems, `body is not JSON: ${text.slice(0, 200)}`];
  }
  if (answer.status === 200) {
    const validation = operation?.response(200)?.validateBody?.(body);
    if (validation?.valid !== true) problems.push(`200 body is not a Plant: ${text.slice(0, 200)} ${JSON.stringify(validation?.issues ?? 'no declared 200')}`);
    return problems;
  }
  // Declared statuses (400, 401) by their own schema; the routing and transport statuses by Error.
  const validation = validatorFor(answer.status, operation)(body);
  if (!validation.valid) problems.push(`${answer.status} body is not an Error: ${text.slice(0, 200)} ${JSON.stringify(validation.issues)}`);
  const error = isJsonObject(body) ? body.error : undefined;
  if (!isLosslessNumber(error) || exactInteger(error) !== BigInt(answer.status)) problems.push(`Error.error is not the status ${answer.status}`);
  return problems;
}

/**
 * The answer is one the contract allows for the request (POST /plants unless given) and the one
 * stated: the status, then per kind of answer the plant, the example, the preflight's headers, or
 * the Error's code (where the answer carries it), message parts and headers.
 */
export function expectAnswer(answer: Answer, expected: Expected, request: AnsweredRequest = POST_PLANTS): void {
  const text = decodeBody(answer.body);
  expect(answer.status, text).toBe(expected.status);
  expect(shapeViolations(request, answer)).toEqual([]);
  if ('headers' in expected) for (const [name, value] of Object.entries(expected.headers ?? {})) expect(answer.headers[name], name).toBe(value);
  if ('preflight' in expected || (request.method === 'HEAD' && text === '')) return;
  const value = parseJson(text);
  if (!isJsonObject(value)) throw new Error(`not an object: ${text}`);
  if ('example' in expected) {
    expect(declaredExamples().filter(([status]) => status === 200).map(([, , example]) => example)).toContainEqual(JSON.parse(text));
  } else if ('plant' in expected) {
    const { plant } = expected;
    // Nothing but the stored properties comes back (decision 3).
    expect(Object.keys(value).sort()).toEqual(Object.keys(plant).sort());
    expect(value.name).toBe(plant.name);
    expect(value.tag).toBe(plant.tag);
    const id = value.id;
    expect(isLosslessNumber(id) ? exactInteger(id) : id).toBe(BigInt(plant.id));
    // Digit for digit, in canonical form: never a double's rounding, never `1e2`.
    expect(isLosslessNumber(id) ? id.value : id).toBe(plant.id);
  } else {
    if (answer.code !== undefined) expect(answer.code).toBe(expected.code);
    for (const part of typeof expected.message === 'string' ? [expected.message] : expected.message) expect(value.message).toEqual(expect.stringContaining(part));
  }
}
