/**
 * The content of a request body or a response (OpenAPI's `content` map) as media variants: each
 * declared media type with the codec that reads it (media-types/), its schema and validator where
 * its values can be checked, and its first example. A type no codec serves is read and served as
 * bytes and named unchecked (docs/contracts.md), never a reason to refuse the contract.
 */
import { parseJson, type JsonValue } from './json.js';
import { codecFor, formFields, mediaTypeEssence, uncheckedCodec, type FormFields, type MediaTypeCodec } from './media-types/index.js';
import { asRecord, encodePointerSegment, type BodyValidator, type Schema } from './types.js';

/** One declared media type of a content map. */
export interface MediaVariant {
  /** As the contract writes it (`application/problem+json`, `*` + `/*`). */
  readonly mediaType: string;
  /** Lower case, without parameters; may be a range (`application/*`). */
  readonly essence: string;
  readonly codec: MediaTypeCodec;
  /** Whether its values are held to its schema (a codec that validates, and a schema). */
  readonly checked: boolean;
  readonly schema: Schema | undefined;
  readonly validate: BodyValidator | undefined;
  /** Its first example (`example`, else the first of `examples`), lossless. */
  readonly example: JsonValue | undefined;
  /** A form's fields (its schema's properties with its `encoding` object), for a codec of fields; else undefined. */
  readonly fields: FormFields | undefined;
}

/** What compiling content needs of the contract. */
export interface ContentSources {
  readonly resolve: (schema: Schema) => Schema;
  readonly validatorAt: (pointer: string) => BodyValidator;
  readonly pointerOf: (schema: Schema, fallback: string) => string;
  /** Told each part of a content map the kit serves but does not check, by what it is (`the media type application/xml (…)`). */
  readonly unchecked: (feature: string, pointer: string) => void;
}

/** The variants of a content map at `at` (the pointer of its owner: a request body or a response). */
export function compileContent(content: Schema, at: string, sources: ContentSources): MediaVariant[] {
  return Object.keys(content).map((mediaType) => {
    const essence = mediaTypeEssence(mediaType);
    const codec = essence.includes('*') ? undefined : codecFor(essence);
    const media = asRecord(content[mediaType]);
    const pointer = `${at}/content/${encodePointerSegment(mediaType)}`;
    const schema = media.schema === undefined ? undefined : asRecord(media.schema);
    const checked = codec?.validation === 'schema' && schema !== undefined;
    if (codec === undefined) sources.unchecked(`the media type ${mediaType} (read and served unchecked)`, pointer);
    if (codec?.fields === true) noteEncoding(media.encoding, mediaType, pointer, sources.unchecked);
    return {
      mediaType,
      essence,
      codec: codec ?? uncheckedCodec,
      checked,
      schema,
      validate: checked ? sources.validatorAt(sources.pointerOf(schema, `${pointer}/schema`)) : undefined,
      example: exampleOf(media, sources.resolve),
      fields: codec?.fields === true ? formFields(schema, media.encoding, sources.resolve) : undefined,
    };
  });
}

/**
 * What a form's `encoding` object says that its codec does not check (OpenAPI 3.1, section
 * 4.8.15): a part's `headers`, and `allowReserved` (the codec reads reserved characters either way).
 */
function noteEncoding(encoding: unknown, mediaType: string, pointer: string, note: ContentSources['unchecked']): void {
  for (const [name, raw] of Object.entries(asRecord(encoding))) {
    const at = `${pointer}/encoding/${encodePointerSegment(name)}`;
    const field = asRecord(raw);
    if (field.headers !== undefined) note(`the headers of ${mediaType} field ${name} (not checked)`, `${at}/headers`);
    if (field.allowReserved === true) note(`allowReserved of ${mediaType} field ${name} (reserved characters are read either way)`, `${at}/allowReserved`);
  }
}

/** The variant the rest of the kit reads first: the first JSON one, else the first checked, else the first. */
export function preferredVariant(variants: readonly MediaVariant[]): MediaVariant | undefined {
  return variants.find((v) => v.codec.name === 'json') ?? variants.find((v) => v.checked) ?? variants[0];
}

/** The first example of a media type object (`example`, else the first of `examples`), exactly. */
function exampleOf(media: Schema, resolve: (schema: Schema) => Schema): JsonValue | undefined {
  const value = media.example ?? Object.values(asRecord(media.examples)).map((example) => resolve(asRecord(example)).value)[0];
  return value === undefined ? undefined : parseJson(JSON.stringify(value));
}

/**
 * The variant of a request body a Content-Type picks: the one of its essence, else the first
 * declared range that covers it (`text/*`, `*` + `/*`); undefined when none does (a 415).
 */
export function variantFor(variants: readonly MediaVariant[], contentType: string | undefined): MediaVariant | undefined {
  const essence = mediaTypeEssence(contentType);
  if (essence === '') return undefined;
  const exact = variants.find((v) => v.essence === essence);
  if (exact) return exact;
  const type = essence.slice(0, essence.indexOf('/') + 1);
  return variants.find((v) => v.essence === '*/*' || (v.essence.endsWith('/*') && v.essence.startsWith(type) && type !== ''));
}
