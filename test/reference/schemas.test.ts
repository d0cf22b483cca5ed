/**
 * The reference over a contract of the schema features people write (fixtures/schemas-3.1.yaml):
 * a create that leaves out a readOnly required property is accepted, a writeOnly property is never
 * answered (examples, stored items, generated values), a discriminator's generated branch carries
 * its mapping's key, recursive schemas are served finite, and integers beyond 2^53 stay exact in
 * nested arrays and in examples read from YAML. In process, and over a real socket with `serve`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileContract, loadContract, parseJson, stringifyJson, type Contract, type Schema } from '../../src/openapi/index.js';
import { createStoreApp, generateValue } from '../../src/reference/index.js';
import { listening, stopped, type Run } from '../support/cli.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/schemas-3.1.yaml', import.meta.url));
const contract = loadContract(FIXTURE);
const app = createStoreApp(contract, { tokens: ['t'] });
const JSON_BODY = { 'content-type': 'application/json' };

const get = (url: string) => app.request({ method: 'GET', url, headers: {} });
const post = (url: string, body: string) => app.request({ method: 'POST', url, headers: JSON_BODY, body });

function validBy(operationId: string, status: number, text: string): boolean {
  const validate = contract.operationById(operationId)?.response(status)?.validateBody;
  if (validate === undefined) throw new Error(`${operationId} lost its JSON ${status}`);
  return validate(parseJson(text)).valid;
}

describe('readOnly and writeOnly', () => {
  it('accepts a create without its readOnly required id, and answers without the writeOnly pin', () => {
    const answer = post('/members', '{"name":"Ada","pin":"1234","badges":[{"serial":1,"pin":"9"}]}');
    expect(answer.status).toBe(201);
    expect(answer.body).not.toContain('pin');
    expect(validBy('enrolMember', 201, answer.body)).toBe(true);
  });

  it('still requires what is not readOnly, and a writeOnly property in the request', () => {
    expect(post('/members', '{"name":"Ada"}')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(post('/members', '{"pin":"1"}')).toMatchObject({ status: 400, code: 'invalid_body' });
  });

  it('leaves the writeOnly properties out of an example, nested ones too, integers exact', () => {
    const answer = get('/members/current');
    expect(answer.body).toBe('{"id":9007199254740993,"name":"Ada","badges":[{"serial":9007199254740993,"issuedBy":"Grace"}]}');
    expect(validBy('currentMember', 200, answer.body)).toBe(true);
  });

  it('stores neither the readOnly property sent (the server sets it) nor the writeOnly one, through allOf; nested int64 exact', () => {
    const sent = '{"id":9007199254740993,"packedBy":"me","sealCode":"s3cret","trays":[{"weights":[9007199254740993,-9223372036854775808]}]}';
    const created = post('/crates', sent);
    expect(created.status).toBe(200);
    // packedBy is the server's: generated from its schema (the answer requires it), never the "me" sent.
    expect(created.body).toMatch(/^\{"id":9007199254740993,"trays":\[\{"weights":\[9007199254740993,-9223372036854775808\]\}\],"packedBy":"[a-z]{8}"\}$/);
    expect(validBy('packCrate', 200, created.body)).toBe(true);
    expect(get('/crates/9007199254740993').body).toBe(created.body);
    // sealCode is writeOnly but required in a request; packedBy readOnly, so not.
    expect(post('/crates', '{"id":1}')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(post('/crates', '{"id":1,"sealCode":"s"}').status).toBe(200);
  });
});

describe('a discriminator', () => {
  it('the generated pet is the branch its petType names, by the mapping', () => {
    const answer = get('/pets/featured');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ petType: 'cat', purrs: true });
    expect(validBy('featuredPet', 200, answer.body)).toBe(true);
  });

  it('without a mapping, the schema\'s name; each branch tried is tagged with its own', () => {
    const schemas: Record<string, Schema> = {
      Cat: { type: 'object', required: ['kind', 'purrs'], properties: { kind: { type: 'string' }, purrs: { type: 'boolean' } }, additionalProperties: false },
      Dog: { type: 'object', required: ['kind', 'barks'], properties: { kind: { type: 'string', const: 'Dog' }, barks: { type: 'boolean' } }, additionalProperties: false },
    };
    // The Cat branch cannot be valid (its kind must be Dog's too, by an allOf): the generator tries the Dog branch.
    const pet: Schema = { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'kind' } };
    const compiled = contractWith(pet, schemas);
    const validate = compiled.operationById('thing')?.response(200)?.validateBody;
    const generated = generateValue(pet, { resolve: (schema) => compiled.resolve(schema), validate });
    expect(generated.valid).toBe(true);
    expect(stringifyJson(generated.value)).toBe('{"kind":"Cat","purrs":true}');
  });
});

describe('a discriminator on a base schema its subtypes allOf', () => {
  it('the generated value is a mapped subtype, its property the mapping\'s key (a name or a $ref)', () => {
    const schemas: Record<string, Schema> = {
      Pet: { type: 'object', required: ['petType'], properties: { petType: { type: 'string' }, name: { type: 'string' } }, discriminator: { propertyName: 'petType', mapping: { tabby: 'Cat', hound: '#/components/schemas/Dog' } } },
      Cat: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', required: ['purrs', 'friend'], properties: { purrs: { type: 'boolean' }, friend: { $ref: '#/components/schemas/Pet' } } }] },
      Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } }] },
    };
    const pet = { $ref: '#/components/schemas/Pet' };
    const compiled = contractWith(pet, schemas);
    const validate = compiled.operationById('thing')?.response(200)?.validateBody;
    const generated = generateValue(pet, { resolve: (schema) => compiled.resolve(schema), validate });
    expect(generated.valid).toBe(true);
    // The Cat's friend, a Pet again, is the other subtype: the one being generated is not taken twice.
    expect(generated.value).toMatchObject({ petType: 'tabby', purrs: true, friend: { petType: 'hound', barks: true } });
  });
});

function contractWith(schema: Schema, schemas: Record<string, Schema>): Contract {
  return compileContract({
    openapi: '3.1.0',
    info: { title: 'pets', version: '1' },
    paths: { '/thing': { get: { operationId: 'thing', responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  });
}

describe('integers beyond 2^53', () => {
  it('a generated answer takes them from the schema\'s examples and defaults, exactly', () => {
    expect(get('/counters/top').body).toBe('{"value":9007199254740993,"limits":[-9007199254740993]}');
  });
});

describe('recursive schemas', () => {
  it('a Node of Nodes is answered finite and valid', () => {
    const answer = get('/trees/root');
    expect(answer.status).toBe(200);
    expect(validBy('rootNode', 200, answer.body)).toBe(true);
  });

  it('Row → Column → Row is answered finite and valid', () => {
    const answer = get('/rows/first');
    expect(answer.status).toBe(200);
    expect(validBy('firstRow', 200, answer.body)).toBe(true);
  });

  it('a recursive body is validated at every depth', () => {
    const deep = (depth: number): string => (depth === 0 ? '{"label":"leaf","children":[]}' : `{"label":"n","children":[${deep(depth - 1)}]}`);
    const validate = contract.operationById('rootNode')?.response(200)?.validateBody;
    expect(validate?.(parseJson(deep(40))).valid).toBe(true);
    expect(validate?.(parseJson(deep(40).replace('"leaf"', '7'))).valid).toBe(false);
  });
});

describe('over a real socket: serve --contract', () => {
  const servings: Run[] = [];
  afterAll(() => stopped(servings));

  it('serves the same answers', async () => {
    if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
    const { url, ran } = await listening(['serve', '--port', '0', '--contract', FIXTURE, '--quiet']);
    servings.push(ran);
    const send = (path: string, body?: string) => fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', headers: JSON_BODY, body });

    const member = await send('/members', '{"name":"Ada","pin":"1234"}');
    expect(member.status).toBe(201);
    expect(await member.text()).not.toContain('pin');
    expect(await (await send('/members/current')).text()).toBe('{"id":9007199254740993,"name":"Ada","badges":[{"serial":9007199254740993,"issuedBy":"Grace"}]}');
    const crate = await send('/crates', '{"id":9007199254740993,"sealCode":"s","trays":[{"weights":[9007199254740993]}]}');
    const stored = await crate.text();
    expect([crate.status, stored]).toEqual([200, expect.stringMatching(/^\{"id":9007199254740993,"trays":\[\{"weights":\[9007199254740993\]\}\],"packedBy":"[a-z]+"\}$/) as unknown]);
    expect(await (await send('/crates/9007199254740993')).text()).toBe(stored);
    const pet = await (await send('/pets/featured')).text();
    expect(JSON.parse(pet)).toMatchObject({ petType: 'cat' });
    expect(validBy('featuredPet', 200, pet)).toBe(true);
    const tree = await send('/trees/root');
    expect(tree.status).toBe(200);
    expect(validBy('rootNode', 200, await tree.text())).toBe(true);
  });
});
