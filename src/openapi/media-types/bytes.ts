/**
 * Bodies read as bytes: `application/octet-stream` (RFC 2046, section 4.5.1), and every media type
 * the kit has no codec for (XML, images, PDF), which it reads and serves without
 * checking them (`unchecked`, named when a contract is loaded: docs/contracts.md). The value is
 * the bytes as a string of one character per byte (codec.ts, `decodeBody`), so nothing is lost.
 */
import type { MediaTypeCodec } from './codec.js';

/** Bytes as they are: each character of a string one byte (U+0000 to U+00FF), anything else as its JSON text. */
function encodeBytes(value: unknown): Uint8Array {
  if (typeof value !== 'string') return new TextEncoder().encode(JSON.stringify(value));
  // A string of bytes (as decoded) is written back byte for byte; other text as UTF-8.
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return new TextEncoder().encode(value);
  return Uint8Array.from(value, (char) => char.charCodeAt(0));
}

/** `application/octet-stream`: any bytes; a schema (`type: string, format: binary`) says nothing checkable of them. */
export const octetStreamCodec: MediaTypeCodec = {
  name: 'bytes',
  essences: ['application/octet-stream'],
  suffix: undefined,
  validation: 'none',
  parse: (text) => text,
  encode: encodeBytes,
};

/** Any media type no codec serves: read and served as bytes, never checked, and named so (`unchecked`). */
export const uncheckedCodec: MediaTypeCodec = {
  name: 'unchecked',
  essences: [],
  suffix: undefined,
  validation: 'none',
  parse: (text) => text,
  encode: encodeBytes,
};
