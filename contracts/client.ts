/**
 * A small typed client for a Plant Store, made from the contract's operations: `createClient`
 * gives one method per operation (keyed by its operationId), each taking the operation's path and
 * query parameters and its request body, and resolving with the answer as a discriminated union on
 * the status, each branch typed from the contract (the types in openapi-types.ts are generated from
 * openapi.yaml; `npm run generate:types -- --contract C --out F` makes them for another contract).
 * `createPlant` is the create operation of the store's collection (resources.ts), as before.
 * Answers outside the contract - an undeclared status, another media type, a body that does not
 * match the declared schema - are not squeezed into that union: they reject with an
 * `UnexpectedResponseError`.
 *
 * int64 values are `bigint` on this side of the wire: bodies and parameters are written digit for
 * digit, and a response's int64 fields are read exactly (src/openapi's lossless JSON). Properties
 * the contract does not declare (such as the key the reference implementation echoes) are passed
 * through as parsed, numbers as lossless-json `LosslessNumber`s, so not a digit is lost there either.
 */
import {
  exactInteger,
  formatIssues,
  httpBearer,
  isJsonObject,
  isLosslessNumber,
  loadContract,
  mediaTypeEssence,
  parseJson,
  resourcePatterns,
  serialiseBody,
  serialiseParameter,
  stringifyJson,
  type Contract,
  type JsonValue,
  type OperationContract,
  type ParameterContract,
  type Schema,
  type ValidationIssue,
} from '../src/openapi/index.js';
import type { components, operations } from './openapi-types.js';

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
/** The contract's Error schema (named so as not to shadow the global Error). */
export type ErrorBody = components['schemas']['Error'];

/** The JSON body a generated response type declares, undefined where it declares none (a 204). */
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** One branch per declared status of an operation of openapi-typescript's `operations`: `if (result.status === 200) result.body`. */
export type OperationResult<Op> = Op extends { responses: infer Responses }
  ? { [S in keyof Responses & number]: { readonly status: S; readonly body: JsonContent<Responses[S]> } }[keyof Responses & number]
  : never;

/** `{ [key]: T }`, optional when T may be undefined, nothing when the operation has none. */
type Part<T, K extends string> = [Exclude<T, undefined>] extends [never] ? unknown : undefined extends T ? { readonly [P in K]?: Exclude<T, undefined> } : { readonly [P in K]: T };
type ParametersOf<Op, In extends string> = Op extends { parameters: infer P } ? (In extends keyof P ? P[In] : undefined) : undefined;
type BodyOf<Op> = Op extends { requestBody?: infer B } ? (B extends { content: { 'application/json': infer J } } ? J | Extract<B, undefined> : B) : undefined;

/** What a call of an operation takes: its path and query parameters and its body, each where the operation has them. */
export type OperationInput<Op> = Part<ParametersOf<Op, 'path'>, 'path'> & Part<ParametersOf<Op, 'query'>, 'query'> & Part<ParametersOf<Op, 'header'>, 'headers'> & Part<ParametersOf<Op, 'cookie'>, 'cookies'> & Part<BodyOf<Op>, 'body'>;

/** One method per operation of `Ops` (openapi-typescript's `operations` of the contract). */
export type OperationClient<Ops = operations> = { readonly [K in keyof Ops & string]: (input: OperationInput<Ops[K]>) => Promise<OperationResult<Ops[K]>> };

type AddPlant = operations['addPlant'];

/** Every status openapi.yaml declares for the create operation (200, 400, 401). */
export type CreatePlantStatus = keyof AddPlant['responses'];

/** One branch per declared status of the create operation: `if (result.status === 200) result.body.name`. */
export type CreatePlantResult = OperationResult<AddPlant>;

/** Any operation's result, before the generated types give it its branches. */
export interface AnyResult {
  readonly status: number;
  readonly body: unknown;
}

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
  /** The contract to read the operations from; openapi.yaml of the kit by default. */
  readonly contract?: Contract;
}

/** A call of one operation: its parameters by location and name (typed values, int64 as bigint) and its body. */
export interface OperationRequest {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly cookies?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

/** A contract does not change once loaded: its create operation is found once. */
const createOperations = new WeakMap<Contract, OperationContract>();

/** The create operation of the contract's collection (POST on it, RFC 9110 section 9.3.3): what `createPlant` calls. */
export function createPlantOperation(contract: Contract = loadContract()): OperationContract {
  let operation = createOperations.get(contract);
  if (operation === undefined) {
    operation = resourcePatterns(contract)[0]?.operations.get('create');
    if (!operation) throw new Error(`${contract.file} declares no collection with a create operation`);
    createOperations.set(contract, operation);
  }
  return operation;
}

/**
 * Posts `newPlant` to `baseUrl` (which may carry a path prefix). With `token` undefined no
 * Authorization header is sent. Rejects on a network failure or an answer outside the contract.
 */
export async function createPlant(baseUrl: string | URL, token: string | undefined, newPlant: NewPlant, options: ClientOptions = {}): Promise<CreatePlantResult> {
  // The status is one of the declared ones and the body matches its schema; the generated types
  // come from the same contract (generated-types.test.ts keeps them in step), so this holds.
  return (await callOperation(createPlantOperation(options.contract), baseUrl, token, { body: newPlant }, options)) as CreatePlantResult;
}

/**
 * A client with one method per operation of the contract, by operationId:
 * `createClient<operations>(url, token, { contract }).getPlant({ path: { id: 3n } })`.
 * `Ops` is the `operations` type generated from the same contract.
 */
export function createClient<Ops = operations>(baseUrl: string | URL, token: string | undefined, options: ClientOptions = {}): OperationClient<Ops> {
  const contract = options.contract ?? loadContract();
  const client: Record<string, (input: OperationRequest) => Promise<AnyResult>> = {};
  for (const operation of contract.operations) client[operation.operationId] = (input) => callOperation(operation, baseUrl, token, input, { ...options, contract });
  // Each answer is checked against the operation's declared responses (readResponse); `Ops`, generated from the same contract, types them.
  return client as unknown as OperationClient<Ops>;
}

/** The text a parameter's value is sent as (src/openapi's serialiseParameter, the one writer of every style): a path segment or header field. */
function styledText(parameter: ParameterContract, value: unknown): string {
  const serialised = serialiseParameter(parameter, value);
  if (!('text' in serialised)) throw new TypeError(`the ${parameter.style} style writes ${parameter.in} parameter ${parameter.name} as parts, not one text`);
  return serialised.text;
}

/** The parts a query or cookie parameter's value is sent as (`name=value`, encoded). */
function styledParts(parameter: ParameterContract, value: unknown): readonly string[] {
  const serialised = serialiseParameter(parameter, value);
  return 'parts' in serialised ? serialised.parts : [serialised.text];
}

/** The operation's URL under `baseUrl` (its path prefix kept), each parameter in its style (OpenAPI 3.1, section 4.8.12.4). */
export function operationUrl(operation: OperationContract, baseUrl: string | URL, request: OperationRequest): URL {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const path = operation.path.replace(/\{([^{}/]+)\}/g, (_, name: string) => {
    const value = request.path?.[name];
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (value === undefined || parameter === undefined) throw new TypeError(`${operation.operationId}: the path parameter ${name} is missing`);
    return styledText(parameter, value);
  });
  const url = new URL(path.replace(/^\//, ''), base);
  // The parts come encoded by their style (allowReserved kept): joined as they are, not re-encoded by URLSearchParams.
  const parts = operation.parameters.filter((p) => p.in === 'query' && request.query?.[p.name] !== undefined).flatMap((p) => styledParts(p, request.query?.[p.name]));
  if (parts.length > 0) url.search = `${url.search === '' ? '' : `${url.search.slice(1)}&`}${parts.join('&')}`;
  return url;
}

/**
 * A request body as its operation's preferred media type carries it: JSON where it is JSON (or
 * the operation declares none), else through that type's codec (a form, multipart with its boundary).
 */
function requestBodyOf(operation: OperationContract, value: unknown): { contentType: string; content: string | Uint8Array } {
  const declared = operation.requestBody;
  const variant = declared?.variants.find((candidate) => candidate.codec === declared.codec && candidate.schema === declared.schema);
  if (declared === undefined || variant === undefined || declared.codec.name === 'json') return { contentType: 'application/json', content: stringifyJson(value) };
  const { contentType, bytes } = serialiseBody(declared.codec, variant.mediaType, value, variant.fields);
  return { contentType, content: bytes };
}

/**
 * Sends one operation and reads its answer against the contract. With `token` undefined no
 * Authorization header is sent. Rejects on a network failure or an answer outside the contract.
 */
export async function callOperation(operation: OperationContract, baseUrl: string | URL, token: string | undefined, request: OperationRequest, options: ClientOptions = {}): Promise<AnyResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const parameter of operation.parameters.filter((p) => p.in === 'header')) {
    const value = request.headers?.[parameter.name];
    if (value !== undefined) headers[parameter.name.toLowerCase()] = styledText(parameter, value);
  }
  // Cookie parameters are cookie-pairs of one Cookie field (RFC 6265, section 4.2.1).
  const cookies = operation.parameters.filter((p) => p.in === 'cookie' && request.cookies?.[p.name] !== undefined).flatMap((p) => styledParts(p, request.cookies?.[p.name]));
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const body = request.body === undefined ? undefined : requestBodyOf(operation, request.body);
  if (body !== undefined) headers['content-type'] = body.contentType;
  // The kit's clients hold one bearer token (RFC 6750), sent to every operation.
  if (token !== undefined) headers.authorization = httpBearer.write(token);
  const response = await fetch(operationUrl(operation, baseUrl, request), {
    method: operation.method,
    headers,
    ...(body === undefined ? {} : { body: body.content }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return readResponse(operation, response.status, response.headers.get('content-type') ?? undefined, await response.text(), options.contract);
}

/**
 * An HTTP answer as a typed result, checked against the operation's declared responses: the status
 * is declared, the media type is one the response declares, the body matches its schema. A
 * response that declares no content (a 204) gives no body.
 */
export function readResponse(operation: OperationContract, status: number, contentType: string | undefined, bodyText: string, contract: Contract = loadContract()): AnyResult {
  const fail = (why: string): never => {
    throw new UnexpectedResponseError(`${operation.method} ${operation.path} answered ${status}: ${why}`, status, contentType, bodyText);
  };
  const declared = operation.declaredStatuses.includes(status) ? operation.response(status) : undefined;
  if (!declared) return fail(`the status is not declared in ${contract.file} (declared: ${operation.declaredStatuses.join(', ')})`);
  if (declared.mediaTypes.length === 0) return { status, body: undefined };
  if (!declared.mediaTypes.includes(mediaTypeEssence(contentType))) return fail(`content-type ${contentType ?? '(none)'} is not ${declared.mediaTypes.join(' or ')}`);
  let value: JsonValue;
  try {
    value = parseJson(bodyText);
  } catch (error) {
    return fail(`the body is not JSON (${(error as Error).message})`);
  }
  const validation = declared.validateBody?.(value);
  if (validation && !validation.valid) return fail(`the body does not match the declared schema: ${formatIssues(validation.issues)}`);
  return { status, body: declared.schema ? decode(value, declared.schema, contract) : value };
}

/** A JSON value as the typed body of the create operation (int64 as bigint), or the contract's reasons why it is not one. */
export function toNewPlant(value: JsonValue, contract: Contract = loadContract()): { readonly ok: true; readonly plant: NewPlant } | { readonly ok: false; readonly issues: readonly ValidationIssue[] } {
  const operation = createPlantOperation(contract);
  const requestBody = operation.requestBody;
  if (!requestBody) throw new Error(`${operation.operationId} declares no request body`);
  const validation = requestBody.validate(value);
  if (!validation.valid) return { ok: false, issues: validation.issues };
  return { ok: true, plant: decode(value, requestBody.schema, contract) as NewPlant };
}

/**
 * Turns a validated JSON value into the values the generated types promise: integers the schema
 * declares as int64 become bigints, other declared numbers JS numbers; undeclared properties are
 * kept as parsed (numbers stay LosslessNumbers).
 */
export function decode(value: JsonValue, schema: Schema, contract: Contract): unknown {
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
