/**
 * The mock's guard on what it answers (Prism's answer, or an example the MSW handlers picked):
 * only what the contract allows leaves, anything else is a 500 Error naming the defect.
 * Runtime-neutral: the MSW handlers (msw/) run it in the browser.
 */
import { exactInteger, formatIssues, isJsonObject, isLosslessNumber, mediaTypeEssence, parseJson, placeholderBody, stringifyJson, type Contract, type MediaVariant, type OperationContract, type ResponseContract } from '../src/openapi/portable.js';
import { PlantStoreError, type AppResponse } from '../src/http/portable.js';
import type { PrismResponse } from './prism.js';

/** The guard's refusals of a body its schema does not accept: the mock asks Prism again for a generated one where it answered an example. */
const BREACHES = new WeakSet<PlantStoreError>();

/** Whether the guard refused the answer for a body its schema does not accept. */
export function isSchemaBreach(refusal: PlantStoreError): boolean {
  return BREACHES.has(refusal);
}

/** A defect of the mock: the pipeline answers it with a 500 Error and reports it. */
export function internal(message: string, cause?: unknown): PlantStoreError {
  return new PlantStoreError('internal', `internal: ${message}; this is a defect of the mock`, cause === undefined ? {} : { cause });
}

/**
 * Prism's answer, if the contract allows it: a declared status, application/json, a body the
 * declared schema accepts (a Plant for 200, an Error otherwise), an Error's `error` the status
 * (kit decision 4), the headers the response requires (`WWW-Authenticate` on 401).
 */
export function keepContract(contract: Contract, operation: OperationContract, answer: PrismResponse, source = "Prism's"): AppResponse | PlantStoreError {
  const what = `${source} ${answer.status} answer`;
  const declared = operation.response(answer.status);
  if (!operation.declaredStatuses.includes(answer.status) || declared === undefined) return internal(`${what}: the status is not declared for ${operation.method} ${operation.path}`);
  // A response the contract declares without content (a 204) is answered without content, whatever
  // Prism writes there (it writes a body for some upgraded Swagger 2.0 responses): the contract's word holds.
  if (declared.mediaTypes.length === 0) return { status: answer.status, headers: declaredHeaders(answer.headers), body: '' };
  const mediaType = mediaTypeEssence(answer.headers['content-type']);
  const variant = declared.variants.find((v) => v.essence === mediaType) ?? declared.variants.find((v) => v.essence.includes('*'));
  if (variant === undefined || (variant.codec.name === 'json' && !variant.validate && variant.example === undefined)) return internal(`${what}: the media type ${mediaType} is not ${declared.mediaTypes.join(' or ')}`);
  if (answer.body === undefined && !writtenFromDataOnly(variant)) return internal(`${what}: no body`);
  // Text, bytes and what the kit cannot check (XML) go out as Prism gives them, held to a schema where one is checkable (text/plain).
  if (variant.codec.name !== 'json') return keepOther(contract, what, answer, variant, declared.headers);
  // Lossless: an example read exactly from the contract, or a generated int64, keeps every digit.
  const text = stringifyJson(answer.body);
  const body = parseJson(text);
  const validation = variant.validate?.(body) ?? { valid: true, issues: [] };
  if (!validation.valid) {
    const breach = internal(`${what} breaks the contract (${formatIssues(validation.issues)})`);
    BREACHES.add(breach);
    return breach;
  }
  // The kit's Error (decision 4: `{error, message}`, its error the status) holds where an answer has
  // that shape; another contract's error shapes (`{code, message}`, problem+json) only to their schema.
  if (answer.status >= 300 && mediaType === 'application/json' && isKitError(body) && exactInteger(body.error) !== BigInt(answer.status)) {
    return internal(`${what}: the Error's error is not the status`);
  }
  const headers = declaredHeaders(answer.headers);
  for (const [name, { required }] of declared.headers) if (required && headers[name] === undefined) return internal(`${what}: the required header ${name} is missing`);
  return { status: answer.status, headers: { ...headers, 'content-type': mediaType === 'application/json' ? 'application/json' : (answer.headers['content-type'] ?? mediaType) }, body: text };
}

/** A body of the kit's Error shape: exactly an integer `error` and a string `message`. */
function isKitError(body: unknown): body is { error: Parameters<typeof exactInteger>[0]; message: string } {
  return isJsonObject(body) && isLosslessNumber(body.error) && typeof body.message === 'string' && Object.keys(body).length === 2;
}

/** An answer of a media type other than JSON: its text as Prism gives it (a string example), checked where a schema can be. */
function keepOther(contract: Contract, what: string, answer: PrismResponse, variant: MediaVariant, declared: ResponseContract['headers']): AppResponse | PlantStoreError {
  // Data, not text, for a media type no codec writes (XML, say): Prism generates JSON where the
  // contract has no text example, and JSON labelled XML would be a lie. The answer is the
  // reference's placeholder of that type (an empty XML document), its content not checked.
  const text = typeof answer.body !== 'string' && writtenFromDataOnly(variant) ? placeholderBody(contract, variant) : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const validation = variant.validate?.(text);
  if (validation !== undefined && !validation.valid) return internal(`${what} breaks the contract (${formatIssues(validation.issues)})`);
  const headers = declaredHeaders(answer.headers);
  for (const [name, { required }] of declared) if (required && headers[name] === undefined) return internal(`${what}: the required header ${name} is missing`);
  // A JSON example of a range (`*` + `/*`) goes out as JSON, as the reference sends it.
  const json = variant.essence.includes('*') && typeof answer.body !== 'string';
  const contentType = writtenFromDataOnly(variant) ? variant.essence : (answer.headers['content-type'] ?? 'application/octet-stream');
  return { status: answer.status, headers: { ...headers, 'content-type': json ? 'application/json' : contentType }, body: text };
}

/** The answer's headers but those of the content, which the kit writes itself. */
function declaredHeaders(given: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
  return headers;
}

/** A media type no codec writes (XML, say) whose answer has no text example: Prism would write JSON under it, which the mock does not send (placeholderBody instead). */
export function writtenFromDataOnly(variant: MediaVariant): boolean {
  return variant.codec.name === 'unchecked' && !variant.essence.includes('*') && typeof variant.example !== 'string';
}

/**
 * Where the mock and the contract part: each answer of a media type no codec writes (XML, say)
 * without a text example, as `METHOD /path status media-type`. Prism would generate JSON there;
 * the mock answers with another media type the request accepts, or the placeholder of that type
 * (src/openapi/placeholder.ts, as the reference does) where it accepts no other, and names these
 * at start-up as not checked.
 */
export function unwritableAnswers(operations: readonly OperationContract[]): string[] {
  return operations.flatMap((operation) =>
    operation.responses.flatMap((response) => response.variants.filter(writtenFromDataOnly).map((variant) => `${operation.method} ${operation.path} ${response.status} ${variant.essence}`)),
  );
}
