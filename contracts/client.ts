/**
 * A small typed client for the Plant Store: `createPlant` posts a NewPlant and resolves with the
 * answer as a discriminated union on the status, each branch typed from openapi.yaml (the types in
 * openapi-types.ts are generated from it). Answers outside the contract - an undeclared status,
 * another media type, a body that does not match the declared schema - are not squeezed into that
 * union: they reject with an `UnexpectedResponseError`.
 *
 * int64 ids are `bigint` on this side of the wire: a NewPlant's id is written digit for digit, and
 * a response's int64 fields are read exactly (src/openapi's lossless JSON). Properties the contract
 * does not declare (such as the `id` the reference implementation echoes) are passed through as
 * parsed, numbers as lossless-json `LosslessNumber`s, so not a digit is lost there either.
 */
import {
  exactInteger,
  formatIssues,
  isJsonObject,
  isLosslessNumber,
  loadContract,
  parseJson,
  stringifyJson,
  type Contract,
  type JsonValue,
  type OperationContract,
  type Schema,
  type ValidationIssue,
} from '../src/openapi/index.js';
import type { components, operations } from './openapi-types.js';

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
/** The contract's Error schema (named so as not to shadow the global Error). */
export type ErrorBody = components['schemas']['Error'];

/** The operation the client calls, by the operationId the generated types are keyed on. */
export const CREATE_PLANT_OPERATION = 'addPlant';
type AddPlant = operations[typeof CREATE_PLANT_OPERATION];
type DeclaredResponses = AddPlant['responses'];

/** Every status openapi.yaml declares for the operation (200, 400, 401). */
export type CreatePlantStatus = keyof DeclaredResponses;

/** One branch per declared status: `if (result.status === 200) result.body.name`. */
export type CreatePlantResult = {
  [S in CreatePlantStatus]: { readonly status: S; readonly body: DeclaredResponses[S]['content']['application/json'] };
}[CreatePlantStatus];

/** The provider answered outside the contract; what it sent is kept for the report. */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError';
  constructor(
    message: string,
    readonly status: number,
    readonly contentType: string | undefined,
    readonly bodyText: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  readonly signal?: AbortSignal;
  /** The contract to read the operation from; openapi.yaml of the kit by default. */
  readonly contract?: Contract;
}

/** The operation `createPlant` calls, from the contract. */
export function createPlantOperation(contract: Contract = loadContract()): OperationContract {
  const operation = contract.operations.find((o) => o.operationId === CREATE_PLANT_OPERATION);
  if (!operation) throw new Error(`${contract.file} declares no operation ${CREATE_PLANT_OPERATION}`);
  return operation;
}

/**
 * Posts `newPlant` to `baseUrl` (which may carry a path prefix). With `token` undefined no
 * Authorization header is sent. Rejects on a network failure or an answer outside the contract.
 */
export async function createPlant(baseUrl: string | URL, token: string | undefined, newPlant: NewPlant, options: ClientOptions = {}): Promise<CreatePlantResult> {
  const operation = createPlantOperation(options.contract);
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const url = new URL(operation.path.replace(/^\//, ''), base);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  // RFC 6750, section 2.1: the Authorization request header field with the Bearer scheme.
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, {
    method: operation.method,
    headers,
    body: stringifyJson(newPlant),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return readResponse(operation, response.status, response.headers.get('content-type') ?? undefined, await response.text(), options.contract);
}

/**
 * An HTTP answer as a typed result, checked against the operation's declared responses: the status
 * is declared, the media type is one the response declares, the body matches its schema.
 */
export function readResponse(operation: OperationContract, status: number, contentType: string | undefined, bodyText: string, contract: Contract = loadContract()): CreatePlantResult {
  const fail = (why: string): never => {
    throw new UnexpectedResponseError(`${operation.method} ${operation.path} answered ${status}: ${why}`, status, contentType, bodyText);
  };
  const declared = operation.declaredStatuses.includes(status) ? operation.response(status) : undefined;
  if (!declared) return fail(`the status is not declared in ${contract.file} (declared: ${operation.declaredStatuses.join(', ')})`);
  const essence = (contentType?.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (!declared.mediaTypes.includes(essence)) return fail(`content-type ${contentType ?? '(none)'} is not ${declared.mediaTypes.join(' or ')}`);
  let value: JsonValue;
  try {
    value = parseJson(bodyText);
  } catch (error) {
    return fail(`the body is not JSON (${(error as Error).message})`);
  }
  const validation = declared.validateBody?.(value);
  if (validation && !validation.valid) return fail(`the body does not match the declared schema: ${formatIssues(validation.issues)}`);
  // The status is one of the declared ones and the body matches its schema; the generated types
  // come from the same openapi.yaml (generated-types.test.ts keeps them in step), so this holds.
  return { status, body: declared.schema ? decode(value, declared.schema, contract) : value } as CreatePlantResult;
}

/** A JSON value as the typed NewPlant (int64 as bigint), or the contract's reasons why it is not one. */
export function toNewPlant(value: JsonValue, contract: Contract = loadContract()): { readonly ok: true; readonly plant: NewPlant } | { readonly ok: false; readonly issues: readonly ValidationIssue[] } {
  const requestBody = createPlantOperation(contract).requestBody;
  if (!requestBody) throw new Error(`${CREATE_PLANT_OPERATION} declares no request body`);
  const validation = requestBody.validate(value);
  if (!validation.valid) return { ok: false, issues: validation.issues };
  return { ok: true, plant: decode(value, requestBody.schema, contract) as NewPlant };
}

/**
 * Turns a validated JSON value into the values the generated types promise: integers the schema
 * declares as int64 become bigints, other declared numbers JS numbers; undeclared properties are
 * kept as parsed (numbers stay LosslessNumbers).
 */
function decode(value: JsonValue, schema: Schema, contract: Contract): unknown {
  const resolved = contract.resolve(schema);
  if (isLosslessNumber(value)) {
    if (resolved.format === 'int64') return exactInteger(value) ?? value;
    return resolved.type === 'integer' || resolved.type === 'number' ? Number(value.value) : value;
  }
  if (Array.isArray(value)) {
    const items = resolved.items;
    return typeof items === 'object' && items !== null ? value.map((item) => decode(item, items as Schema, contract)) : value;
  }
  if (isJsonObject(value)) {
    const { properties } = contract.shapeOf(schema);
    const decoded: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const property = properties.get(key);
      const item = value[key] as JsonValue;
      // defineProperty, not assignment: a key named __proto__ stays an ordinary own property.
      Object.defineProperty(decoded, key, { value: property ? decode(item, property, contract) : item, enumerable: true, writable: true, configurable: true });
    }
    return decoded;
  }
  return value;
}
