/**
 * The mock on an ephemeral loopback port, and what every answer of the kit's servers must be:
 * a Plant (200) or an Error whose `error` is the status, as application/json, with the headers its
 * status requires.
 */
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, parseJson, type JsonValue } from '../../src/openapi/index.js';
import { listen, splitTarget } from '../../src/http/index.js';
import { createMock, type Mock, type MockOptions } from '../../mock/index.js';
import type { WireRequest, WireResponse } from '../support/http.js';

export interface RunningMock {
  readonly mock: Mock;
  readonly url: string;
  close(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const mock = await createMock(options);
  const running = await listen(mock, { port: 0, host: '127.0.0.1', shutdownGraceMs: 1_000 });
  return { mock, url: running.url, close: () => running.close() };
}

const contract = loadContract();
const errorSchema = contract.validatorForComponent('Error');

/** Why `response` is not an answer the contract allows (empty when it is). */
export function shapeViolations(request: WireRequest, response: WireResponse): string[] {
  const problems: string[] = [];
  const { path } = splitTarget(request.path);
  if (response.status === 204) {
    // Only a CORS preflight may get an answer without a body (see src/http/cors.ts).
    if (request.method !== 'OPTIONS' || response.headers['access-control-allow-origin'] !== request.headers.origin) problems.push('204 to something other than a CORS preflight');
    if (response.body.length > 0) problems.push('204 with a body');
    return problems;
  }
  const mediaType = (response.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') problems.push(`content-type ${response.headers['content-type'] ?? 'missing'}`);
  if (response.status === 401 && !/^Bearer\b/i.test(response.headers['www-authenticate'] ?? '')) problems.push('401 without WWW-Authenticate: Bearer');
  if (response.status === 405 && response.headers.allow !== contract.methodsFor(path)?.join(', ')) problems.push(`405 with Allow: ${response.headers.allow ?? 'missing'}`);
  if (request.method === 'HEAD') return problems; // no body on the wire
  let body: JsonValue;
  try {
    body = parseJson(response.body.toString('utf8'));
  } catch {
    return [...problems, `body is not JSON: ${response.body.toString('utf8').slice(0, 200)}`];
  }
  const operation = contract.findOperation(request.method, path);
  if (response.status === 200) {
    const validation = operation?.response(200)?.validateBody?.(body);
    if (validation?.valid !== true) problems.push(`200 body is not a Plant: ${response.body.toString('utf8').slice(0, 200)}`);
    return problems;
  }
  // Declared statuses (400, 401) by their own schema; the routing and transport statuses by Error.
  const validation = (operation?.declaredStatuses.includes(response.status) === true ? operation.response(response.status)?.validateBody : undefined) ?? errorSchema;
  if (!validation(body).valid) problems.push(`${response.status} body is not an Error: ${response.body.toString('utf8').slice(0, 200)}`);
  const error = isJsonObject(body) ? body.error : undefined;
  if (!isLosslessNumber(error) || exactInteger(error) !== BigInt(response.status)) problems.push(`Error.error is not the status ${response.status}`);
  return problems;
}
