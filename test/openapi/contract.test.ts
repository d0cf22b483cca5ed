import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContract, exactInteger, formatIssues, integerText, INT64_MAX, INT64_MIN, isInt64Projection, loadContract, nestingExceeds, parseJson, projectNumber, stringifyJson } from '../../src/openapi/index.js';
import { fcParameters } from '../support/seed.js';

const contract = loadContract();
const addPlant = contract.findOperation('POST', '/plants');

describe('the contract layer reads openapi.yaml', () => {
  it('finds POST /plants with its declared statuses and bearer security', () => {
    expect(addPlant?.operationId).toBe('addPlant');
    expect(addPlant?.declaredStatuses).toEqual([200, 400, 401]);
    expect(addPlant?.security).toEqual([[{ name: 'bearerAuth', type: 'http', scheme: 'bearer' }]]);
    expect(contract.methodsFor('/plants')).toEqual(['POST']);
    expect(contract.methodsFor('/plants/1')).toBeUndefined();
  });

  it('resolves NewPlant through allOf into its properties and required names', () => {
    const shape = addPlant?.requestBody?.shape;
    expect([...(shape?.properties.keys() ?? [])].sort()).toEqual(['id', 'name', 'tag']);
    expect([...(shape?.required ?? [])].sort()).toEqual(['id', 'name']);
  });

  it.each([
    ['{"name":"a","id":9223372036854775807}', true, ''],
    ['{"name":"a","id":-9223372036854775808}', true, ''],
    ['{"name":"a","id":9223372036854775808}', false, 'id: must be an int64 integer'],
    ['{"name":"a","id":-9223372036854775809}', false, 'id: must be an int64 integer'],
    ['{"name":"a","id":1.0}', true, ''],
    ['{"name":"a","id":1e2}', true, ''],
    ['{"name":"a","id":1.5}', false, 'id: must be an integer'],
    ['{"name":"a","id":"1"}', false, 'id: must be an integer'],
    ['{"id":1}', false, 'name: is required'],
    ['{"name":"a","id":1,"tag":null}', false, 'tag: must be a string'],
    ['{"name":"a","id":1,"extra":{"__proto__":1}}', true, ''],
  ])('validates %s as a NewPlant: %s', (text, valid, message) => {
    const result = addPlant?.requestBody?.validate(parseJson(text));
    expect(result?.valid).toBe(valid);
    expect(formatIssues(result?.issues ?? [])).toContain(message);
  });

  it('names the field of every issue, nested properties and keys with / and ~ included', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      'a/b': { type: 'string' },
                      'x~y': { type: 'integer' },
                      nested: { type: 'object', required: ['inner'], properties: { deep: { type: 'string' }, 'c/d': { type: 'integer', format: 'int64' } } },
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const validate = compileContract(document).findOperation('POST', '/things')?.requestBody?.validate;
    const issues = (text: string): string => formatIssues(validate?.(parseJson(text)).issues ?? []);
    expect(issues('{"a/b":1}')).toBe('a/b: must be a string');
    expect(issues('{"x~y":"s"}')).toBe('x~y: must be an integer');
    expect(issues('{"nested":{}}')).toBe('nested.inner: is required');
    expect(issues('{"nested":{"inner":1,"deep":1}}')).toBe('nested.deep: must be a string');
    expect(issues('{"nested":{"inner":1,"c/d":9223372036854775808}}')).toBe(`nested.c/d: must be an int64 integer, from ${INT64_MIN} to ${INT64_MAX}`);
    expect(issues('[]')).toBe('body: must be an object');
  });

  it.each([
    ['a type that is none', { type: 'strng' }, /type must be JSONType/],
    ['properties that are no object', { type: 'object', properties: 5 }, /properties value must be/],
    ['a minLength that is no number', { type: 'string', minLength: 'x' }, /minLength value must be/],
    ['required that is no list', { type: 'object', required: 'name' }, /required value must be/],
  ])("refuses a contract whose request schema has %s: each schema's keywords are checked as it compiles", (_what, schema, message) => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/things': { post: { operationId: 'addThing', requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } },
    };
    expect(() => compileContract(document, 'bad.yaml')).toThrow(message);
  });

  it('validates response bodies against the declared response, int32 exactly', () => {
    const error = addPlant?.response(400)?.validateBody;
    expect(error?.(parseJson('{"error":400,"message":"x"}')).valid).toBe(true);
    expect(error?.(parseJson('{"error":2147483648,"message":"x"}')).valid).toBe(false);
    expect(error?.(parseJson('{"error":"400","message":"x"}')).valid).toBe(false);
    expect(addPlant?.response(401)?.headers.get('www-authenticate')?.required).toBe(true);
    expect(addPlant?.response(500)).toBeUndefined();
  });
});

describe('lossless JSON', () => {
  it('round-trips int64 ids digit for digit', () => {
    for (const id of ['9007199254740993', INT64_MAX.toString(), INT64_MIN.toString()]) {
      expect(stringifyJson(parseJson(`{"id":${id}}`))).toBe(`{"id":${id}}`);
    }
  });

  it('keeps __proto__ as an ordinary key and leaves prototypes alone', () => {
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['1.0', 1n],
    ['1e2', 100n],
    ['-0', 0n],
    ['100e-2', 1n],
    ['12.50e1', 125n],
    ['1.5', undefined],
    ['1e-1', undefined],
  ])('exactInteger(%s) = %s', (text, expected) => {
    expect(exactInteger(text)).toBe(expected);
  });

  it.each([
    ['100', '100'],
    ['0', '0'],
    ['-0', '0'],
    ['-7', '-7'],
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['1.0', '1'],
    ['1e2', '100'],
    ['-1E+2', '-100'],
    ['00', '0'],
    ['-05', '-5'],
    ['1.5', undefined],
    ['', undefined],
    ['-', undefined],
  ])('integerText(%s) = %s, the canonical decimal text of exactInteger', (text, expected) => {
    expect(integerText(text)).toBe(expected);
    expect(integerText(text)).toBe(exactInteger(text)?.toString());
  });

  it('projects numbers so that integer-ness and int64 range survive', () => {
    const inInt64 = (x: number) => Number.isInteger(x) && x >= -(2 ** 63) && x < 2 ** 63;
    expect(inInt64(projectNumber('9223372036854775807'))).toBe(true);
    expect(inInt64(projectNumber('9223372036854775808'))).toBe(false);
    expect(inInt64(projectNumber('-9223372036854775808'))).toBe(true);
    expect(inInt64(projectNumber('-9223372036854775809'))).toBe(false);
    expect(inInt64(projectNumber('1e400'))).toBe(false);
    expect(Number.isInteger(projectNumber('9223372036854775807.5'))).toBe(false);
    expect(projectNumber('9007199254740991')).toBe(9007199254740991);
  });

  it('projects a plain integer as it projects the same integer spelled otherwise, keeping sign, int32 and int64 (property)', () => {
    const near = (edge: bigint) => fc.bigInt({ min: edge - 3n, max: edge + 3n });
    const integers = fc.oneof(
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      fc.bigInt({ min: -(10n ** 400n), max: 10n ** 400n }),
      ...[2n ** 31n, 2n ** 53n, 2n ** 63n, 10n ** 15n, 10n ** 18n, 10n ** 19n].flatMap((edge) => [near(edge), near(-edge)]),
    );
    fc.assert(
      fc.property(integers, (n) => {
        const plain = projectNumber(n.toString());
        expect(plain).toBe(projectNumber(`${n}.0`));
        expect(plain).toBe(projectNumber(`${n}e0`));
        expect(Number.isInteger(plain)).toBe(true);
        expect(Math.sign(plain)).toBe(n === 0n ? 0 : n > 0n ? 1 : -1);
        expect(isInt64Projection(plain)).toBe(n >= INT64_MIN && n <= INT64_MAX);
        expect(plain >= -(2 ** 31) && plain <= 2 ** 31 - 1).toBe(n >= -(2n ** 31n) && n <= 2n ** 31n - 1n);
      }),
      fcParameters('projection', 2000),
    );
  });

  it('finds nesting beyond a limit without parsing, ignoring brackets in strings', () => {
    expect(nestingExceeds('[[[]]]', 3)).toBe(false);
    expect(nestingExceeds('[[[[]]]]', 3)).toBe(true);
    expect(nestingExceeds('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
  });
});
