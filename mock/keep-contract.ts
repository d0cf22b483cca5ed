/**
 * The mock's guard on what it answers (Prism's answer, or an example the MSW handlers picked):
 * only what the contract allows leaves, anything else is a 500 Error naming the defect.
 * Runtime-neutral: the MSW handlers (msw/) run it in the browser.
 */
import { exactInteger, formatIssues, isJsonObject, isLosslessNumber, mediaTypeEssence, parseJson, type OperationContract } from '../src/openapi/portable.js';
import { PlantStoreError, type AppResponse } from '../src/http/portable.js';
import type { PrismResponse } from './prism.js';

/** A defect of the mock: the pipeline answers it with a 500 Error and reports it. */
export function internal(message: string, cause?: unknown): PlantStoreError {
  return new PlantStoreError('internal', `internal: ${message}; this is a defect of the mock`, cause === undefined ? {} : { cause });
}

/**
 * Prism's answer, if the contract allows it: a declared status, application/json, a body the
 * declared schema accepts (a Plant for 200, an Error otherwise), an Error's `error` the status
 * (kit decision 4), the headers the response requires (`WWW-Authenticate` on 401).
 */
export function keepContract(operation: OperationContract, answer: PrismResponse, source = "Prism's"): AppResponse | PlantStoreError {
  const what = `${source} ${answer.status} answer`;
  const declared = operation.response(answer.status);
  if (!operation.declaredStatuses.includes(answer.status) || declared === undefined) return internal(`${what}: the status is not declared for ${operation.method} ${operation.path}`);
  // A response the contract declares without content (a 204) is answered without content.
  if (declared.mediaTypes.length === 0) return answer.body === undefined || answer.body === '' ? { status: answer.status, headers: declaredHeaders(answer.headers), body: '' } : internal(`${what}: a body where the contract declares none`);
  const mediaType = mediaTypeEssence(answer.headers['content-type']);
  if (!declared.mediaTypes.includes(mediaType) || !declared.validateBody) return internal(`${what}: the media type ${mediaType} is not ${declared.mediaTypes.join(' or ')}`);
  if (answer.body === undefined) return internal(`${what}: no body`);
  const text = JSON.stringify(answer.body);
  const body = parseJson(text);
  const validation = declared.validateBody(body);
  if (!validation.valid) return internal(`${what} breaks openapi.yaml (${formatIssues(validation.issues)})`);
  if (answer.status >= 300 && !(isJsonObject(body) && isLosslessNumber(body.error) && exactInteger(body.error) === BigInt(answer.status))) {
    return internal(`${what}: the Error's error is not the status`);
  }
  const headers = declaredHeaders(answer.headers);
  for (const [name, { required }] of declared.headers) if (required && headers[name] === undefined) return internal(`${what}: the required header ${name} is missing`);
  return { status: answer.status, headers: { ...headers, 'content-type': 'application/json' }, body: text };
}

/** The answer's headers but those of the content, which the kit writes itself. */
function declaredHeaders(given: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
  return headers;
}
