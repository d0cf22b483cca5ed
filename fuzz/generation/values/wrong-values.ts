/** Values of the wrong kind for a schema: the invalid-fraction and invalid-type tables. */
import { numberModel, stringModel, type JsonModel } from '../json-text.js';
import type { JsonType } from './json-values.js';

/** Fractions where an integer is due: halves, a tenth as an exponent, and fractions past 2^53 and 2^63 that a double rounds to an integer. */
export const FRACTIONS: readonly string[] = ['1.5', '0.5', '-0.5', '1e-1', '9007199254740993.5', '9223372036854775807.5', '-1.000001', '2.25E1'];

/** A value of each JSON type, to put where the schema allows another: [its type, its variant name, the value, what it is]. */
export const WRONG_TYPES: readonly (readonly [JsonType, string, JsonModel, string])[] = [
  ['boolean', 'false', { kind: 'literal', text: 'false' }, 'is false (a boolean)'],
  ['string', 'empty-string', stringModel(''), 'is the empty string'],
  ['string', 'string', stringModel('Monstera'), 'is a string'],
  ['integer', 'zero', numberModel('0'), 'is the number 0'],
  ['number', 'fraction', numberModel('1.5'), 'is the number 1.5'],
  ['array', 'empty-array', { kind: 'array', items: [] }, 'is an empty array'],
  ['array', 'array', { kind: 'array', items: [stringModel('Monstera')] }, 'is an array'],
  ['object', 'empty-object', { kind: 'object', members: [] }, 'is an empty object'],
];
