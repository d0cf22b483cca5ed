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
  /** The text as a value (numbers exact: LosslessNumbers). */
  parse(text: string): JsonValue | Malformed;
  /** A value as the bytes of a body. */
  encode(value: unknown): Uint8Array;
}

/** A body's bytes through every step of its codec: the value, or why it is malformed. */
export function decodeBody(codec: MediaTypeCodec, bytes: Uint8Array, limits: DecodeLimits): JsonValue | Malformed {
  // A type read as bytes gets one character per byte (U+0000 to U+00FF): nothing is lost.
  const text = codec.text ? codec.text(bytes) : Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');
  if (text instanceof Malformed) return text;
  return codec.opening?.(text) ?? codec.nesting?.(text, limits.maxDepth) ?? codec.parse(text);
}
