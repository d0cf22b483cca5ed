/**
 * The resource patterns found in contracts shaped as public ones are (written here, inline, for
 * this repository): the classic pet store (a client-chosen integer id carried by a string path
 * parameter), the expanded pet store (NewPet without an id, Pet with it: the server assigns it),
 * a key marked readOnly in the create's body, a client-chosen string key, a nested collection, an
 * item's action that is no collection, a JSON Patch that is no update - and the reference serving
 * the first two in process.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract, resourcePatterns, type Contract } from '../../src/openapi/index.js';
import { createApp } from '../../src/reference/index.js';
import { TEST_TOKEN } from '../support/servers.js';

function contract(paths: string, schemas: string): Contract {
  const yaml = `openapi: 3.1.0
info: { title: patterns, version: '1' }
paths:
${paths}
components:
  schemas:
    Error: { type: object, required: [code, message], properties: { code: { type: integer }, message: { type: string } } }
${schemas}`;
  return compileContract(parseYaml(yaml) as Record<string, unknown>, '<patterns>');
}

const ERROR = `default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }`;

/** The classic pet store's shape: POST /pets takes a Pet with its required integer id and answers 201 without content; petId is a string. */
const CLASSIC = contract(
  `  /pets:
    get:
      parameters: [ { name: limit, in: query, schema: { type: integer, maximum: 100, format: int32 } } ]
      responses:
        '200': { description: pets, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
        ${ERROR}
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses:
        '201': { description: created }
        ${ERROR}
  /pets/{petId}:
    get:
      parameters: [ { name: petId, in: path, required: true, schema: { type: string } } ]
      responses:
        '200': { description: pet, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        ${ERROR}`,
  `    Pet: { type: object, required: [id, name], properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } } }`,
);

/** The expanded pet store's shape: NewPet has no id; the create answers 200 with a Pet (allOf NewPet and a required id). */
const EXPANDED = contract(
  `  /pets:
    get:
      parameters: [ { name: limit, in: query, schema: { type: integer, format: int32 } }, { name: tags, in: query, style: form, schema: { type: array, items: { type: string } } } ]
      responses:
        '200': { description: pets, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
        ${ERROR}
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewPet' } } } }
      responses:
        '200': { description: pet, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        ${ERROR}
  /pets/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: integer, format: int64 } } ]
    get:
      responses:
        '200': { description: pet, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        ${ERROR}
    delete:
      responses:
        '204': { description: deleted }
        ${ERROR}`,
  `    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - { type: object, required: [id], properties: { id: { type: integer, format: int64 } } }
    NewPet: { type: object, required: [name], properties: { name: { type: string }, tag: { type: string } } }`,
);

function summary(found: Contract): unknown[] {
  return resourcePatterns(found).map(({ collection, item, keyParameter, keyProperty, keyFrom, keyOrigin, keyType, parentParameters, operations }) => ({ collection, item, keyParameter, keyProperty, keyFrom, keyOrigin, keyType, parentParameters, roles: [...operations.keys()] }));
}

describe('resourcePatterns', () => {
  it('the classic pet store: a client-chosen integer id, carried by a string path parameter', () => {
    expect(summary(CLASSIC)).toEqual([{ collection: '/pets', item: '/pets/{petId}', keyParameter: 'petId', keyProperty: 'id', keyFrom: 'schema', keyOrigin: 'client', keyType: 'integer', parentParameters: [], roles: ['create', 'list', 'read'] }]);
  });

  it('the expanded pet store: the create body has no id, its answer has one: the server assigns it', () => {
    expect(summary(EXPANDED)).toEqual([{ collection: '/pets', item: '/pets/{id}', keyParameter: 'id', keyProperty: 'id', keyFrom: 'schema', keyOrigin: 'server', keyType: 'integer', parentParameters: [], roles: ['create', 'list', 'read', 'remove'] }]);
  });

  it('a key readOnly in the create body is the server\'s; a string key the body requires by the parameter\'s name is the client\'s', () => {
    const found = contract(
      `  /notes:
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses: { '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
  /notes/{noteId}:
    get:
      parameters: [ { name: noteId, in: path, required: true, schema: { type: string, format: uuid } } ]
      responses: { '200': { description: note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
  /users:
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/User' } } } }
      responses: { '201': { description: made } }
  /users/{username}:
    parameters: [ { name: username, in: path, required: true, schema: { type: string } } ]
    get:
      responses: { '200': { description: user, content: { application/json: { schema: { $ref: '#/components/schemas/User' } } } } }
    patch:
      requestBody: { content: { application/json-patch+json: { schema: { type: array } } } }
      responses: { '200': { description: patched } }`,
      `    Note: { type: object, required: [id, text], properties: { id: { type: string, format: uuid, readOnly: true }, text: { type: string } } }
    User: { type: object, required: [username, age], properties: { username: { type: string }, age: { type: integer } } }`,
    );
    expect(summary(found)).toEqual([
      { collection: '/notes', item: '/notes/{noteId}', keyParameter: 'noteId', keyProperty: 'id', keyFrom: 'schema', keyOrigin: 'server', keyType: 'string', parentParameters: [], roles: ['create', 'read'] },
      { collection: '/users', item: '/users/{username}', keyParameter: 'username', keyProperty: 'username', keyFrom: 'schema', keyOrigin: 'client', keyType: 'string', parentParameters: [], roles: ['create', 'read', 'update'] },
    ]);
    // A JSON Patch (an array of operations) is no item's members: that PATCH keeps its examples' (or generated) answer.
    const app = createApp({ tokens: [TEST_TOKEN], contract: found });
    expect([...app.plan.fromExamples, ...app.plan.generated].map((operation) => `${operation.method} ${operation.path}`)).toEqual(['PATCH /users/{username}']);
  });

  it('a nested collection names its parent\'s parameters; a POST on an item path, or a nested create without an item path, is no collection', () => {
    const found = contract(
      `  /users/{userId}/posts:
    parameters: [ { name: userId, in: path, required: true, schema: { type: integer } } ]
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { title: { type: string } } } } } }
      responses: { '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } } }
  /users/{userId}/posts/{postId}:
    get:
      parameters: [ { name: userId, in: path, required: true, schema: { type: integer } }, { name: postId, in: path, required: true, schema: { type: integer } } ]
      responses: { '200': { description: post, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } } }
  /users/{userId}/posts/{postId}/publish:
    parameters: [ { name: userId, in: path, required: true, schema: { type: integer } }, { name: postId, in: path, required: true, schema: { type: integer } } ]
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
      responses: { '200': { description: published } }
  /orders/{orderId}/cancel:
    parameters: [ { name: orderId, in: path, required: true, schema: { type: integer } } ]
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [reason], properties: { reason: { type: string } } } } } }
      responses: { '200': { description: cancelled } }`,
      `    Post: { type: object, required: [id, title], properties: { id: { type: integer }, title: { type: string } } }`,
    );
    expect(summary(found)).toEqual([{ collection: '/users/{userId}/posts', item: '/users/{userId}/posts/{postId}', keyParameter: 'postId', keyProperty: 'id', keyFrom: 'schema', keyOrigin: 'server', keyType: 'integer', parentParameters: ['userId'], roles: ['create', 'read'] }]);
  });
});

describe('the reference over the pet stores\' shapes', () => {
  const request = (app: ReturnType<typeof createApp>, method: string, url: string, body?: string) =>
    app.request({ method, url, headers: { authorization: `Bearer ${TEST_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body }) }) as { status: number; headers: Record<string, string>; body: string };

  it('classic: the create answers its declared 201 (no content) with Location; the id is read back by its text', () => {
    const app = createApp({ tokens: [TEST_TOKEN], contract: CLASSIC });
    const created = request(app, 'POST', '/pets', '{"id":9007199254740993,"name":"Rex"}');
    expect(created).toMatchObject({ status: 201, body: '', headers: { location: '/pets/9007199254740993' } });
    expect(request(app, 'GET', '/pets/9007199254740993').body).toBe('{"id":9007199254740993,"name":"Rex"}');
    expect(request(app, 'GET', '/pets/rex').status).toBe(404);
    request(app, 'POST', '/pets', '{"id":2,"name":"Tom"}');
    expect(JSON.parse(request(app, 'GET', '/pets?limit=1').body)).toHaveLength(1);
  });

  it('expanded: the server numbers the pets 1, 2, …; the create answers its only 2xx, 200, without Location (none declared)', () => {
    const app = createApp({ tokens: [TEST_TOKEN], contract: EXPANDED });
    const first = request(app, 'POST', '/pets', '{"name":"Rex","tag":"dog"}');
    const second = request(app, 'POST', '/pets', '{"name":"Tom"}');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.location).toBeUndefined();
    expect([JSON.parse(first.body), JSON.parse(second.body)]).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom' }]);
    expect(JSON.parse(request(app, 'GET', '/pets/2').body)).toEqual({ id: 2, name: 'Tom' });
    expect(JSON.parse(request(app, 'GET', '/pets').body)).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom' }]);
    expect(request(app, 'DELETE', '/pets/1').status).toBe(204);
    expect(JSON.parse(request(app, 'GET', '/pets').body)).toEqual([{ id: 2, name: 'Tom' }]);
  });

  it('a PATCH whose body declares no members applies all of them; a merge patch that would remove a required member is refused and changes nothing', () => {
    const notes = contract(
      `  /notes:
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [text], properties: { text: { type: string } } } } } }
      responses: { '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
  /notes/{noteId}:
    parameters: [ { name: noteId, in: path, required: true, schema: { type: string } } ]
    patch:
      requestBody: { content: { application/merge-patch+json: { schema: { type: object } }, application/json: { schema: { type: object } } } }
      responses: { '200': { description: note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }, '404': { description: none } }`,
      `    Note: { type: object, required: [id, text], properties: { id: { type: string, minLength: 4 }, text: { type: string } } }`,
    );
    const app = createApp({ tokens: [TEST_TOKEN], contract: notes });
    const send = (method: string, url: string, body: string, type = 'application/json') => app.request({ method, url, headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': type }, body }) as { status: number; headers: Record<string, string>; body: string };
    const created = send('POST', '/notes', '{"text":"hello"}');
    // Another string key: the sequence's text, padded to the key's minLength.
    expect(created).toMatchObject({ status: 201, headers: { location: '/notes/0001' }, body: '{"id":"0001","text":"hello"}' });
    expect(JSON.parse(send('PATCH', '/notes/0001', '{"mood":"calm","id":"9999"}').body)).toEqual({ id: '0001', text: 'hello', mood: 'calm' });
    const refused = send('PATCH', '/notes/0001', '{"text":null}', 'application/merge-patch+json');
    expect(refused.status).toBe(400);
    expect(JSON.parse(send('PATCH', '/notes/0001', '{"mood":null}', 'application/merge-patch+json').body)).toEqual({ id: '0001', text: 'hello' });
  });
});
