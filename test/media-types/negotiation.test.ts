/**
 * Content negotiation (RFC 9110, section 12.5.1) and the codecs beside JSON: q-values, wildcard
 * ranges on either side, the most specific range deciding, ties to the declared order, no match
 * (the 406), and text and bytes decoded and encoded without loss.
 */
import { describe, expect, it } from 'vitest';
import { compileContract, decodeBody, Malformed, negotiate, octetStreamCodec, parseAccept, textCodec, uncheckedCodec, variantFor } from '../../src/openapi/index.js';

const pick = (accept: string | undefined, offered: readonly string[]) => negotiate(accept, offered)?.mediaType;

describe('parseAccept', () => {
  it('reads ranges, parameters and weights; skips what is not a media range', () => {
    expect(parseAccept('text/html;level=1, application/*;q=0.5, */*;q=0, bogus, a/b;q=2, x/y;q=0.123')).toEqual([
      { type: 'text', subtype: 'html', parameters: new Map([['level', '1']]), q: 1 },
      { type: 'application', subtype: '*', parameters: new Map(), q: 0.5 },
      { type: '*', subtype: '*', parameters: new Map(), q: 0 },
      { type: 'x', subtype: 'y', parameters: new Map(), q: 0.123 },
    ]);
  });

  it('compares types case-insensitively and keeps a quoted comma inside its parameter', () => {
    expect(parseAccept('Text/Plain;format="a,b";Q=0.7')).toEqual([{ type: 'text', subtype: 'plain', parameters: new Map([['format', 'a,b']]), q: 0.7 }]);
  });
});

describe('negotiate', () => {
  const offered = ['application/json', 'application/xml'];

  it('gives the first offered type without Accept, or with an empty one', () => {
    expect(negotiate(undefined, offered)).toEqual({ index: 0, mediaType: 'application/json' });
    expect(pick('', offered)).toBe('application/json');
    expect(pick(undefined, [])).toBeUndefined();
  });

  it('follows q-values, and a tie goes to the type declared first', () => {
    expect(pick('application/json;q=0.5, application/xml', offered)).toBe('application/xml');
    expect(pick('application/xml, application/json', offered)).toBe('application/json');
    expect(pick('*/*', offered)).toBe('application/json');
    expect(pick('application/*', ['application/xml', 'application/json'])).toBe('application/xml');
  });

  it('lets the most specific range decide a type, whatever its order in the field', () => {
    expect(pick('application/json;q=0, */*', offered)).toBe('application/xml');
    expect(pick('application/*;q=0.1, application/xml', offered)).toBe('application/xml');
    expect(pick('application/xml;q=0.2, application/*;q=0.9', offered)).toBe('application/json');
    expect(pick('text/plain;format=flowed, text/plain;q=0', ['text/plain;format=flowed'])).toBe('text/plain');
    expect(pick('text/plain;format=flowed', ['text/plain'])).toBeUndefined();
  });

  it('fits nothing where every range is refused or none matches: the 406', () => {
    expect(pick('text/html', offered)).toBeUndefined();
    expect(pick('application/json;q=0, application/xml;q=0.000', offered)).toBeUndefined();
    expect(pick('*/*;q=0', offered)).toBeUndefined();
  });

  it('matches an offered range to every range it overlaps, sending the concrete type the client names', () => {
    expect(pick('image/png', ['*/*'])).toBe('image/png');
    expect(pick('text/csv;q=0.5, application/json', ['application/*'])).toBe('application/json');
    expect(pick('text/*', ['*/*'])).toBe('text/plain');
    expect(pick('*/*', ['application/*'])).toBe('application/octet-stream');
    expect(pick('text/csv', ['application/*'])).toBeUndefined();
    expect(pick('application/xml;q=0.3', ['text/plain', '*/*'])).toBe('application/xml');
  });
});

describe('the codecs beside JSON', () => {
  const LIMITS = { maxDepth: 64 };

  it('text/plain: strict UTF-8 text as a string, written back as UTF-8', () => {
    expect(decodeBody(textCodec, new TextEncoder().encode('grüß 🌱'), LIMITS)).toBe('grüß 🌱');
    expect(decodeBody(textCodec, Uint8Array.from([0xc3, 0x28]), LIMITS)).toBeInstanceOf(Malformed);
    expect(new TextDecoder().decode(textCodec.encode('grüß'))).toBe('grüß');
    expect(textCodec.validation).toBe('schema');
  });

  it('application/octet-stream and unchecked types: every byte kept, none checked', () => {
    const bytes = Uint8Array.from([0x00, 0x7f, 0x80, 0xff]);
    for (const codec of [octetStreamCodec, uncheckedCodec]) {
      const value = decodeBody(codec, bytes, LIMITS);
      expect(value).toBe('\u0000\u007f\u0080\u00ff');
      expect(codec.encode(value)).toEqual(bytes);
      expect(codec.validation).toBe('none');
    }
    expect(new TextDecoder().decode(octetStreamCodec.encode('<a>ü€</a>'))).toBe('<a>ü€</a>');
  });
});

describe('variantFor: the request variant a Content-Type picks', () => {
  const content = { 'application/json': { schema: { type: 'array' } }, 'text/*': { schema: { type: 'string' } }, 'application/vnd.api+json': {} };
  const { requestBody } = compileContract({ openapi: '3.1.0', info: { title: 'c', version: '1' }, paths: { '/a': { post: { requestBody: { content }, responses: { '204': { description: 'ok' } } } } } }).operations[0] ?? {};
  const variants = requestBody?.variants ?? [];

  it('by its essence, parameters and case aside; else by a declared range; else none (415)', () => {
    expect(variantFor(variants, 'Application/JSON; charset=utf-8')?.mediaType).toBe('application/json');
    expect(variantFor(variants, 'application/vnd.api+json')?.codec.name).toBe('json');
    expect(variantFor(variants, 'text/csv')?.mediaType).toBe('text/*');
    expect(variantFor(variants, 'application/xml')).toBeUndefined();
    expect(variantFor(variants, undefined)).toBeUndefined();
  });

  it('an array schema is no object schema: the object rule lets arrays through', () => {
    expect(requestBody?.objectsOnly).toBe(false);
  });
});
