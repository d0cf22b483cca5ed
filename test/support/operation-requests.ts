/**
 * One well-formed request per operation of any contract, built from the contract alone: its path,
 * required query and header parameters from their schemas (generated.ts's values), a credential of
 * the first security alternative's schemes, and a body of its preferred media type. What the
 * start-up tests send to show that a server answers every operation of a contract it started on.
 */
import { generateValue } from '../../src/reference/index.js';
import { serialiseBody, stringifyJson, type Contract, type JsonValue, type OperationContract, type Schema } from '../../src/openapi/index.js';

export interface OperationRequest {
  readonly operation: string;
  readonly method: string;
  /** Path and query, to append to a base URL. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

function valueOf(contract: Contract, schema: Schema | undefined): JsonValue {
  if (schema === undefined) return 'x';
  return generateValue(schema, { resolve: (s) => contract.resolve(s) }).value;
}

/** A scalar parameter's text (an array's first item, an object's JSON: good enough for the styles of simple contracts). */
function text(value: JsonValue): string {
  if (Array.isArray(value)) return value.length === 0 ? 'x' : text(value[0] as JsonValue);
  return typeof value === 'string' ? value : stringifyJson(value);
}

function credential(type: string, headers: Record<string, string>, query: URLSearchParams, location: { in: string; name: string }): void {
  const value = type === 'http basic' ? `Basic ${Buffer.from('user:password').toString('base64')}` : type === 'apiKey' ? 'any-key' : 'Bearer any-token';
  if (location.in === 'header') headers[location.name] = value;
  else if (location.in === 'query') query.set(location.name, value);
  else headers.cookie = `${location.name}=${value}`;
}

/** A body of the operation's preferred media type, written by its codec (a form's fields, a multipart's boundary). */
function body(contract: Contract, operation: OperationContract, headers: Record<string, string>): string | Uint8Array | undefined {
  const variant = operation.requestBody?.variants[0];
  if (variant === undefined) return undefined;
  const value = variant.example ?? valueOf(contract, variant.schema);
  if (variant.essence.includes('*')) {
    headers['content-type'] = 'application/json';
    return stringifyJson(value);
  }
  if (variant.codec.name !== 'json' && variant.codec.fields !== true && typeof value !== 'object') {
    headers['content-type'] = variant.mediaType;
    return text(value);
  }
  const { contentType, bytes } = serialiseBody(variant.codec, variant.mediaType, value, variant.fields);
  headers['content-type'] = contentType;
  return bytes;
}

export function operationRequest(contract: Contract, operation: OperationContract): OperationRequest {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  let path = operation.path;
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text(valueOf(contract, parameter.schema))));
    else if (!parameter.required) continue;
    else if (parameter.in === 'query') query.set(parameter.name, text(valueOf(contract, parameter.schema)));
    else headers[parameter.name.toLowerCase()] = text(valueOf(contract, parameter.schema));
  }
  for (const use of operation.securedBy[0] ?? []) credential(use.type.name, headers, query, use.credential);
  const sent = body(contract, operation, headers);
  const search = query.toString();
  return { operation: operation.operationId, method: operation.method, url: `${path}${search === '' ? '' : `?${search}`}`, headers, ...(sent === undefined ? {} : { body: sent }) };
}

/** One request per operation of the contract. */
export function operationRequests(contract: Contract): OperationRequest[] {
  return contract.operations.map((operation) => operationRequest(contract, operation));
}

/** Each request sent to `base`, with the status answered. */
export async function sendEach(base: string, requests: readonly OperationRequest[]): Promise<{ readonly operation: string; readonly status: number; readonly body: string }[]> {
  const answers = [];
  for (const request of requests) {
    const response = await fetch(`${base}${request.url}`, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
    answers.push({ operation: `${request.method} ${request.operation}`, status: response.status, body: await response.text() });
  }
  return answers;
}
