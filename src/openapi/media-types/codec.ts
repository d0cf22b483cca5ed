/**
 * What a media-type codec is: the media types it serves, how a body's bytes become a value (or
 * why they are malformed), how a value becomes bytes, and what can be checked of its values.
 * One file per codec beside this one, each listed once in index.ts (docs/DESIGN.md, "Recipes").
 *
 * Decoding is in steps because the servers name the step that refused a body (its verdict, its
 * Error code): the text of the bytes, what may not open it, its nesting, the parse. A codec has
 * the steps its format needs; `parse` is the one every codec has.
 */
import type { JsonValue } from '../json.js';

/** Why a body is not of its media type: the message an Error carries, and the exception behind it if any. */
export class Malformed {
  constructor(
    readonly reason: string,
    /** The parser's own words (`Unexpected end`), without the codec's framing. */
    readonly detail: string = reason,
    readonly cause?: unknown,
  ) {}
}

export interface DecodeLimits {
  /** Arrays and objects nested deeper than this are refused before the text is parsed. */
  readonly maxDepth: number;
}

// The fields of a form (form-fields.ts works them out from the schema and encoding object).

/** What a field's text (an array's item's) is read as. */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'binary';

export interface FormField {
  readonly kind: FieldKind;
  /** Whether the value is a list (an array schema): repeated names, or one delimited text. */
  readonly array: boolean;
  /** The encoding's `style` (urlencoded only): form (default), spaceDelimited, pipeDelimited, deepObject. */
  readonly style: string;
  /** The encoding's `explode` (default true for form, as for query parameters). */
  readonly explode: boolean;
  /** The encoding's `contentType`, if it gives one. */
  readonly contentType: string | undefined;
  /** A deepObject's own properties (`name[key]=value`), typed. */
  readonly properties: FormFields | undefined;
}

export type FormFields = ReadonlyMap<string, FormField>;

/**
 * What a codec of fields (a form, multipart) needs beyond the text: the Content-Type as sent (its
 * parameters: multipart's boundary), the fields its schema and encoding object declare, and the
 * nesting limit for a field that is JSON. A codec of one value (JSON, text, bytes) reads none of it.
 */
export interface BodyContext {
  readonly contentType?: string | undefined;
  readonly fields?: FormFields | undefined;
  readonly maxDepth?: number | undefined;
}

export interface MediaTypeCodec {
  /** How the kit names it (`json`). */
  readonly name: string;
  /** The essences it serves exactly (lower case, no parameters: `application/json`). */
  readonly essences: readonly string[];
  /**
   * The structured syntax suffix it also serves (RFC 6838, section 4.2.8: `json` for
   * `application/problem+json`), or undefined. A type served exactly by another codec is that one's.
   */
  readonly suffix?: string | undefined;
  /** `schema`: a decoded value is held to the media type's JSON Schema; `none`: it cannot be checked. */
  readonly validation: 'schema' | 'none';
  /** Bytes to text, strictly (a text media type); undefined for a type read as bytes. */
  readonly text?: ((bytes: Uint8Array) => string | Malformed) | undefined;
  /** What may not open the text (JSON: a byte order mark). */
  readonly opening?: ((text: string) => Malformed | undefined) | undefined;
  /** Nesting past `maxDepth`, found before parsing so that a hostile body cannot exhaust the parser. */
  readonly nesting?: ((text: string, maxDepth: number) => Malformed | undefined) | undefined;
  /**
   * Whether its values are objects of fields typed by the schema's properties and the media type's
   * `encoding` object (OpenAPI 3.1, section 4.8.15): content.ts works the fields out once.
   */
  readonly fields?: boolean | undefined;
  /** The text as a value (numbers exact: LosslessNumbers). */
  parse(text: string, context?: BodyContext): JsonValue | Malformed;
  /** A value as the bytes of a body (`context.contentType`: what `withParameters` gave). */
  encode(value: unknown, context?: BodyContext): Uint8Array;
  /** The Content-Type to send with a body of `mediaType`, where the codec adds a parameter (multipart's boundary). */
  withParameters?: ((mediaType: string) => string) | undefined;
}

/** A value as a body of `mediaType`: the Content-Type to send (with any parameter its codec adds) and the bytes. */
export function serialiseBody(codec: MediaTypeCodec, mediaType: string, value: unknown, fields?: FormFields): { contentType: string; bytes: Uint8Array } {
  const contentType = codec.withParameters?.(mediaType) ?? mediaType;
  return { contentType, bytes: codec.encode(value, { contentType, fields }) };
}

/** A body's bytes through every step of its codec: the value, or why it is malformed. */
export function decodeBody(codec: MediaTypeCodec, bytes: Uint8Array, limits: DecodeLimits, context?: BodyContext): JsonValue | Malformed {
  // A type read as bytes gets one character per byte (U+0000 to U+00FF): nothing is lost.
  const text = codec.text ? codec.text(bytes) : bytesAsText(bytes);
  if (text instanceof Malformed) return text;
  return codec.opening?.(text) ?? codec.nesting?.(text, limits.maxDepth) ?? codec.parse(text, { maxDepth: limits.maxDepth, ...context });
}

/** Bytes as a string of one character per byte (U+0000 to U+00FF), in chunks the call stack holds. */
export function bytesAsText(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 0x8000) text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return text;
}

/** Whether every character of a string is one byte (U+0000 to U+00FF): a string of bytes as the kit keeps them. */
export function isByteString(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return false;
  return true;
}
