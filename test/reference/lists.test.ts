/**
 * The reference's lists keep their own schema: an array with `maxItems` (the OpenAPI petstore's
 * `Pets`, at most 100) is never answered longer, however many items are stored and whatever the
 * paging asks (src/reference/lists.ts).
 */
import { describe, expect, it } from 'vitest';
import { startReference } from '../../api/index.js';
import { compileContract, parseJson } from '../../src/openapi/index.js';
import { createStoreApp } from '../../src/reference/index.js';
import { HAS_REDIS, REDIS_SKIP, referenceOnRedis } from '../support/redis.js';

const CONTRACT = {
  openapi: '3.1.0',
  info: { title: 'Bounded shelf', version: '1' },
  paths: {
    '/pots': {
      get: {
        operationId: 'listPots',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 50 } }],
        responses: { '200': { description: 'pots', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pots' } } } } },
      },
      post: {
        operationId: 'addPot',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pot' } } } },
        responses: { '201': { description: 'added', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pot' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pot: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
      Pots: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/Pot' } },
    },
  },
};

const LISTS: readonly [string, readonly number[]][] = [['/pots', [1, 2, 3]], ['/pots?limit=2', [1, 2]], ['/pots?limit=10', [1, 2, 3]]];

describe('a list whose array has maxItems', () => {
  const contract = compileContract(CONTRACT, '<bounded shelf>');
  const app = createStoreApp(contract, { tokens: ['t'] });
  for (let id = 1; id <= 5; id++) app.request({ method: 'POST', url: '/pots', headers: { 'content-type': 'application/json' }, body: `{"id":${id}}` });
  const validate = contract.operations.find((o) => o.operationId === 'listPots')?.response(200)?.validateBody;

  it.each(LISTS)('%s answers at most maxItems, oldest first, valid by its schema', (url, ids) => {
    const answer = app.request({ method: 'GET', url, headers: {} });
    expect(answer.status).toBe(200);
    const body = parseJson(answer.body);
    expect(validate?.(body).valid).toBe(true);
    expect(JSON.parse(answer.body)).toEqual(ids.map((id) => ({ id })));
  });
});

// The same on the shared store (issue 31).
describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'a list whose array has maxItems, on Redis' : `a list whose array has maxItems, on Redis: skipped, ${REDIS_SKIP}`, () => {
  const contract = compileContract(CONTRACT, '<bounded shelf>');
  const shared = referenceOnRedis(async (store) => {
    const server = await startReference({ store, contract, tokens: ['t'] });
    for (let id = 1; id <= 5; id++) await fetch(`${server.url}/pots`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"id":${id}}` });
    return server;
  });
  const validate = contract.operations.find((o) => o.operationId === 'listPots')?.response(200)?.validateBody;

  it.each(LISTS)('%s answers at most maxItems, oldest first, valid by its schema', async (url, ids) => {
    const answer = await fetch(shared.url() + url);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(validate?.(parseJson(text)).valid).toBe(true);
    expect(JSON.parse(text)).toEqual(ids.map((id) => ({ id })));
  });
});
