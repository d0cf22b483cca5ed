/**
 * Small tools for writing faulty implementations: read the request's JSON, answer with an Error or
 * a changed body, send a changed request to the reference. Each fault stays a few lines.
 */
import { isJsonObject, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/openapi/index.js';
import type { App, AppRequest, AppResponse } from '../../src/reference/index.js';

/** The request body as text (UTF-8). */
export function textOf(request: AppRequest): string {
  return typeof request.body === 'string' ? request.body : Buffer.from(request.body ?? []).toString('utf8');
}

/** The request body as lossless JSON, or undefined when it is not JSON. */
export function bodyOf(request: AppRequest): JsonValue | undefined {
  try {
    return parseJson(textOf(request));
  } catch {
    return undefined;
  }
}

export function objectBodyOf(request: AppRequest): JsonObject | undefined {
  const body = bodyOf(request);
  return isJsonObject(body) ? body : undefined;
}

export function header(request: AppRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

/** The same request with other headers or another body, answered by the reference. */
export function forward(app: App, request: AppRequest, change: { headers?: Record<string, string | undefined>; body?: JsonValue }): AppResponse {
  const headers = { ...request.headers, ...change.headers };
  for (const [name, value] of Object.entries(headers)) if (value === undefined) Reflect.deleteProperty(headers, name);
  return app.request({ ...request, headers, ...(change.body === undefined ? {} : { body: stringifyJson(change.body) }) });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ error: status, message }) };
}

/** The response body as lossless JSON (for faults that change what a 200 carries). */
export function responseObject(response: AppResponse): JsonObject | undefined {
  try {
    const value = parseJson(response.body);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function withBody(response: AppResponse, body: JsonValue): AppResponse {
  return { ...response, body: stringifyJson(body) };
}
