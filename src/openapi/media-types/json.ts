/**
 * The JSON codec (RFC 8259): strict UTF-8, no byte order mark, nesting bounded before parsing,
 * numbers kept as their decimal text (lossless, ../json.ts) so an int64 stays exact.
 */
import { nestingExceeds, parseJson, stringifyJson } from '../json.js';
import { Malformed, type MediaTypeCodec } from './codec.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();

// A malformed body becomes a 400 of which only the message is read: no stack trace is captured
// for what the decoder or the parser throws (capturing one costs more than parsing a small body).
// Inline, not a helper taking a closure: these run on every request.

export const jsonCodec: MediaTypeCodec = {
  name: 'json',
  essences: ['application/json'],
  // Every `+json` type (RFC 6838, section 4.2.8: problem+json, merge-patch+json, vnd.api+json) is JSON text.
  suffix: 'json',
  validation: 'schema',
  /** A JSON text is UTF-8 (RFC 8259, section 8.1), decoded strictly: no replacement characters. */
  text: (bytes) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return UTF8.decode(bytes);
    } catch (cause) {
      return new Malformed('body: not valid UTF-8', 'not valid UTF-8', cause);
    } finally {
      Error.stackTraceLimit = limit;
    }
  },
  /** RFC 8259, section 8.1: no byte order mark; said plainly (the parser's message would show an invisible character). */
  opening: (text) =>
    text.charCodeAt(0) === 0xfeff
      ? new Malformed('malformed JSON: a byte order mark (U+FEFF) precedes the JSON text; send UTF-8 without one (RFC 8259, section 8.1)', 'a byte order mark precedes the JSON text')
      : undefined,
  /** A text nests no deeper than it has characters: a short body needs no scan. */
  nesting: (text, maxDepth) => (text.length > maxDepth && nestingExceeds(text, maxDepth) ? new Malformed(`body: nested deeper than ${maxDepth} levels`) : undefined),
  parse: (text) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return parseJson(text);
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      return new Malformed(`malformed JSON: ${detail}`, detail, cause);
    } finally {
      Error.stackTraceLimit = limit;
    }
  },
  encode: (value) => ENCODER.encode(stringifyJson(value)),
};
