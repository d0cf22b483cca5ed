/**
 * The media types the kit reads and writes: one codec per file, each listed once in CODECS. A
 * media type is served when a codec serves its essence exactly or, failing that, its structured
 * syntax suffix (`+json`).
 */
import type { MediaTypeCodec } from './codec.js';
import { mediaTypeEssence, structuredSuffix } from './essence.js';
import { octetStreamCodec } from './bytes.js';
import { jsonCodec } from './json.js';
import { textCodec } from './text.js';
import { formCodec } from './urlencoded.js';
import { multipartCodec } from './multipart.js';

export * from './codec.js';
export * from './essence.js';
export { jsonCodec } from './json.js';
export { textCodec } from './text.js';
export { octetStreamCodec, uncheckedCodec } from './bytes.js';
export { formCodec } from './urlencoded.js';
export { multipartCodec } from './multipart.js';
export { formFields, isJsonMediaType } from './form-fields.js';
export * from './negotiation.js';

/** Every codec of the kit. Adding a media type: its file here, and its line in this list. */
export const CODECS: readonly MediaTypeCodec[] = [jsonCodec, textCodec, octetStreamCodec, formCodec, multipartCodec];

/** The codec for a media type (a Content-Type, parameters and case as they come), among `codecs`; undefined when none serves it. */
export function codecFor(mediaType: string | undefined, codecs: readonly MediaTypeCodec[] = CODECS): MediaTypeCodec | undefined {
  const essence = mediaTypeEssence(mediaType);
  const exact = codecs.find((codec) => codec.essences.includes(essence));
  if (exact) return exact;
  const suffix = structuredSuffix(essence);
  return suffix === undefined ? undefined : codecs.find((codec) => codec.suffix === suffix);
}
