/** Any JSON value, small; a value of the contract (`const`, `enum`) as a model; the JSON types a schema allows. */
import fc from 'fast-check';
import type { Schema } from '../../../src/openapi/index.js';
import { nullModel, numberModel, stringModel, type JsonModel } from '../json-text.js';
import { anyCharacter } from './characters.js';
import { extraKey } from './hostile-keys.js';

/** The types of JSON Schema's `type` keyword. */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** JSON values of every type, small, for extra properties and wrong-type replacements. */
export function anyJsonModel(depth = 2): fc.Arbitrary<JsonModel> {
  const leaf: fc.Arbitrary<JsonModel> = fc.oneof(
    fc.constantFrom<JsonModel>(nullModel, { kind: 'literal', text: 'true' }, { kind: 'literal', text: 'false' }),
    fc.integer().map((n) => numberModel(String(n))),
    // Finite doubles only: 1e400 or NaN is not a number every JSON parser can hold.
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => numberModel(JSON.stringify(n))),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => numberModel(n.toString())),
    fc.string({ maxLength: 12 }).map((s) => stringModel(s)),
    fc.string({ unit: anyCharacter, maxLength: 6 }).map((s) => stringModel(s, 'ascii')),
  );
  if (depth <= 0) return leaf;
  const inner = anyJsonModel(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 3 }).map((items): JsonModel => ({ kind: 'array', items })) },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(fc.record({ key: extraKey(), value: inner }), { maxLength: 3, selector: (m) => m.key })
        .map((members): JsonModel => ({ kind: 'object', members: members.map((m) => ({ ...m, keyStyle: 'plain' })) })),
    },
  );
}

/** A JavaScript value (from `const`, `enum`, `default` in the contract) as a model. */
export function modelOf(value: unknown): JsonModel {
  if (value === null) return nullModel;
  if (typeof value === 'boolean') return { kind: 'literal', text: value ? 'true' : 'false' };
  if (typeof value === 'number' || typeof value === 'bigint') return numberModel(String(value));
  if (typeof value === 'string') return stringModel(value);
  if (Array.isArray(value)) return { kind: 'array', items: value.map(modelOf) };
  if (typeof value === 'object') return { kind: 'object', members: Object.entries(value).map(([key, v]) => ({ key, keyStyle: 'plain', value: modelOf(v) })) };
  throw new TypeError(`no JSON for ${typeof value}`);
}

/** The JSON types a schema allows, or undefined when it does not say (an object schema without `type` counts as an object). */
export function typesOf(schema: Schema): JsonType[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type as JsonType];
  if (Array.isArray(type)) return type.filter((t): t is JsonType => typeof t === 'string');
  if (schema.properties !== undefined || schema.allOf !== undefined || schema.required !== undefined) return ['object'];
  return undefined;
}
