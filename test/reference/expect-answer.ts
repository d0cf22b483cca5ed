/**
 * One assertion for every answer of the reference server, with or without a socket: the status
 * docs/DESIGN.md decides, `application/json`, a body that the contract's declared response for that
 * status accepts, an Error whose `error` is the status and whose message names the problem, the
 * declared headers, and for a 200 the plant as stored (decision 3), id digit for digit.
 */
import { expect } from 'vitest';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, parseJson, type JsonValue, type OperationContract } from '../../src/openapi/index.js';
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

export type Expected =
  | { readonly status: 200; readonly plant: ExpectedPlant }
  | {
      readonly status: number;
      readonly code: ErrorCode;
      /** Parts of the Error's message, in any order: the fields or the problem it must name. */
      readonly message: string | readonly string[];
      /** Headers the answer must carry with exactly these values (lower-case names). */
      readonly headers?: Readonly<Record<string, string>>;
    };

export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** The catalogue code, where the answer came without a socket. */
  readonly code?: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The validator for a status: the operation's declared response, or for the statuses that come
 * before any operation is chosen (404, 405, transport errors) the Error the operation declares
 * for its own error status - every non-200 answer is that Error (docs/DESIGN.md, decision 4).
 */
export function validatorFor(status: number): (value: JsonValue) => { valid: boolean; issues: readonly unknown[] } {
  const declared = addPlant.response(status) ?? addPlant.response(addPlant.declaredStatuses.find((s) => s >= 400) ?? 400);
  const validate = declared?.validateBody;
  if (!validate) throw new Error(`openapi.yaml declares no JSON body for ${status} or for the operation's error status`);
  return validate;
}

export function expectAnswer(answer: Answer, expected: Expected, options: { readonly bodyOmitted?: boolean } = {}): void {
  expect(answer.status, answer.body).toBe(expected.status);
  expect(answer.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase()).toBe('application/json');
  for (const [name, header] of addPlant.response(answer.status)?.headers ?? []) {
    if (header.required) expect(answer.headers[name], `declared header ${name}`).toBeTruthy();
  }
  if (answer.status === 401) expect(answer.headers['www-authenticate']).toMatch(/^Bearer\b/);
  if (!('plant' in expected)) {
    for (const [name, value] of Object.entries(expected.headers ?? {})) expect(answer.headers[name]).toBe(value);
    if (answer.code !== undefined) expect(answer.code).toBe(expected.code);
  }
  // A HEAD answer carries the headers of the GET answer but no body (RFC 9110, section 9.3.2).
  if (options.bodyOmitted === true) {
    expect(answer.body).toBe('');
    return;
  }
  const value = parseJson(answer.body);
  const validation = validatorFor(answer.status)(value);
  expect(validation.issues, answer.body).toEqual([]);
  expect(validation.valid).toBe(true);
  if (!isJsonObject(value)) throw new Error(`not an object: ${answer.body}`);
  if ('plant' in expected) {
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
    const error = value.error;
    expect(isLosslessNumber(error) ? exactInteger(error) : error).toBe(BigInt(answer.status));
    for (const part of typeof expected.message === 'string' ? [expected.message] : expected.message) expect(value.message).toEqual(expect.stringContaining(part));
  }
}

/** The body as a string, failing when the server wrote bytes that are not UTF-8. */
export function decodeBody(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
