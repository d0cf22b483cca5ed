/**
 * openapi.yaml is a valid OpenAPI 3.1 document and keeps the interface it describes: the words
 * of the interface specification (title, version, license, descriptions of responses and
 * fields), bearer security on every operation, and named examples that the contract's own
 * validators accept. The expected words below are the interface's, quoted from its specification;
 * everything else is read through src/openapi.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { exactInteger, isLosslessNumber, loadContract, parseJson, type BodyValidator, type Schema } from '../../src/openapi/index.js';

const contract = loadContract();
const document = parseYaml(readFileSync(contract.file, 'utf8')) as Schema;
const addPlant = contract.findOperation('POST', '/plants');

const record = (value: unknown): Schema => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {});

describe('openapi.yaml as an OpenAPI document', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('and the validator does refuse a broken copy (the check can fail)', async () => {
    const broken = structuredClone(document);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
});

describe('openapi.yaml keeps the interface (interface-spec.md)', () => {
  it('is OpenAPI 3.1.0, "OpenAPI Plant Store" 1.0.0 under MIT, with no version segment in its paths', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(contract.title).toBe('OpenAPI Plant Store');
    expect(contract.version).toBe('1.0.0');
    expect(record(record(document.info).license).name).toBe('MIT');
    for (const path of Object.keys(record(document.paths))) expect(path).not.toMatch(/\/v\d+(\/|$)/i);
  });

  it('puts bearer authentication on every operation, with no anonymous alternative', () => {
    expect(contract.operations.length).toBeGreaterThan(0);
    for (const operation of contract.operations) {
      expect(operation.security.length, operation.operationId).toBeGreaterThan(0);
      for (const alternative of operation.security) {
        expect(alternative.length, `${operation.operationId}: an empty requirement {} makes authentication optional`).toBeGreaterThan(0);
        for (const scheme of alternative) expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      }
    }
  });

  it('declares POST /plants with an operationId and a required application/json NewPlant', () => {
    expect(addPlant?.operationId).toMatch(/\w+/);
    expect(addPlant?.requestBody?.required).toBe(true);
    expect(addPlant?.requestBody?.mediaTypes).toEqual(['application/json']);
    const newPlant = record(record(record(document.components).schemas).NewPlant);
    // NewPlant is every field of Plant plus id (interface-spec.md section 2): allOf of Plant.
    expect(newPlant.allOf).toEqual(expect.arrayContaining([{ $ref: '#/components/schemas/Plant' }]));
  });

  it('keeps the descriptions of the 200 and 400 responses', () => {
    expect(addPlant?.response(200)?.description).toBe('plant response');
    expect(addPlant?.response(400)?.description).toMatch(/^unexpected error\b/);
    // The kit's additions say so.
    expect(addPlant?.response(401)?.description).toContain('Kit decision');
    expect(addPlant?.response(401)?.headers.get('www-authenticate')?.required).toBe(true);
  });

  // The field tables of interface-spec.md section 2: name, type, format, required, meaning.
  const plantFields = [
    ['name', 'string', undefined, true, 'The name of the plant'],
    ['tag', 'string', undefined, false, 'Tag that specifies the type of the plant'],
  ] as const;
  const newPlantFields = [...plantFields, ['id', 'integer', 'int64', true, 'Identification number of the plant']] as const;
  const errorFields = [
    ['error', 'integer', 'int32', true, 'Numeric error indicator'],
    ['message', 'string', undefined, true, 'Error text'],
  ] as const;

  const shapes = (): [string, Schema | undefined, readonly (readonly [string, string, string | undefined, boolean, string])[]][] => [
    ['NewPlant (request body)', addPlant?.requestBody?.schema, newPlantFields],
    ['Plant (200)', addPlant?.response(200)?.schema, plantFields],
    ['Error (400)', addPlant?.response(400)?.schema, errorFields],
    ['Error (401)', addPlant?.response(401)?.schema, errorFields],
  ];

  it.each(shapes())('%s has exactly the interface fields, types, formats and descriptions', (_label, schema, fields) => {
    if (!schema) throw new Error('no schema');
    const shape = contract.shapeOf(schema);
    expect([...shape.properties.keys()].sort()).toEqual(fields.map(([name]) => name).sort());
    for (const [name, type, format, required, description] of fields) {
      expect(shape.properties.get(name), name).toMatchObject({ type, description, ...(format === undefined ? {} : { format }) });
      expect(shape.required.has(name), name).toBe(required);
    }
  });
});

describe('named examples', () => {
  const examplesOf = (content: unknown): [string, unknown][] =>
    Object.entries(record(record(record(content)['application/json']).examples)).map(([name, example]) => [name, record(example).value]);

  const operation = record(record(record(document.paths)['/plants']).post);
  const targets: [string, [string, unknown][], BodyValidator | undefined, number | undefined][] = [
    ['request body', examplesOf(record(operation.requestBody).content), addPlant?.requestBody?.validate, undefined],
    ...Object.entries(record(operation.responses)).map(([status, response]): [string, [string, unknown][], BodyValidator | undefined, number] => [
      `response ${status}`,
      examplesOf(record(response).content),
      addPlant?.response(Number(status))?.validateBody,
      Number(status),
    ]),
  ];

  it.each(targets)('every %s has named examples that its schema accepts', (_label, examples, validate, status) => {
    expect(examples.length).toBeGreaterThan(0);
    if (!validate) throw new Error('no validator');
    for (const [name, value] of examples) {
      // Through lossless JSON, as a request or an answer would arrive.
      const parsed = parseJson(JSON.stringify(value));
      expect(validate(parsed).issues, name).toEqual([]);
      if (status !== undefined && status !== 200) {
        const error = record(parsed).error;
        expect(isLosslessNumber(error) ? exactInteger(error) : undefined, `${name}: error is the status`).toBe(BigInt(status));
      }
    }
  });

  it('the 401 header example is a bearer challenge', () => {
    const header = record(record(record(record(record(operation.responses)['401']).headers)['WWW-Authenticate']));
    expect(header.example).toMatch(/^Bearer\b/);
  });
});
