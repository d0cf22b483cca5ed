/**
 * The media-type registry (src/openapi/media-types/): the essence of a Content-Type, the lookup by
 * essence and structured suffix, and the JSON codec - every decoding step and its reason, int64
 * digit for digit both ways.
 */
import { describe, expect, it } from 'vitest';
import { CODECS, codecFor, decodeBody, isLosslessNumber, jsonCodec, loadContract, Malformed, mediaTypeEssence, octetStreamCodec, stringifyJson, textCodec, structuredSuffix, type JsonValue, type MediaTypeCodec } from '../../src/openapi/index.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const LIMITS = { maxDepth: 64 };

describe('the essence of a media type (RFC 9110, section 8.3.1)', () => {
  it.each([
    ['application/json', 'application/json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['Application/JSON;charset=UTF-8', 'application/json'],
    ['  application/json  ; q=1', 'application/json'],
    ['\tAPPLICATION/PROBLEM+JSON\t', 'application/problem+json'],
    ['text/plain;', 'text/plain'],
    ['', ''],
    [undefined, ''],
  ])('%j is %j', (contentType, essence) => {
    expect(mediaTypeEssence(contentType)).toBe(essence);
  });

  it.each([
    ['application/problem+json', 'json'],
    ['application/vnd.api+json', 'json'],
    ['image/svg+xml', 'xml'],
    ['application/json', undefined],
    ['a+b/c', undefined],
  ])('the structured suffix of %s is %s', (essence, suffix) => {
    expect(structuredSuffix(essence)).toBe(suffix);
  });
});

describe('the registry', () => {
  it('has JSON as its first member, serving application/json in any case and with parameters', () => {
    expect(CODECS[0]).toBe(jsonCodec);
    expect(codecFor('application/json')).toBe(jsonCodec);
    expect(codecFor('Application/Json; charset=utf-8')).toBe(jsonCodec);
  });

  it('serves every +json type through the JSON codec, by its structured suffix', () => {
    for (const type of ['application/problem+json', 'application/merge-patch+json', 'Application/VND.API+JSON; charset=utf-8']) expect(codecFor(type)).toBe(jsonCodec);
  });

  it('serves text/plain as text and application/octet-stream as bytes; nothing for XML, a range or no type', () => {
    expect(codecFor('text/plain; charset=utf-8')).toBe(textCodec);
    expect(codecFor('application/octet-stream')).toBe(octetStreamCodec);
    for (const type of ['application/xml', 'text/html', 'application/json-seq', 'image/png', '*/*', '', undefined]) expect(codecFor(type)).toBeUndefined();
  });

  it('finds a codec by its structured suffix where none serves the essence exactly', () => {
    const suffixed: MediaTypeCodec = { ...jsonCodec, name: 'json+', essences: [], suffix: 'json' };
    const exact: MediaTypeCodec = { ...jsonCodec, name: 'problem', essences: ['application/problem+json'] };
    expect(codecFor('application/problem+json', [suffixed])).toBe(suffixed);
    expect(codecFor('application/problem+json', [suffixed, exact])).toBe(exact);
    expect(codecFor('application/xml', [suffixed])).toBeUndefined();
  });

  it('hands a codec without a text step every byte as one character, and skips the steps it lacks', () => {
    const bytesCodec: MediaTypeCodec = { name: 'bytes', essences: ['application/octet-stream'], validation: 'none', parse: (text) => text, encode: () => new Uint8Array() };
    expect(decodeBody(bytesCodec, Uint8Array.from([0x00, 0x80, 0x9f, 0xfe, 0xff]), LIMITS)).toBe('\u0000\u0080\u009f\u00fe\u00ff');
  });

  it('gives the bundled contract’s bodies their codec', () => {
    const operation = loadContract().findOperation('POST', '/plants');
    expect(operation?.requestBody?.codec).toBe(jsonCodec);
    expect(operation?.response(200)?.codec).toBe(jsonCodec);
  });
});

describe('the JSON codec (RFC 8259)', () => {
  const decode = (input: string | Uint8Array): JsonValue | Malformed => decodeBody(jsonCodec, typeof input === 'string' ? bytes(input) : input, LIMITS);
  const reason = (input: string | Uint8Array): string | undefined => {
    const decoded = decode(input);
    return decoded instanceof Malformed ? decoded.reason : undefined;
  };

  it('keeps int64 exact: 9007199254740993 and 2^63-1 decode and encode digit for digit', () => {
    const value = decode('{"id":9007199254740993,"max":9223372036854775807,"neg":-9223372036854775808}');
    expect(value).not.toBeInstanceOf(Malformed);
    const id = (value as Record<string, JsonValue>).id;
    expect(isLosslessNumber(id) && id.value).toBe('9007199254740993');
    expect(new TextDecoder().decode(jsonCodec.encode(value))).toBe('{"id":9007199254740993,"max":9223372036854775807,"neg":-9223372036854775808}');
    expect(new TextDecoder().decode(jsonCodec.encode({ id: 9007199254740993n }))).toBe('{"id":9007199254740993}');
  });

  it('decodes arrays and scalars as well as objects', () => {
    expect(stringifyJson(decode('[1,"a",null]'))).toBe('[1,"a",null]');
    expect(decode('true')).toBe(true);
  });

  it.each([
    [Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'body: not valid UTF-8'],
    ['\ufeff{}', 'malformed JSON: a byte order mark (U+FEFF) precedes the JSON text; send UTF-8 without one (RFC 8259, section 8.1)'],
    [`${'['.repeat(65)}${']'.repeat(65)}`, 'body: nested deeper than 64 levels'],
    ['{"name":"a",', 'malformed JSON: '],
  ])('says why %j is malformed, step by step', (input, expected) => {
    expect(reason(input)).toMatch(new RegExp(`^${expected.replace(/[()[\]{}.+*?^$|\\]/g, '\\$&')}`));
  });

  it('takes nesting up to the limit', () => {
    expect(reason(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeUndefined();
  });

  it('gives the parser’s own words apart from its framing', () => {
    const malformed = jsonCodec.parse('{');
    expect(malformed).toBeInstanceOf(Malformed);
    expect((malformed as Malformed).reason).toBe(`malformed JSON: ${(malformed as Malformed).detail}`);
  });
});
