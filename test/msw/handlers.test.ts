/**
 * plant-store-kit/msw in Node: the handlers behind `setupServer`, reached by plain `fetch` and by
 * the typed client, as a frontend test reaches them - the reference's refusals, exact int64,
 * replacement, the journal; and the stateless examples mode.
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { parse as parseYaml } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createPlant } from '../../contracts/client.js';
import { defaultContractFile } from '../../src/openapi/load.js';
import { assertRequests, findRequests, plantStoreHandlers } from '../../msw/index.js';

const BASE = 'http://plant-store.test';
const TOKEN = 'msw-test-token';
// The contract as the browser gets it: data, not a file.
const document = parseYaml(readFileSync(defaultContractFile(), 'utf8')) as Record<string, unknown>;
const reference = plantStoreHandlers({ baseUrl: BASE, contract: document, tokens: [TOKEN] });
const examples = plantStoreHandlers({ baseUrl: 'http://examples.test/v1', contract: document, mode: 'examples' });
const server = setupServer(...reference.handlers, ...examples.handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  reference.reset();
  examples.reset();
});
afterAll(() => {
  server.close();
});

const post = (url: string, body: string | Uint8Array, token: string | null = TOKEN): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) }, body });

describe('the reference mode', () => {
  test('creates a plant with the largest int64 id and answers it digit for digit', async () => {
    const response = await post(`${BASE}/plants`, '{"name":"Monstera","id":9223372036854775807,"tag":"tropical"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"name":"Monstera","tag":"tropical","id":9223372036854775807}');
    expect(reference.store?.get(9223372036854775807n)).toBeDefined();
  });

  test('answers a body without the id with its 400 Error, and stores nothing', async () => {
    const response = await post(`${BASE}/plants`, '{"name":"Fern"}');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: 400, message: 'id: is required' });
    expect(reference.store?.size).toBe(0);
  });

  test('answers a request without a token with 401 and its bearer challenge', async () => {
    const response = await post(`${BASE}/plants`, '{"name":"Fern","id":2}', null);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"');
    expect(await response.json()).toEqual({ error: 401, message: 'authorization: missing bearer credentials' });
  });

  test('refuses a token it was not given', async () => {
    const response = await post(`${BASE}/plants`, '{"name":"Fern","id":2}', 'another-token');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="plant-store", error="invalid_token"/);
  });

  test('answers a body that is not UTF-8 with a 400 Error (the bytes reach the pipeline as sent)', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, ...new TextEncoder().encode('","id":3}')]);
    const response = await post(`${BASE}/plants`, bytes);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/UTF-8/);
  });

  test('replaces the plant when its id is sent again', async () => {
    await post(`${BASE}/plants`, '{"name":"Monstera","id":7}');
    const again = await post(`${BASE}/plants`, '{"name":"Fern","id":7}');
    expect(await again.text()).toBe('{"name":"Fern","id":7}');
    expect(reference.store?.size).toBe(1);
    expect(reference.store?.get(7n)).toEqual({ name: 'Fern', id: expect.anything() as unknown });
  });

  test('answers an undeclared path under the base URL with the kit’s 404 Error', async () => {
    const response = await fetch(`${BASE}/nothing-here`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: number }).error).toBe(404);
  });

  test('the typed client gets the plant back; assertRequests passes on what was sent, and fails on what was not', async () => {
    const result = await createPlant(BASE, TOKEN, { name: 'Pilea', id: 9223372036854775807n });
    expect(result.status).toBe(200);
    // The client reads an answer losslessly: the id, undeclared on Plant, comes back as its exact text.
    if (result.status === 200) expect([result.body.name, String((result.body as Record<string, unknown>).id)]).toEqual(['Pilea', '9223372036854775807']);
    assertRequests(reference, { method: 'POST', path: '/plants', headers: { authorization: 'Bearer ***' }, body: { name: 'Pilea', id: 9223372036854775807n }, status: 200 });
    expect(() => assertRequests(reference, { method: 'POST', body: { id: 1n } })).toThrow(/journal/);
    expect(findRequests(reference, { outcome: 'refused' })).toHaveLength(0);
  });

  test('reset empties the store and the journal', async () => {
    await post(`${BASE}/plants`, '{"name":"Monstera","id":8}');
    expect(reference.requests()).toHaveLength(1);
    reference.reset();
    expect(reference.requests()).toHaveLength(0);
    expect(reference.store?.size).toBe(0);
  });
});

test('a base URL that is not absolute is refused outside a page, saying why', () => {
  expect(() => plantStoreHandlers({ baseUrl: '/api', contract: document, tokens: [TOKEN] })).toThrow(/baseUrl: \/api is not an absolute URL/);
});

describe('the examples mode', () => {
  test('answers the success response’s first example under its base path, whatever well-formed token', async () => {
    const response = await post('http://examples.test/v1/plants', '{"name":"Anything","id":42}', 'any-token');
    expect(response.status).toBe(200);
    const responses = ((document.paths as Record<string, Record<string, Record<string, unknown>>>)['/plants']?.post?.responses ?? {}) as Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }>;
    const [first] = Object.values(responses['200']?.content['application/json']?.examples ?? {});
    expect(await response.json()).toEqual(first?.value);
    expect(examples.store).toBeUndefined();
  });

  test('an example the contract does not allow never leaves: a 500 Error that names it, told to onDefect', async () => {
    // The kit's contract with its 200 examples' name taken out (name is required of a Plant).
    const broken = structuredClone(document);
    const operation = ((broken.paths as Record<string, Record<string, Record<string, unknown>>>)['/plants']?.post ?? {}) as { responses: Record<string, { content: Record<string, { examples: Record<string, { value: Record<string, unknown> }> }> }> };
    for (const example of Object.values(operation.responses['200']?.content['application/json']?.examples ?? {})) delete example.value.name;
    const defects: unknown[] = [];
    const faulty = plantStoreHandlers({ baseUrl: 'http://broken.test', contract: broken, mode: 'examples', onDefect: (cause) => defects.push(cause) });
    server.use(...faulty.handlers);
    const response = await post('http://broken.test/plants', '{"name":"Fern","id":2}');
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: number; message: string };
    expect(body.error).toBe(500);
    expect(body.message).toMatch(/^internal: /);
    expect(String(defects[0])).toMatch(/the contract's example 200 answer breaks the contract \(name: is required\)/);
    server.resetHandlers();
  });

  test('refuses what the reference refuses: no token, no id', async () => {
    expect((await post('http://examples.test/v1/plants', '{"name":"Fern","id":2}', null)).status).toBe(401);
    const invalid = await post('http://examples.test/v1/plants', '{"name":"Fern"}');
    expect(await invalid.json()).toEqual({ error: 400, message: 'id: is required' });
    expect(findRequests(examples, { outcome: 'refused' })).toHaveLength(2);
  });
});
