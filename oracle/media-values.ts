/**
 * Bodies read by their declared media type (issue 29): a form or multipart body through its codec
 * (src/openapi/media-types), so that the checks judge its fields as they judge a JSON body's
 * members. JSON is read as it always was (json-values.ts); a media type the kit has no codec for
 * cannot be read, and says so (`unread`) rather than passing.
 */
import { decodeBody, Malformed, mediaTypeEssence, negotiate, variantFor, type JsonValue, type MediaVariant, type OperationContract } from '../src/openapi/index.js';
import { decodeJson } from './json-values.js';
import type { HttpRequest } from './types.js';

/** Fields of a form are never nested deeper than a JSON body may be (the reference's own limit is higher). */
const MAX_DEPTH = 256;

/** A body as a value: read, malformed (why), or of a media type no codec validates (`unread`). */
export type BodyReading = { readonly value: JsonValue } | { readonly error: string } | { readonly unread: string };

/** A body of a variant read by its codec (the Content-Type as sent gives multipart its boundary). */
export function readVariantBody(variant: MediaVariant, contentType: string | undefined, bytes: Uint8Array): BodyReading {
  if (variant.codec.name === 'json') return decodeJson(bytes);
  if (variant.codec.validation === 'none') return { unread: variant.mediaType };
  const value = decodeBody(variant.codec, bytes, { maxDepth: MAX_DEPTH }, { contentType, fields: variant.fields });
  return value instanceof Malformed ? { error: value.reason } : { value };
}

/** The request body's variant its Content-Type picks; undefined when the operation has no body or none is picked. */
export function requestVariant(operation: OperationContract | undefined, request: HttpRequest): MediaVariant | undefined {
  const variants = operation?.requestBody?.variants;
  return variants === undefined ? undefined : variantFor(variants, request.headers['content-type']);
}

/**
 * A request's body as a value: by the codec of its Content-Type's variant where that is a form or
 * multipart (or text); as JSON otherwise, exactly as before the kit read other media types.
 */
export function requestBodyValue(operation: OperationContract | undefined, request: HttpRequest): { value: JsonValue } | { error: string } {
  const variant = requestVariant(operation, request);
  if (variant === undefined || variant.codec.name === 'json' || variant.codec.validation === 'none') return decodeJson(request.body);
  const reading = readVariantBody(variant, request.headers['content-type'], request.body);
  return 'unread' in reading ? { error: `a body of ${reading.unread}` } : reading;
}

/**
 * What a run cannot check of one operation: each declared media type no codec of the kit reads
 * (XML, images, PDF), as a request body (not generated) or as an answer (its body not held to its
 * schema). Named in the report so that it is never taken for passed (issue 29).
 */
export function operationMediaNotChecked(operation: OperationContract): string[] {
  const requests = (operation.requestBody?.variants ?? []).filter((v) => v.codec.name === 'unchecked').map((v) => `request bodies of ${v.mediaType} are not generated (no codec writes it)`);
  const answers = operation.responses.flatMap((response) => response.variants.filter((v) => v.codec.name === 'unchecked').map((v) => `the ${response.status} answer's ${v.mediaType} body is not checked (no codec reads it)`));
  return [...requests, ...answers];
}

/** operationMediaNotChecked of every operation, each line led by its operationId. */
export function mediaTypesNotChecked(operations: readonly OperationContract[]): string[] {
  return operations.flatMap((operation) => operationMediaNotChecked(operation).map((line) => `${operation.operationId}: ${line}`));
}

/**
 * Whether the request's Accept is satisfied by none of the media types the operation's success
 * answers declare (RFC 9110, section 12.5.1): a server may then answer 406 (section 15.5.7),
 * declared or not - an operation that answers only image/png, asked for application/json.
 * False where a success answer declares no content (any Accept is then satisfied by its silence).
 */
export function acceptUnsatisfiable(operation: OperationContract | undefined, request: HttpRequest): boolean {
  const successes = operation?.responses.filter((r) => /^2(\d\d|XX)$/i.test(r.status)) ?? [];
  if (successes.length === 0 || successes.some((r) => r.mediaTypes.length === 0)) return false;
  return successes.every((r) => negotiate(request.headers.accept, r.mediaTypes) === undefined);
}

/** An answer's body as a value: by the codec of the declared variant its Content-Type names where that is a form, multipart or text; as JSON otherwise. */
export function answerBodyValue(operation: OperationContract | undefined, status: number, headers: Readonly<Record<string, string>>, body: Uint8Array): { value: JsonValue } | { error: string } {
  const type = headers['content-type'];
  const variant = operation?.response(status)?.variants.find((v) => v.essence === mediaTypeEssence(type));
  if (variant === undefined || variant.codec.name === 'json' || variant.codec.validation === 'none') return decodeJson(body);
  const reading = readVariantBody(variant, type, body);
  return 'unread' in reading ? { error: `a body of ${reading.unread}` } : reading;
}
