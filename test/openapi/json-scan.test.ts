/**
 * parseJson's faster first reading of long texts (src/openapi/json-scan.ts) gives lossless-json's
 * own values or leaves the text to it: on well-formed JSON of every kind, on texts one edit away from it and on
 * the cases where lossless-json decides (duplicate keys, `__proto__`, deep nesting), parseJson
 * answers what lossless-json's `parse` answers - the same value, LosslessNumbers of the same text,
 * or the same error message.
 */
import fc from 'fast-check';
import { isLosslessNumber as losslessMarker, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { isLosslessNumber, parseJson, type JsonValue } from '../../src/openapi/index.js';
import { SCAN_FROM } from '../../src/openapi/json.js';
import { scanJson } from '../../src/openapi/json-scan.js';
import { fcParameters } from '../support/seed.js';

/** What lossless-json answers: its value, or its error's message. */
function lossless(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function ours(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The same tree: numbers LosslessNumbers of the same text, keys in the same order, own `__proto__` kept as data. */
function same(a: unknown, b: unknown): boolean {
  if (losslessMarker(a) || losslessMarker(b)) return isLosslessNumber(a) && isLosslessNumber(b) && a.value === b.value;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (typeof a === 'object' && a !== null) {
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    const other = Object.keys(b);
    return Object.getPrototypeOf(a) === Object.getPrototypeOf(b) && keys.length === other.length && keys.every((k, i) => other[i] === k && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return Object.is(a, b);
}

/** The scan answers lossless-json's value or leaves the text to it; parseJson answers what lossless-json answers, value or error. */
function agrees(text: string): void {
  const expected = lossless(text);
  const scanned = scanJson(text);
  // Where the scan answers itself, lossless-json accepts the text, and reads the same value.
  if (scanned !== undefined) expect('value' in expected && same(scanned, expected.value), text).toBe(true);
  const got = ours(text);
  if ('error' in expected) expect(got).toEqual(expected);
  else expect('value' in got && same(got.value, expected.value), text).toBe(true);
}

/** The text padded past SCAN_FROM with whitespace JSON allows after the value: parseJson scans it first. */
const long = (text: string): string => `${text}${' '.repeat(SCAN_FROM)}`;

/** Characters JSON texts are made of, and ones that break them. */
const PIECES = ['{', '}', '[', ']', ':', ',', '"', '\\', 'u', '0', '1', '9', '-', '+', '.', 'e', 'E', ' ', '\n', '\t', 'a', 'true', 'null', 'false', '\u0000', '\u001f', '\ud83c', '\udf31', 'é', '\\u00e9', '\\ud800', '\\n', '\\x', '__proto__'];

describe('parseJson reads as lossless-json reads', () => {
  it('well-formed JSON of every kind: the same values', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' }).map((v) => JSON.stringify(v, null, 2))), (text) => {
        agrees(text);
        agrees(long(text));
        // JSON.stringify writes no key twice: the scan reads all of it itself.
        expect(scanJson(text) === undefined && text !== 'null').toBe(false);
      }),
      fcParameters('well-formed JSON', 150),
    );
  });

  it('texts one edit away from JSON, and texts of JSON pieces: the same value or the same error', () => {
    const edited = fc.tuple(fc.json(), fc.nat(), fc.constantFrom(...PIECES), fc.boolean()).map(([text, at, piece, replace]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + piece + text.slice(replace ? i + 1 : i);
    });
    const pieces = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((list) => list.join(''));
    fc.assert(
      fc.property(fc.oneof(edited, pieces), (text) => {
        agrees(text);
        agrees(long(text));
      }),
      fcParameters('edited JSON', 400),
    );
  });

  it('numbers, escapes, keys and nesting as lossless-json decides them', () => {
    const texts = [
      '9223372036854775807',
      '-0',
      '1.0',
      '1e400',
      '-1.5E-7',
      '01',
      '1.',
      '-',
      '.5',
      '"\\u00E9\\ud83c\\udf31\\ud800 \\/\\b\\f\\n\\r\\t\\"\\\\"',
      '"\\u12G4"',
      '"\u0007"',
      '"abc',
      '{"a":1,"a":1}',
      '{"a":1,"a":2}',
      '{"a":{"b":[1]},"a":{"b":[1]}}',
      '{"__proto__":{"polluted":true}}',
      '{"a":1,}',
      '[1,]',
      '[,1]',
      '{ "a" : [ true , false , null ] }',
      ' \t\n\r{}\r\n',
      '\ufeff{}',
      '',
      'nul',
      'truex',
      '[1 2]',
      // Deep, but within what the comparison's own recursion (same) keeps on any worker's stack.
      `${'['.repeat(1500)}${']'.repeat(1500)}`,
    ];
    for (const text of texts) {
      agrees(text);
      agrees(long(text));
    }
  });

  it('gives an own __proto__ as data, never the prototype', () => {
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
