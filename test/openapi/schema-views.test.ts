/**
 * The request and response views of a contract's schemas (src/openapi/schema-views.ts): a
 * `readOnly` property is not required in a request, a `writeOnly` one not in an answer - through
 * `$ref`, `allOf`, nested objects, arrays and recursion -, the views are made only where a schema
 * needs one, and `withoutWriteOnly` takes `writeOnly` properties out of a value.
 */
import { describe, expect, it } from 'vitest';
import { compileContract, parseJson, stringifyJson, type Contract, type Schema } from '../../src/openapi/index.js';
import { schemaView, withoutWriteOnly } from '../../src/openapi/schema-views.js';

const USER: Schema = {
  type: 'object',
  required: ['id', 'name', 'password'],
  properties: {
    id: { type: 'string', format: 'uuid', readOnly: true },
    name: { type: 'string' },
    password: { type: 'string', writeOnly: true },
  },
};

/** One POST /things taking and answering `schema`, with `schemas` under components. */
function contractOf(schema: Schema, schemas: Record<string, Schema>): Contract {
  const content = { 'application/json': { schema } };
  return compileContract({
    openapi: '3.1.0',
    info: { title: 'views', version: '1' },
    paths: { '/things': { post: { operationId: 'create', requestBody: { required: true, content }, responses: { '201': { description: 'made', content } } } } },
    components: { schemas },
  });
}

function judged(contract: Contract, body: string): { request: boolean; response: boolean } {
  const operation = contract.operationById('create');
  const value = parseJson(body);
  return { request: operation?.requestBody?.validate(value).valid ?? false, response: operation?.response(201)?.validateBody?.(value).valid ?? false };
}

describe('readOnly is not required in a request, writeOnly not in an answer', () => {
  const ref = { $ref: '#/components/schemas/User' };
  it.for([
    ['a $ref', ref, { User: USER }],
    ['an allOf whose required sits beside the part that declares the properties', { allOf: [{ $ref: '#/components/schemas/Base' }, { required: ['id', 'name', 'password'] }] }, { Base: { type: 'object', properties: USER.properties } }],
    ['a flag beside a $ref', ref, { User: { ...USER, properties: { ...(USER.properties as Schema), id: { $ref: '#/components/schemas/Id', readOnly: true }, password: { allOf: [{ $ref: '#/components/schemas/Secret' }], writeOnly: true } } }, Id: { type: 'string', format: 'uuid' }, Secret: { type: 'string' } }],
    ['nested in an array of another object', { type: 'object', required: ['users'], properties: { users: { type: 'array', items: ref } } }, { User: USER }],
  ] as const)('through %s', ([, schema, schemas]) => {
    const contract = contractOf(schema, schemas);
    const wrap = (user: string): string => (JSON.stringify(schema).includes('users') ? `{"users":[${user}]}` : user);
    // The request may leave out id (readOnly), the answer password (writeOnly): not the other way round.
    expect(judged(contract, wrap('{"name":"a","password":"p"}'))).toEqual({ request: true, response: false });
    expect(judged(contract, wrap('{"id":"8a6e0804-2bd0-4672-b79d-d97027f9071a","name":"a"}'))).toEqual({ request: false, response: true });
    expect(judged(contract, wrap('{"id":"8a6e0804-2bd0-4672-b79d-d97027f9071a","name":"a","password":"p"}'))).toEqual({ request: true, response: true });
    // The rest of the schema still holds in both views.
    expect(judged(contract, wrap('{"password":"p"}'))).toEqual({ request: false, response: false });
    expect(judged(contract, wrap('{"id":"x","name":"a","password":"p"}'))).toEqual({ request: false, response: false });
  });

  it('a readOnly property is still held to its schema when it is sent', () => {
    expect(judged(contractOf({ $ref: '#/components/schemas/User' }, { User: USER }), '{"id":5,"name":"a","password":"p"}').request).toBe(false);
  });

  it('the request body\'s shape does not require a readOnly property', () => {
    const shape = contractOf({ $ref: '#/components/schemas/User' }, { User: USER }).operationById('create')?.requestBody?.shape;
    expect([...(shape?.required ?? [])]).toEqual(['name', 'password']);
  });

  it('the component itself stays as written (validatorForComponent)', () => {
    expect(contractOf({ $ref: '#/components/schemas/User' }, { User: USER }).validatorForComponent('User')(parseJson('{"name":"a"}')).valid).toBe(false);
  });
});

describe('recursion', () => {
  const NODE: Schema = { type: 'object', required: ['id', 'children'], properties: { id: { type: 'integer', readOnly: true }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } };
  const MUTUAL: Record<string, Schema> = {
    A: { type: 'object', required: ['b', 'secret'], properties: { secret: { type: 'string', writeOnly: true }, b: { $ref: '#/components/schemas/B' } } },
    B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
  };

  it('a Node of Nodes: the view holds at every depth', () => {
    const contract = contractOf({ $ref: '#/components/schemas/Node' }, { Node: NODE });
    expect(judged(contract, '{"children":[{"children":[{"children":[]}]}]}')).toEqual({ request: true, response: false });
    expect(judged(contract, '{"children":[{"children":[{"id":1}]}]}').request).toBe(false);
    expect(judged(contract, '{"id":1,"children":[{"id":2,"children":[]}]}')).toEqual({ request: true, response: true });
  });

  it('A → B → A: the view reaches B through A and A again through B', () => {
    const contract = contractOf({ $ref: '#/components/schemas/B' }, MUTUAL);
    expect(judged(contract, '{"a":{"b":{"a":{"b":{}}}}}')).toEqual({ request: false, response: true });
    expect(judged(contract, '{"a":{"b":{"a":{"b":{},"secret":"s"}},"secret":"s"}}')).toEqual({ request: true, response: true });
  });
});

describe('views are made only where needed', () => {
  const lookup = (document: Schema) => (ref: string): Schema => {
    let node: unknown = document;
    for (const segment of ref.slice(2).split('/')) node = (node as Schema)[segment];
    return node as Schema;
  };

  it('no view for a document without readOnly or writeOnly required properties', () => {
    const document = { components: { schemas: { Plain: { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string', readOnly: true } } } } } };
    expect(schemaView(document, 'request', lookup(document), 'urn:x')).toBeUndefined();
    expect(schemaView(document, 'response', lookup(document), 'urn:x')).toBeUndefined();
  });

  it('a $ref to a part that drops nothing points into the original document', () => {
    const document = {
      components: {
        schemas: {
          Plain: { type: 'object', properties: { a: { type: 'string' } } },
          User: { type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true }, plain: { $ref: '#/components/schemas/Plain' }, self: { $ref: '#/components/schemas/User' } } },
        },
      },
    };
    const view = schemaView(document, 'request', lookup(document), 'urn:x');
    const user = (view?.document.components as { schemas: Record<string, Schema> }).schemas.User as { required: unknown[]; properties: Record<string, Schema> };
    expect(user.required).toEqual([]);
    expect(user.properties.plain?.$ref).toBe('urn:x#/components/schemas/Plain');
    expect(user.properties.self?.$ref).toBe('#/components/schemas/User');
    expect([view?.needs('/components/schemas/User'), view?.needs('/components/schemas/Plain')]).toEqual([true, false]);
    // The original is left as it was.
    expect(document.components.schemas.User.required).toEqual(['id']);
  });
});

describe('withoutWriteOnly', () => {
  const schemas: Record<string, Schema> = { User: USER, Page: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/User' } }, owner: { allOf: [{ $ref: '#/components/schemas/User' }] } } } };
  const resolveRef = (ref: string): Schema => schemas[ref.split('/').pop() ?? ''] ?? {};

  it('takes writeOnly properties out wherever the schema puts them, and leaves the rest', () => {
    const value = parseJson('{"data":[{"id":"1","name":"a","password":"p"},{"name":"b"}],"owner":{"name":"c","password":"q","extra":9007199254740993}}');
    const stripped = withoutWriteOnly(value, { $ref: '#/components/schemas/Page' }, resolveRef);
    expect(stringifyJson(stripped)).toBe('{"data":[{"id":"1","name":"a"},{"name":"b"}],"owner":{"name":"c","extra":9007199254740993}}');
    // The value given is not changed; one without writeOnly properties comes back as it is.
    expect(stringifyJson(value)).toContain('"password":"p"');
    const clean = parseJson('{"name":"x"}');
    expect(withoutWriteOnly(clean, { $ref: '#/components/schemas/User' }, resolveRef)).toBe(clean);
  });
});
