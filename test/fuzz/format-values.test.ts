/**
 * Every value the engine calls valid is valid by the schema as ajv with ajv-formats reads it (an
 * independent judge, not the kit's own validator): for each string format, and for oneOf, anyOf
 * and allOf. Property tests; the seed is printed.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract } from '../../src/openapi/index.js';
import { writeJson } from '../../fuzz/generation/json-text.js';
import { SchemaArbitraries } from '../../fuzz/generation/schema-arbitraries.js';
import { FORMAT_ARBITRARIES } from '../../fuzz/generation/values/formats.js';

// Both are CommonJS; under NodeNext their default exports arrive wrapped.
const Ajv = Ajv2020 as unknown as typeof Ajv2020.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const FORMATS = Object.keys(FORMAT_ARBITRARIES);
const COMBINED = {
  OneOf: { oneOf: [{ type: 'string', format: 'uuid' }, { type: 'integer', minimum: 0 }, { type: 'object', required: ['kind', 'born'], properties: { kind: { const: 'cat' }, born: { type: 'string', format: 'date' } } }] },
  AnyOf: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
  AllOfScalar: { allOf: [{ type: 'string' }, { format: 'email' }, { maxLength: 64 }] },
  AllOfObject: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['id', 'seen'], properties: { id: { type: 'string', format: 'uuid' }, seen: { type: 'string', format: 'date-time' } } }] },
  Base: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, home: { type: 'string', format: 'uri' } } },
};
const schemas: Record<string, unknown> = { ...Object.fromEntries(FORMATS.map((format) => [`F_${format}`, { type: 'string', format }])), ...COMBINED };
const document = {
  openapi: '3.1.0',
  info: { title: 'formats', version: '1' },
  paths: {},
  components: { schemas },
};
const contract = compileContract(parseYaml(JSON.stringify(document)) as Record<string, unknown>, '<formats>');
const arbitraries = new SchemaArbitraries(contract);
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: 'doc' });
const judge = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

const seed = Number(process.env.FORMAT_VALUES_SEED ?? Date.now() % 2 ** 31);
console.log(`format values: seed ${seed} (replay: FORMAT_VALUES_SEED=${seed})`);

describe('values the engine calls valid, judged by ajv and ajv-formats', () => {
  it.each([...FORMATS.map((format) => `F_${format}`), ...Object.keys(COMBINED)])('%s: random and plain values validate', (name) => {
    const validate = judge(name);
    const schema = { $ref: `#/components/schemas/${name}` };
    fc.assert(
      fc.property(arbitraries.valid(schema), (model) => {
        const value: unknown = JSON.parse(writeJson(model));
        expect(validate(value), `${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }),
      { seed, numRuns: 200 },
    );
    for (let n = 0; n < 50; n++) {
      const value: unknown = JSON.parse(writeJson(arbitraries.plain(schema, n)));
      expect(validate(value), `plain ${n}: ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('makes plain values that differ with n (deterministic requests never share an id)', () => {
    for (const format of ['uuid', 'date', 'date-time', 'email', 'ipv4']) {
      const values = new Set(Array.from({ length: 20 }, (_, n) => writeJson(arbitraries.plain({ type: 'string', format }, n))));
      expect(values.size, format).toBe(20);
    }
  });

  it('does not spin on a format its length bounds rule out (no value is valid: the run goes on)', () => {
    expect(fc.sample(arbitraries.valid({ type: 'string', format: 'uuid', maxLength: 10 }), { seed, numRuns: 20 })).toHaveLength(20);
  });
});
