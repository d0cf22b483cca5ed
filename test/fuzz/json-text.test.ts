import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactInteger, INT64_MAX, isLosslessNumber, parseJson } from '../../src/openapi/index.js';
import { EVERY_ESCAPE } from '../../fuzz/generation/tables/escapes.js';
import { INTEGER_SPELLINGS, LAYOUTS, spellInteger, STRING_STYLES, writeJson, writeString, type JsonModel } from '../../fuzz/generation/json-text.js';

describe('spellInteger', () => {
  it.each([
    [100n, 'plain', '100'],
    [100n, 'point-zero', '100.0'],
    [100n, 'exponent', '1e2'],
    [100n, 'upper-exponent-plus', '1E+2'],
    [100n, 'padded-exponent', '1e+02'],
    [10n ** 19n, 'exponent', '1e19'],
    [123n, 'fraction-exponent', '1.23e2'],
    [7n, 'fraction-exponent', '7.0e0'],
    [-5n, 'negative-exponent', '-50e-1'],
    [0n, 'negative-zero', '-0'],
    [INT64_MAX, 'exponent', '9223372036854775807e0'],
  ] as const)('writes %s as %s: %s', (value, spelling, text) => {
    expect(spellInteger(value, spelling)).toBe(text);
  });

  it('every spelling of every integer is a JSON number denoting exactly that integer', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.constantFrom(...INTEGER_SPELLINGS), (value, spelling) => {
        const parsed = parseJson(spellInteger(value, spelling));
        return isLosslessNumber(parsed) && exactInteger(parsed) === value;
      }),
    );
  });
});

describe('writeString and writeJson', () => {
  // Unicode scalar values: a JSON text in UTF-8 cannot carry a lone surrogate (RFC 8259, section 8.2).
  const text = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff })).map((n) => String.fromCodePoint(n)) });

  it('every style writes a JSON string that reads back as the same string', () => {
    fc.assert(fc.property(text, fc.constantFrom(...STRING_STYLES), (value, style) => JSON.parse(writeString(value, style)) === value));
  });

  it('ascii and escape-all styles write only ASCII; escape-all escapes every character', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(writeString(value, 'ascii')).toMatch(/^[\u0020-\u007e]*$/);
        expect(writeString(value, 'escape-all')).toMatch(/^"(\\u[0-9a-f]{4})*"$/);
      }),
    );
    expect(writeString('a/b', 'solidus')).toBe('"a\\/b"');
    expect(writeString('🌱', 'ascii')).toBe('"\\ud83c\\udf31"');
  });

  it('writes a lone surrogate as an escape in every style: the text has a UTF-8 form and reads back as the same string', () => {
    // Any UTF-16 units, lone surrogates and reversed pairs among them.
    const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) });
    fc.assert(
      fc.property(units, fc.constantFrom(...STRING_STYLES), (value, style) => {
        const written = writeString(value, style);
        expect(/\p{Surrogate}/u.test(written)).toBe(false);
        expect(JSON.parse(Buffer.from(written, 'utf8').toString('utf8'))).toBe(value);
      }),
    );
    expect(writeString('\udc00\ud800', 'solidus')).toBe('"\\udc00\\ud800"');
  });

  it('the escape bodies carry every escape RFC 8259, section 7 allows', () => {
    const written = STRING_STYLES.map((style) => writeString(EVERY_ESCAPE, style)).join('');
    for (const escape of ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u0001', '\\u00e9', '\\ud83c\\udf31']) expect(written).toContain(escape);
    for (const style of STRING_STYLES) expect(JSON.parse(writeString(EVERY_ESCAPE, style))).toBe(EVERY_ESCAPE);
  });

  it('every layout writes the same value', () => {
    const model: JsonModel = {
      kind: 'object',
      members: [
        { key: 'name', keyStyle: 'escape-all', value: { kind: 'string', value: 'Mon"stera', style: 'plain' } },
        { key: 'id', keyStyle: 'plain', value: { kind: 'number', text: '1e2' } },
        { key: 'x', keyStyle: 'plain', value: { kind: 'array', items: [{ kind: 'literal', text: 'null' }, { kind: 'object', members: [] }] } },
      ],
    };
    const compact = JSON.stringify(JSON.parse(writeJson(model)));
    for (const layout of LAYOUTS) expect(JSON.stringify(JSON.parse(writeJson(model, layout)))).toBe(compact);
    expect(writeJson(model, 'tabs-crlf')).toContain('\r\n\t');
    // Whitespace around the value (RFC 8259, section 2): a trailing newline, and every kind of it on both sides.
    expect(writeJson(model, 'trailing-newline')).toBe(`${writeJson(model)}\n`);
    expect(writeJson(model, 'surrounded')).toMatch(/^ \t\r\n\{[^]*\}\r\n\t \n$/);
    expect(compact).toBe('{"name":"Mon\\"stera","id":100,"x":[null,{}]}');
  });
});
