/**
 * The text codec (`text/plain`, RFC 2046 section 4.1): the body is its text, a string, held to
 * the media type's schema (`type: string`, `maxLength`, `pattern` are checkable). UTF-8, strictly
 * (the kit reads no other charset; a body that is not UTF-8 is malformed).
 */
import { Malformed, type MediaTypeCodec } from './codec.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();

export const textCodec: MediaTypeCodec = {
  name: 'text',
  essences: ['text/plain'],
  suffix: undefined,
  validation: 'schema',
  text: (bytes) => {
    try {
      return UTF8.decode(bytes);
    } catch (cause) {
      return new Malformed('body: not valid UTF-8', 'not valid UTF-8', cause);
    }
  },
  parse: (text) => text,
  encode: (value) => ENCODER.encode(typeof value === 'string' ? value : JSON.stringify(value)),
};
