/**
 * Request bodies in every declared media type the JSON kinds do not write (issue 29): a form
 * (application/x-www-form-urlencoded), multipart/form-data (a file part for `format: binary`),
 * text, bytes, and JSON under a type other than application/json (`+json`). Each value is drawn
 * from the variant's schema and written by the kit's one writer of that media type (its codec,
 * src/openapi/media-types), then judged as the contract reads it: the bytes are read back by the
 * same codec and held to the variant's schema - the contract, not the generator, says which
 * bodies are valid. A media type no codec serves (XML, images) is not generated: the kit cannot
 * write a valid one (the report names it not checked).
 */
import fc from 'fast-check';
import { decodeBody, Malformed, parseJson, stringifyJson, variantFor, type Contract, type MediaVariant, type OperationContract } from '../../../src/openapi/index.js';
import { writeJson, type JsonModel } from '../json-text.js';
import { describeProbe, probesOf } from '../schema-probes.js';
import type { SchemaArbitraries } from '../schema-arbitraries.js';

/** One body of a variant: its Content-Type, its bytes, and whether the contract reads it as valid. */
export interface MediaBody {
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly valid: boolean;
  /** For people: `a plain application/x-www-form-urlencoded body`, `packets is 501`. */
  readonly variant: string;
  readonly tags: readonly string[];
}

/** Forms are never nested deeper than this when judged (a JSON field of a form). */
const MAX_DEPTH = 256;

/** Plain bodies of these kinds are numbered from here: clear of the other coverage requests' ids. */
const MEDIA_BASE = 3000;

/**
 * The request body's variants the JSON kinds (KINDS, context.ts) leave: every one a codec writes
 * but application/json itself - a form, multipart, text, bytes, a `+json` type.
 */
export function otherMediaVariants(operation: OperationContract): MediaVariant[] {
  return (operation.requestBody?.variants ?? []).filter((v) => v.essence !== 'application/json' && !v.essence.includes('*') && v.codec.name !== 'unchecked');
}

/** Whether the JSON kinds can send the operation's body: it declares application/json itself. */
export function declaresJson(operation: OperationContract): boolean {
  return operation.requestBody?.variants.some((v) => v.essence === 'application/json') === true;
}

/** The Content-Type of a variant's body: a multipart boundary the same for every `n` run to run (coverage is deterministic). */
function contentTypeOf(variant: MediaVariant, n: number): string {
  const written = variant.codec.withParameters?.(variant.mediaType) ?? variant.mediaType;
  return written.replace(/boundary=[^;]*/i, `boundary=plant-store-kit-${String(n).padStart(8, '0')}`);
}

/** A model as the value a codec writes (numbers exact). */
function valueOf(model: JsonModel): unknown {
  return parseJson(writeJson(model));
}

/** Whether the contract reads the bytes as a valid body of the variant: its codec reads them, and its schema (where it has one a codec checks) holds. */
export function judgeBody(variant: MediaVariant, contentType: string, bytes: Uint8Array): boolean {
  const value = decodeBody(variant.codec, bytes, { maxDepth: MAX_DEPTH }, { contentType, fields: variant.fields });
  if (value instanceof Malformed) return false;
  return variant.validate === undefined || variant.validate(value).valid;
}

/** A body of the variant written from a model, judged. */
export function writeBody(variant: MediaVariant, model: JsonModel, n: number, variantText: string, tags: readonly string[] = []): MediaBody {
  const contentType = contentTypeOf(variant, n);
  const bytes = variant.codec.encode(valueOf(model), { contentType, fields: variant.fields });
  return { contentType, bytes, valid: judgeBody(variant, contentType, bytes), variant: variantText, tags };
}

/**
 * A body as the operation takes it: an empty one is no body (whatever its codec reads of no
 * bytes: an empty form is a form without fields), which a required request body cannot be, and
 * which an optional one may be - a form of a declared type whose every field the probe left out
 * (an empty array writes no field) is then a request without a body, valid.
 */
export function asSent(operation: OperationContract, body: MediaBody): MediaBody {
  if (body.bytes.length > 0) return body;
  if (operation.requestBody?.required === true) return body.valid ? { ...body, valid: false } : body;
  // Under a type the operation does not declare, an empty body is still refused for its type.
  return !body.valid && variantFor(operation.requestBody?.variants ?? [], body.contentType) !== undefined ? { ...body, valid: true } : body;
}

/** The variant's plain body number `n` (a different key for each n, as plainBody). */
export function plainMediaBody(schemas: SchemaArbitraries, variant: MediaVariant, n: number): MediaBody {
  return writeBody(variant, schemas.plain(variant.schema ?? {}, n), n, `a plain ${variant.mediaType} body`, [`media:${variant.essence}`]);
}

/** A media type none of the operation's variants covers, for a body sent under the wrong Content-Type; undefined where a range covers all. */
export function undeclaredType(operation: OperationContract, variant: MediaVariant): string | undefined {
  const candidates = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=plant', 'application/octet-stream', 'application/xml', 'text/csv'];
  const variants = operation.requestBody?.variants ?? [];
  return candidates.find((type) => variantFor(variants, type) === undefined && !type.startsWith(variant.essence));
}

/**
 * The coverage phase's bodies of one variant: its plain body, every schema probe of it (a field
 * out of its range, a part missing, a wrong type), each judged, and its plain body under a type
 * the operation does not declare (which must get a declared 4xx).
 */
export function mediaCoverage(contract: Contract, schemas: SchemaArbitraries, operation: OperationContract, variant: MediaVariant): MediaBody[] {
  const bodies = [plainMediaBody(schemas, variant, MEDIA_BASE)];
  const sent = (body: MediaBody): MediaBody => asSent(operation, body);
  if (variant.schema !== undefined) {
    probesOf(contract, variant.schema).forEach((probe, i) => {
      const n = MEDIA_BASE + 1 + i;
      bodies.push(writeBody(variant, probe.edit(schemas.plain(variant.schema ?? {}, n)), n, `${variant.mediaType}: ${describeProbe(probe)}`, [`media:${variant.essence}`, `probe:${probe.name}`]));
    });
  }
  const wrong = undeclaredType(operation, variant);
  if (wrong !== undefined) {
    const plain = plainMediaBody(schemas, variant, MEDIA_BASE);
    bodies.push({ contentType: wrong, bytes: plain.bytes, valid: false, variant: `a valid ${variant.mediaType} body sent as ${wrong}`, tags: [`media:${variant.essence}`, `wrong-type:${wrong}`] });
  }
  return bodies.map(sent);
}

/** The random phase's bodies of one variant: values drawn from its schema, written by its codec and judged. */
export function mediaArbitrary(schemas: SchemaArbitraries, operation: OperationContract, variant: MediaVariant): fc.Arbitrary<MediaBody> {
  return fc.tuple(schemas.valid(variant.schema ?? {}), fc.nat(999_999)).map(([model, n]) => asSent(operation, writeBody(variant, model, n, `a ${variant.mediaType} body drawn from its schema`, [`media:${variant.essence}`])));
}

/** JSON text (a body the stateful phase drew) as a body of the operation's first other media type; undefined where it has none. */
export function jsonTextAsOther(operation: OperationContract, text: string): { contentType: string; bytes: Uint8Array } | undefined {
  const variant = otherMediaVariants(operation)[0];
  if (variant === undefined) return undefined;
  const contentType = contentTypeOf(variant, 0);
  return { contentType, bytes: variant.codec.encode(parseJson(text), { contentType, fields: variant.fields }) };
}

/**
 * JSON text as the operation reads it when sent in its first other media type: written by the
 * codec and read back (a form carries a nested object as its JSON text, so the server stores a
 * string). The JSON text itself where the operation takes JSON or the codec cannot read it back.
 */
export function asOperationReadsIt(operation: OperationContract, text: string): string {
  if (declaresJson(operation)) return text;
  const variant = otherMediaVariants(operation)[0];
  const written = jsonTextAsOther(operation, text);
  if (variant === undefined || written === undefined) return text;
  const value = decodeBody(variant.codec, written.bytes, { maxDepth: MAX_DEPTH }, { contentType: written.contentType, fields: variant.fields });
  return value instanceof Malformed ? text : stringifyJson(value);
}
