/**
 * The generator of answers from a schema (src/openapi/generated.ts): each keyword it honours,
 * the same value for the same seed, int64 exact, recursion bounded, and the validator's word on
 * `oneOf`/`anyOf` and on what it cannot honour (a `pattern`).
 */
import { describe, expect, it } from 'vitest';
import { compileContract, loadContract, stringifyJson, type Contract, type JsonValue, type Schema } from '../../src/openapi/index.js';
import { generateValue, planReference, type GeneratedValue } from '../../src/reference/index.js';

/** A 3.1 contract whose one operation answers `schema` (components.schemas named too), with its response's validator. */
function contractOf(schema: Schema, schemas: Record<string, Schema> = {}): Contract {
  return compileContract({
    openapi: '3.1.0',
    info: { title: 'generated', version: '1' },
    paths: { '/thing': { get: { operationId: 'thing', responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  });
}

function generated(schema: Schema, schemas: Record<string, Schema> = {}, seed?: string): GeneratedValue & { text: string } {
  const contract = contractOf(schema, schemas);
  const validate = contract.operationById('thing')?.response(200)?.validateBody;
  const result = generateValue(schema, { resolve: (s) => contract.resolve(s), seed, validate });
  return { ...result, text: stringifyJson(result.value) };
}

const text = (schema: Schema, schemas?: Record<string, Schema>, seed?: string): string => generated(schema, schemas, seed).text;

describe('the schema\'s own values come first', () => {
  it.for([
    [{ type: 'string', const: 'fixed', default: 'other' }, '"fixed"'],
    [{ type: 'string', enum: ['first', 'second'] }, '"first"'],
    [{ type: 'integer', default: 7 }, '7'],
    [{ type: 'string', examples: ['from examples'], example: 'later' }, '"from examples"'],
    [{ type: 'object', example: { a: 1 } }, '{"a":1}'],
  ] as const)('%j gives %s', ([schema, expected]) => {
    expect(generated(schema)).toMatchObject({ text: expected, valid: true });
  });
});

describe('by type', () => {
  it('a type array takes its first non-null type; null alone is null', () => {
    expect(text({ type: ['null', 'boolean'] })).toBe('true');
    expect(text({ type: 'null' })).toBe('null');
  });

  it('an object has its required properties, the optional ones near the top, and minProperties', () => {
    const value = generated({ type: 'object', required: ['a'], properties: { a: { type: 'boolean' }, b: { type: 'null' } }, minProperties: 4, additionalProperties: { type: 'integer', const: 3 } });
    expect(value).toMatchObject({ text: '{"a":true,"b":null,"property1":3,"property2":3}', valid: true });
  });

  it('an array has minItems items, one where none is asked, none where maxItems is 0', () => {
    expect(text({ type: 'array', items: { const: 1 }, minItems: 3 })).toBe('[1,1,1]');
    expect(text({ type: 'array', items: { const: 1 } })).toBe('[1]');
    expect(text({ type: 'array', items: { const: 1 }, maxItems: 0 })).toBe('[]');
  });

  it('a string honours minLength and maxLength', () => {
    expect(generated({ type: 'string', minLength: 20 }).value).toHaveLength(20);
    expect(generated({ type: 'string', maxLength: 2 }).value).toHaveLength(2);
    expect(generated({ type: 'string', minLength: 3, maxLength: 3 })).toMatchObject({ valid: true });
  });

  it.for(['date', 'date-time', 'time', 'email', 'uuid', 'uri', 'ipv4', 'ipv6', 'hostname'])('a string of format %s is valid for it', (format) => {
    expect(generated({ type: 'string', format })).toMatchObject({ valid: true });
  });

  it.for([
    { type: 'integer', minimum: 5, maximum: 5 },
    { type: 'integer', exclusiveMinimum: 5, exclusiveMaximum: 7 },
    { type: 'integer', minimum: 10, maximum: 20, multipleOf: 7 },
    { type: 'integer', maximum: -1000 },
    { type: 'number', minimum: 0.1, maximum: 0.9 },
    { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    { type: 'number', minimum: 1, multipleOf: 0.25 },
    { type: 'number', multipleOf: 0.1 },
  ] as Schema[])('a number of %j is valid for it', (schema) => {
    expect(generated(schema)).toMatchObject({ valid: true });
  });

  it('exact bounds give exact values', () => {
    expect(text({ type: 'integer', minimum: 5, maximum: 5 })).toBe('5');
    expect(text({ type: 'integer', exclusiveMinimum: 5, exclusiveMaximum: 7 })).toBe('6');
    expect(text({ type: 'integer', minimum: 10, maximum: 20, multipleOf: 7 })).toBe('14');
  });

  it('an int64 at the top of its range is written exactly (no double in between)', () => {
    // A contract's 9223372036854775807, read as a JavaScript number, is 2^63: the int64 range clamps it back.
    expect(text({ type: 'integer', format: 'int64', minimum: 2 ** 63 })).toBe('9223372036854775807');
    expect(text({ type: 'integer', format: 'int64', maximum: -(2 ** 63) })).toBe('-9223372036854775808');
  });
});

describe('composition', () => {
  it('allOf is merged: the properties and required of each', () => {
    const value = generated({ allOf: [{ $ref: '#/components/schemas/Named' }, { type: 'object', required: ['age'], properties: { age: { type: 'integer', const: 2 } } }] }, { Named: { type: 'object', required: ['name'], properties: { name: { const: 'fern' } } } });
    expect(value).toMatchObject({ text: '{"name":"fern","age":2}', valid: true });
  });

  it('oneOf takes the first branch the validator accepts', () => {
    // The first branch's value (1) also matches the second: oneOf refuses it, the second's own is taken.
    const value = generated({ oneOf: [{ type: 'integer', const: 1 }, { type: 'integer', minimum: 0 }] });
    expect(value.valid).toBe(true);
    expect(value.text).not.toBe('1');
    expect(generated({ oneOf: [{ type: 'integer', const: 1 }, { type: 'integer', minimum: 1, maximum: 1 }, { type: 'string', const: 'third' }] })).toMatchObject({ text: '"third"', valid: true });
    expect(text({ anyOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe('true');
  });

  it('a recursive schema is bounded: optional recursion is left out, required recursion ends', () => {
    const schemas: Record<string, Schema> = {
      Tree: { type: 'object', required: ['name'], properties: { name: { const: 't' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } }, parent: { $ref: '#/components/schemas/Tree' } } },
      Chain: { type: 'object', required: ['next'], properties: { next: { $ref: '#/components/schemas/Chain' } } },
    };
    expect(generated({ $ref: '#/components/schemas/Tree' }, schemas)).toMatchObject({ text: '{"name":"t","children":[]}', valid: true });
    const chain = generated({ $ref: '#/components/schemas/Chain' }, schemas);
    expect(chain.text.length).toBeLessThan(200);
    expect(chain.valid).toBe(false);
  });
});

describe('the seed', () => {
  const schema: Schema = { type: 'object', required: ['a', 'b', 'c'], properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'string', format: 'uuid' } } };

  it('the same seed gives the same value; another seed another one', () => {
    const values = (seed?: string): string[] => [1, 2, 3].map(() => text(schema, {}, seed));
    expect(new Set(values('a')).size).toBe(1);
    expect(new Set(values()).size).toBe(1);
    // The test can fail: different seeds differ (were the seed ignored, this would be equal).
    expect(text(schema, {}, 'a')).not.toBe(text(schema, {}, 'b'));
  });
});

describe('what the generator cannot honour', () => {
  it('a pattern: the value is still given, and named not valid', () => {
    const value = generated({ type: 'string', pattern: '^[0-9]{3}$' });
    expect(value.valid).toBe(false);
    expect(typeof value.value).toBe('string');
  });

  it('an optional property of a pattern is left out; the rest is valid', () => {
    expect(generated({ type: 'object', required: ['a'], properties: { a: { const: 1 }, code: { type: 'string', pattern: '^[0-9]{3}$' } } })).toMatchObject({ text: '{"a":1}', valid: true });
  });

  it('never throws on odd schemas', () => {
    for (const schema of [{}, { type: [] }, { type: 'array' }, { required: ['x'] }, { oneOf: [] }, { allOf: [{}] }] as Schema[]) {
      expect(() => generated(schema)).not.toThrow();
    }
    expect(generated({}).value satisfies JsonValue).toEqual({});
  });
});

describe('the kit\'s own contract', () => {
  it('generates nothing: every operation is the store\'s or answered from its examples, as before', () => {
    const plan = planReference(loadContract());
    expect(plan.generated).toEqual([]);
    expect(plan.invalid).toEqual([]);
  });
});

describe('an operation whose success offers no JSON', () => {
  it('answers a value of its text/plain schema, or a form, written by the media type\'s codec; XML alone its type and an empty root element', async () => {
    const { createStoreApp } = await import('../../src/reference/index.js');
    const content = (mediaType: string, schema: Schema) => ({ '200': { description: 'ok', content: { [mediaType]: { schema } } } });
    const contract = compileContract({
      openapi: '3.1.0',
      info: { title: 'texts', version: '1' },
      paths: {
        '/motto': { get: { responses: content('text/plain', { type: 'string', minLength: 3, enum: ['grow slowly'] }) } },
        '/form': { get: { responses: content('application/x-www-form-urlencoded', { type: 'object', required: ['bed', 'rows'], properties: { bed: { type: 'string', const: 'north' }, rows: { type: 'integer', minimum: 4, maximum: 4 } } }) } },
        '/xml': { get: { responses: content('application/xml', { type: 'object' }) } },
      },
    });
    const app = createStoreApp(contract, { tokens: ['t'] });
    const get = (url: string) => app.request({ method: 'GET', url, headers: {} });
    expect(get('/motto')).toMatchObject({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'grow slowly' });
    expect(get('/form')).toMatchObject({ status: 200, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'bed=north&rows=4' });
    // Once no body and no Content-Type, which response-shape fails for content the contract declares (a survey of public documents).
    expect(get('/xml')).toMatchObject({ status: 200, headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0" encoding="UTF-8"?>\n<root/>\n' });
  });
});
