/**
 * The integer key (oracle/integer-key.ts): the one derivation of "the integer key is the
 * integer properties of the body", which the generators, the run's scheduling and `echo` share.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { integerKey, integerKeyProperties } from '../../oracle/index.js';
import type { HttpRequest } from '../../oracle/types.js';

const contract = loadContract();
const operation = contract.operations.find((o) => o.requestBody !== undefined);
if (operation === undefined) throw new Error('the contract has no operation with a request body');
const [key] = integerKeyProperties(contract, operation);
if (key === undefined) throw new Error('the contract declares no integer property in its request body');

function sent(body: string, query = ''): HttpRequest {
  return { method: operation?.method ?? '', path: `${operation?.path ?? ''}${query}`, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
}

describe('integerKeyProperties', () => {
  it('is every property of the request body the contract types as integer, and only those', () => {
    const properties = [...(operation.requestBody?.shape.properties ?? [])];
    const integers = properties.filter(([, schema]) => contract.resolve(schema).type === 'integer').map(([name]) => name);
    expect(integerKeyProperties(contract, operation)).toEqual(integers);
    expect(properties.length).toBeGreaterThan(integers.length);
  });

  it('is empty for an operation without a request body, and for none', () => {
    const bodiless = contract.operations.find((o) => o.requestBody === undefined);
    if (bodiless !== undefined) expect(integerKeyProperties(contract, bodiless)).toEqual([]);
    expect(integerKeyProperties(contract, undefined)).toEqual([]);
  });
});

describe('integerKey', () => {
  it('is the same for the same integer however it is spelled, whatever the query string', () => {
    const plain = integerKey(contract, sent(`{"${key}":100}`));
    expect(plain).toBeDefined();
    expect(integerKey(contract, sent(`{"${key}":1e2}`))).toBe(plain);
    expect(integerKey(contract, sent(`{"${key}":100.0, "other":"x"}`, '?a=b'))).toBe(plain);
  });

  it('tells integers apart exactly, past a double', () => {
    expect(integerKey(contract, sent(`{"${key}":9007199254740993}`))).not.toBe(integerKey(contract, sent(`{"${key}":9007199254740992}`)));
    expect(integerKey(contract, sent(`{"${key}":1}`))).not.toBe(integerKey(contract, sent(`{"${key}":2}`)));
  });

  it('is undefined for a body without the key, a body that is no object, malformed JSON and another path', () => {
    expect(integerKey(contract, sent('{}'))).toBeUndefined();
    expect(integerKey(contract, sent(`{"${key}":"1"}`))).toBeUndefined();
    expect(integerKey(contract, sent('[1]'))).toBeUndefined();
    expect(integerKey(contract, sent('{'))).toBeUndefined();
    expect(integerKey(contract, { ...sent(`{"${key}":1}`), path: '/no-such-path' })).toBeUndefined();
  });
});
