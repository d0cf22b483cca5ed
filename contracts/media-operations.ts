/**
 * The consumer contract's interactions for operations whose bodies are not JSON (issue 29, item
 * 5): where Pact V4 can hold the body - a form (`application/x-www-form-urlencoded`, matched
 * field by field) or text (`text/*`, matched as text) - one interaction per operation, its
 * request written by the media type's codec from the contract's example (else a value generated
 * from the schema), its answer the first declared success. Where Pact cannot hold it, or the
 * pact could not set the operation up, a note says why, per operation: no operation is dropped
 * in silence. It reads the contract only; consumer-contract.ts turns each into a Pact interaction.
 */
import { generateValue, mediaTypeEssence, serialiseBody, type Contract, type JsonValue, type MediaVariant, type OperationContract, type SchemeInUse } from '../src/openapi/index.js';
import { CONSUMER, EXAMPLE_TOKEN } from './names.js';

/** An exchange with one operation, as a pact writes it: the bytes of its request, the status and media type of its answer. */
export interface MediaExchange {
  readonly operation: OperationContract;
  readonly description: string;
  /** The request target, its query included (an API key in the query). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: { readonly contentType: string; readonly bytes: Uint8Array };
  readonly status: number;
  /** The answer's body: JSON (a value matched by type), text (its media type only), or none. */
  readonly answer: { readonly kind: 'json'; readonly mediaType: string; readonly value: JsonValue } | { readonly kind: 'text'; readonly mediaType: string } | { readonly kind: 'none' };
}

/** An operation the consumer contract holds no interaction of, and why. */
export interface MediaNote {
  readonly operation: string;
  readonly reason: string;
}

/** Codecs whose bodies Pact V4 matches: a form field by field, text as text. */
const PACT_HOLDS = new Set(['form', 'text']);

/** Why Pact V4 cannot hold a body of this variant. */
function whyNotHeld(variant: MediaVariant): string {
  switch (variant.codec.name) {
    case 'multipart':
      return `Pact V4 matches ${variant.mediaType} only as a single file part, not as typed parts: not recorded`;
    case 'bytes':
      return `Pact V4 compares a binary body (${variant.mediaType}) by its content type only, not its bytes: not recorded`;
    default:
      return `the kit has no codec that writes ${variant.mediaType}, so no body the pact could hold: not recorded`;
  }
}

const isJson = (variant: MediaVariant): boolean => variant.codec.name === 'json';

/** Whether the operation's bodies are of other media than JSON: a request body without a JSON variant, or a success answer without one. */
function ofOtherMedia(operation: OperationContract): boolean {
  const request = operation.requestBody?.variants ?? [];
  const success = operation.responses.find((r) => /^2\d\d$/.test(r.status));
  return (request.length > 0 && !request.some(isJson)) || (success !== undefined && success.variants.length > 0 && !success.variants.some(isJson));
}

/** A value of the variant: its example, else one generated from its schema. */
function valueOf(variant: MediaVariant, contract: Contract): JsonValue | undefined {
  if (variant.example !== undefined) return variant.example;
  if (variant.schema === undefined) return undefined;
  const validate = variant.validate;
  const generated = generateValue(variant.schema, { resolve: (s) => contract.resolve(s), ...(validate === undefined ? {} : { validate: (v: JsonValue) => validate(v) }) });
  return generated.valid ? generated.value : undefined;
}

/** The example credential of a scheme, written where it goes (the verifier puts the real one in its place: verification.ts). */
function exampleCredential(scheme: SchemeInUse): string {
  return scheme.type.write(scheme.type.name === 'http basic' ? `${CONSUMER}:${EXAMPLE_TOKEN}` : EXAMPLE_TOKEN);
}

/** The first alternative of the operation's security, as header fields and query parameters; undefined where a credential goes in a cookie. */
function credentialsOf(operation: OperationContract): { headers: Record<string, string>; query: Record<string, string> } | undefined {
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const scheme of operation.securedBy[0] ?? []) {
    const place = scheme.credential;
    if (place.in === 'header') headers[place.name] = exampleCredential(scheme);
    else if (place.in === 'query') query[place.name] = exampleCredential(scheme);
    else return undefined;
  }
  return { headers, query };
}

type Planned<T> = { readonly value: T } | { readonly note: string };

/** The request body as the pact holds it: the first variant Pact matches (a form, text), else JSON; a note where there is only another. */
function requestBodyOf(operation: OperationContract, contract: Contract): Planned<MediaExchange['body']> {
  const variants = operation.requestBody?.variants ?? [];
  const variant = variants.find((v) => PACT_HOLDS.has(v.codec.name)) ?? variants.find(isJson) ?? variants[0];
  if (variant === undefined) return { value: undefined };
  if (!PACT_HOLDS.has(variant.codec.name) && !isJson(variant)) return { note: whyNotHeld(variant) };
  const value = valueOf(variant, contract);
  if (value === undefined) return { note: `no example of its ${variant.mediaType} body, and none could be generated from its schema: not recorded` };
  const { contentType, bytes } = serialiseBody(variant.codec, variant.mediaType, value, variant.fields);
  return { value: { contentType, bytes } };
}

/** The first success answer as the pact expects it: JSON matched by type, text by its media type; a note where Pact cannot hold it. */
function answerOf(operation: OperationContract, contract: Contract): Planned<{ status: number; answer: MediaExchange['answer'] }> {
  const success = operation.responses.find((r) => /^2\d\d$/.test(r.status));
  if (success === undefined) return { note: 'it declares no success status to expect: not recorded' };
  const status = Number(success.status);
  const variant = success.variants.find(isJson) ?? success.variants.find((v) => v.codec.name === 'text') ?? success.variants[0];
  if (variant === undefined) return { value: { status, answer: { kind: 'none' } } };
  if (variant.codec.name === 'text') return { value: { status, answer: { kind: 'text', mediaType: variant.essence } } };
  if (!isJson(variant)) return { note: `its ${success.status} answer: ${whyNotHeld(variant)}` };
  const value = valueOf(variant, contract);
  return { value: { status, answer: value === undefined ? { kind: 'none' } : { kind: 'json', mediaType: variant.essence, value } } };
}

/** Why the pact cannot send the operation as it is, whatever its bodies: a stored resource in its path, parameters it must fill, a cookie. */
function whyNotSent(operation: OperationContract): string | undefined {
  if (operation.parameters.some((p) => p.in === 'path')) return 'its path names a stored resource, which no provider state of the pact sets up for it: not recorded';
  if (operation.parameters.some((p) => p.required)) return 'it requires parameters the pact does not fill: not recorded';
  if (credentialsOf(operation) === undefined) return 'its credentials go in a cookie, which the verifier does not put in place: not recorded';
  return undefined;
}

/** The exchange of one operation of other media, or why there is none: what Pact cannot hold first, then what the pact cannot set up. */
function planOf(operation: OperationContract, contract: Contract): Planned<MediaExchange> {
  const body = requestBodyOf(operation, contract);
  if ('note' in body) return body;
  const answered = answerOf(operation, contract);
  if ('note' in answered) return answered;
  const unsent = whyNotSent(operation);
  const credentials = credentialsOf(operation);
  if (unsent !== undefined || credentials === undefined) return { note: unsent ?? '' };
  const what = body.value === undefined ? '' : ` with a body of ${mediaTypeEssence(body.value.contentType)}`;
  return { value: { operation, description: `a request to ${operation.operationId}${what}`, path: operation.path, query: credentials.query, headers: credentials.headers, ...(body.value === undefined ? {} : { body: body.value }), ...answered.value } };
}

/** The operations of other media than JSON: an exchange for each Pact can hold, a note for each it cannot. */
export function mediaExchanges(contract: Contract): { readonly exchanges: readonly MediaExchange[]; readonly notes: readonly MediaNote[] } {
  const exchanges: MediaExchange[] = [];
  const notes: MediaNote[] = [];
  for (const operation of contract.operations.filter(ofOtherMedia)) {
    const planned = planOf(operation, contract);
    if ('value' in planned) exchanges.push(planned.value);
    else notes.push({ operation: `${operation.operationId} (${operation.method} ${operation.path})`, reason: planned.note });
  }
  return { exchanges, notes };
}

/** The notes as lines for a person, after the verifier's summary. */
export function formatNotes(notes: readonly MediaNote[]): string {
  return notes.length === 0 ? '' : ['Operations the consumer contract holds no interaction of:', ...notes.map(({ operation, reason }) => `  ${operation}: ${reason}`)].join('\n') + '\n';
}
