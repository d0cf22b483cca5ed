/**
 * plant-store-kit/msw on a contract of every media type (fixtures/media.yaml): the reference mode
 * answers per Accept and reads each request type by its Content-Type; the examples mode answers a
 * success whose only type is not application/json (text, +json) with its own type.
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plantStoreHandlers } from '../../msw/index.js';
import { MEDIA_FILE } from './fixture.js';

const document = parseYaml(readFileSync(MEDIA_FILE, 'utf8')) as Record<string, unknown>;
const reference = plantStoreHandlers({ baseUrl: 'http://media.test', contract: document, tokens: ['t'] });
const examples = plantStoreHandlers({ baseUrl: 'http://media-examples.test', contract: document, mode: 'examples' });
/** A collection whose create takes a form or multipart (a binary photo part), in the resource pattern. */
const plant = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, height: { type: 'integer', minimum: 1 }, photo: { type: 'string', contentMediaType: 'image/png' } } };
const forms = plantStoreHandlers({
  baseUrl: 'http://forms.test',
  tokens: ['t'],
  contract: {
    openapi: '3.1.0',
    info: { title: 'forms', version: '1' },
    paths: {
      '/plants': { post: { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: plant }, 'multipart/form-data': { schema: plant } } }, responses: { '201': { description: 'kept', content: { 'application/json': { schema: plant } } } } } },
      '/plants/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: plant } } } } } },
    },
  },
});
const server = setupServer(...reference.handlers, ...examples.handlers, ...forms.handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
});

const call = async (url: string, init: RequestInit = {}): Promise<[number, string | null, string]> => {
  const answer = await fetch(url, init);
  return [answer.status, answer.headers.get('content-type'), await answer.text()];
};

describe('MSW handlers of every media type', () => {
  test('the reference mode: Accept picks JSON or XML, 406 where nothing fits; text and JSON arrays read by their Content-Type', async () => {
    expect(await call('http://media.test/reports/7', { headers: { accept: 'application/xml' } })).toEqual([200, 'application/xml', '<report><id>7</id><title>Moss</title></report>']);
    expect(await call('http://media.test/reports/7')).toEqual([200, 'application/json', '{"id":7,"title":"Moss"}']);
    expect((await call('http://media.test/reports/7', { headers: { accept: 'text/html' } }))[0]).toBe(406);
    expect(await call('http://media.test/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' })).toEqual([200, 'text/plain; charset=utf-8', 'noted']);
    expect(await call('http://media.test/batches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[9223372036854775807]' })).toEqual([200, 'application/json', '[1,2,3]']);
  });

  test('the examples mode: a text or +json success answered with its own type', async () => {
    expect(await call('http://media-examples.test/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' })).toEqual([200, 'text/plain', 'noted']);
    expect(await call('http://media-examples.test/reports/7/title', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{}' })).toEqual([200, 'application/vnd.api+json', '{"data":{"id":"7","type":"reports"}}']);
    expect(await call('http://media-examples.test/anything')).toEqual([200, 'application/json', '{"ok":true}']);
  });
});

describe('MSW handlers of a contract that takes forms', () => {
  test('a form is stored as sent (int64 exact), one that breaks a constraint is refused and not stored', async () => {
    const form = new URLSearchParams({ id: '9007199254740993', name: 'Fern & Moss', height: '2' });
    expect(await call('http://forms.test/plants', { method: 'POST', body: form })).toEqual([201, 'application/json', '{"id":9007199254740993,"name":"Fern & Moss","height":2}']);
    expect((await call('http://forms.test/plants/9007199254740993'))[2]).toBe('{"id":9007199254740993,"name":"Fern & Moss","height":2}');
    expect((await call('http://forms.test/plants', { method: 'POST', body: new URLSearchParams({ id: '5', name: 'x', height: '0' }) }))[0]).toBe(400);
    expect((await call('http://forms.test/plants/5'))[0]).toBe(404);
  });

  test('a multipart create with a binary part keeps its bytes', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const form = new FormData();
    form.append('id', '6');
    form.append('name', 'Moss');
    form.append('photo', new Blob([bytes], { type: 'image/png' }), 'moss.png');
    const [status, , body] = await call('http://forms.test/plants', { method: 'POST', body: form });
    expect(status).toBe(201);
    expect((JSON.parse(body) as { photo: string }).photo).toBe(String.fromCharCode(...bytes));
  });
});
