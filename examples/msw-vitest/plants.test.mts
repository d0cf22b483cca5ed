/**
 * The Plant Store in process, with MSW: no server to start, no port. `plantStoreHandlers` gives
 * MSW handlers that answer as the kit's reference implementation does - the same refusals and
 * Error bodies, exact int64 ids, a plant replaced when its id comes again - and keep a journal
 * of what the app sent. The app under test calls `fetch` as it would in production.
 *
 * An .mts file: an ES module even in a project without "type": "module" (the JSON import below
 * needs its `with { type: 'json' }`, which only ES modules have).
 */
import { setupServer } from 'msw/node';
import { createPlant } from 'plant-store-kit';
import { assertRequests, plantStoreHandlers } from 'plant-store-kit/msw';
import contract from 'plant-store-kit/openapi.json' with { type: 'json' };
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const BASE_URL = 'http://plant-store.test';
const TOKEN = 'example-token';

const plantStore = plantStoreHandlers({ baseUrl: BASE_URL, contract, tokens: [TOKEN] });
const server = setupServer(...plantStore.handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  plantStore.reset(); // an empty store and journal for every test
});
afterAll(() => {
  server.close();
});

function addPlant(body: string, token: string | null = TOKEN): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fetch(`${BASE_URL}/plants`, { method: 'POST', headers, body });
}

test('a plant with the largest int64 id comes back digit for digit', async () => {
  const response = await addPlant('{"name":"Monstera","id":9223372036854775807}');
  expect(response.status).toBe(200);
  // Read the text: JSON.parse would round the id to 9223372036854775808.
  expect(await response.text()).toBe('{"name":"Monstera","id":9223372036854775807}');
});

test('a plant without an id gets the 400 Error', async () => {
  const response = await addPlant('{"name":"Fern"}');
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ error: 400, message: 'id: is required' });
});

test('a request without a token gets 401 with its bearer challenge', async () => {
  const response = await addPlant('{"name":"Fern","id":2}', null);
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"');
});

test('the same id again replaces the plant', async () => {
  await addPlant('{"name":"Monstera","id":7}');
  const again = await addPlant('{"name":"Fern","id":7}');
  expect(await again.text()).toBe('{"name":"Fern","id":7}');
  expect(plantStore.store?.size).toBe(1);
});

test('the typed client, and what was sent asserted from the journal', async () => {
  const result = await createPlant(BASE_URL, TOKEN, { name: 'Pilea', id: 9223372036854775807n, tag: 'easy' });
  expect(result.status).toBe(200);
  // Passes when exactly one request matches; otherwise throws, listing what was sent.
  assertRequests(plantStore, { method: 'POST', path: '/plants', body: { name: 'Pilea', id: 9223372036854775807n }, status: 200 });
});
