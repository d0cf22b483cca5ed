/**
 * conform's request targets write each parameter in its style through the kit's one writer
 * (serialiseParameter), so that a contract with matrix, label, delimited or cookie parameters
 * gets requests its own reading accepts; the default styles are written as they always were.
 */
import { describe, expect, it } from 'vitest';
import { parametersValid, requestTarget } from '../../fuzz/generation/tables/operation-context.js';
import { compileContract, type OperationContract } from '../../src/openapi/index.js';

function operationWith(parameters: readonly object[], path = '/t/{a}'): OperationContract {
  const contract = compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { [path]: { get: { parameters, responses: { '200': { description: 'ok' } } } } } });
  return contract.operations[0] as OperationContract;
}

describe('requestTarget', () => {
  it('writes matrix, pipeDelimited, header and cookie parameters in their styles, and the operation reads them back as valid', () => {
    const operation = operationWith([
      { name: 'a', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'array', items: { type: 'integer' } } },
      { name: 'q', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'string' } } },
      { name: 'c', in: 'cookie', required: true, schema: { type: 'integer', format: 'int64' } },
      { name: 'd', in: 'cookie', explode: false, schema: { type: 'array', items: { type: 'string' } } },
    ]);
    const values = { 'path a': ['1', '2'], 'query q': ['x y', 'z'], 'cookie c': '9223372036854775807', 'cookie d': ['e', 'f'] };
    expect(requestTarget(operation, values)).toEqual({ path: '/t/;a=1;a=2', query: 'q=x%20y%7Cz', headers: { cookie: 'c=9223372036854775807; d=e,f' }, segments: { a: ';a=1;a=2' } });
    expect(parametersValid(operation, values)).toBe(true);
    expect(parametersValid(operation, { ...values, 'cookie c': 'x' })).toBe(false);
  });

  it('writes the default styles as before: simple path items encoded and joined by commas, form pairs, a header as it is', () => {
    const operation = operationWith([
      { name: 'a', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'q', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
      { name: 'r', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'H', in: 'header', schema: { type: 'string' } },
    ]);
    expect(requestTarget(operation, { 'path a': ['a b', 'c/d'], 'query q': ['1', '2'], 'query r': ['x,y', 'z'], 'header H': 'v w' })).toEqual({
      path: '/t/a%20b,c%2Fd',
      query: 'q=1&q=2&r=x%2Cy,z',
      headers: { h: 'v w' },
      segments: { a: 'a%20b,c%2Fd' },
    });
  });

  it('writes an object-valued parameter member by member in its style (deepObject, form, simple), and the operation reads it back as valid (issue 29)', () => {
    const operation = operationWith([
      { name: 'a', in: 'path', required: true, schema: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } } } },
      { name: 'f', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { min: { type: 'integer', minimum: 0 } } } },
      { name: 'g', in: 'query', explode: false, schema: { type: 'object', properties: { r: { type: 'integer' } } } },
    ]);
    const values = { 'path a': '{"x":1,"y":"b c"}', 'query f': '{"min":9223372036854775807}', 'query g': '{"r":2}' };
    expect(requestTarget(operation, values)).toEqual({ path: '/t/x,1,y,b%20c', query: 'f%5Bmin%5D=9223372036854775807&g=r,2', headers: {}, segments: { a: 'x,1,y,b%20c' } });
    expect(parametersValid(operation, values)).toBe(true);
    // A member out of its schema is read, and refused; a text that is no object is sent as it is.
    expect(parametersValid(operation, { ...values, 'query f': '{"min":-1}' })).toBe(false);
    expect(requestTarget(operation, { ...values, 'query g': 'not-an-object' }).query).toContain('g=not-an-object');
  });
});
