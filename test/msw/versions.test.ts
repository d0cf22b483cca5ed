/**
 * plant-store-kit/msw given a Swagger 2.0 or OpenAPI 3.0 document as data: the handlers upgrade it
 * to 3.1 in memory (Scalar's upgrader, browser-safe), leave the object given unchanged, and judge
 * and answer requests by it - 3.0's `nullable`, an API key, a path template - in both modes.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plantStoreHandlers } from '../../msw/index.js';

const OPENAPI_30 = {
  openapi: '3.0.3',
  info: { title: 'Seed bank', version: '2.1.0' },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      Seed: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, origin: { type: 'string', nullable: true } },
        example: { id: 7, name: 'Basil', origin: null },
      },
      Problem: { type: 'object', properties: { error: { type: 'integer' }, message: { type: 'string' } } },
    },
  },
  security: [{ key: [] }],
  paths: {
    '/seeds/{seedId}': {
      get: {
        operationId: 'getSeed',
        parameters: [{ name: 'seedId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'the seed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Seed' } } } },
          '400': { description: 'bad', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
          '401': { description: 'no key', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
  },
};

const SWAGGER_20 = {
  swagger: '2.0',
  info: { title: 'Old seed bank', version: '1.0.0' },
  produces: ['application/json'],
  paths: {
    '/seeds': {
      get: {
        operationId: 'listSeeds',
        responses: { '200': { description: 'seeds', schema: { type: 'array', items: { type: 'string', 'x-nullable': true } }, examples: { 'application/json': ['Basil', null] } } },
      },
    },
  },
};

const given30 = structuredClone(OPENAPI_30);
const examples = plantStoreHandlers({ baseUrl: 'http://seeds.test', contract: given30, mode: 'examples' });
const swagger = plantStoreHandlers({ baseUrl: 'http://old-seeds.test', contract: structuredClone(SWAGGER_20), mode: 'examples' });
const server = setupServer(...examples.handlers, ...swagger.handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
});

describe('an OpenAPI 3.0 document given as data', () => {
  test('is read as 3.1 and named as written, the object given left unchanged', () => {
    expect(examples.contract.writtenIn).toBe('OpenAPI 3.0.3, read as 3.1');
    expect(examples.contract.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /seeds/{seedId}']);
    expect(given30).toEqual(OPENAPI_30);
  });

  test("answers an operation with its example, 3.0's nullable read as a null the schema allows", async () => {
    const response = await fetch('http://seeds.test/seeds/7', { headers: { 'x-api-key': 'any-key' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 7, name: 'Basil', origin: null });
  });

  test('refuses a request without the API key, and a path parameter of the wrong type', async () => {
    expect((await fetch('http://seeds.test/seeds/7')).status).toBe(401);
    expect((await fetch('http://seeds.test/seeds/seven', { headers: { 'x-api-key': 'any-key' } })).status).toBe(400);
  });

  test('takes a 3.0 document in the reference mode too', () => {
    const reference = plantStoreHandlers({ baseUrl: 'http://seeds-reference.test', contract: structuredClone(OPENAPI_30), tokens: ['t'] });
    expect(reference.contract.writtenIn).toBe('OpenAPI 3.0.3, read as 3.1');
  });
});

describe('a Swagger 2.0 document given as data', () => {
  test("is upgraded, x-nullable read as 3.0's nullable, and answers from its example", async () => {
    expect(swagger.contract.writtenIn).toBe('Swagger 2.0, read as 3.1');
    const response = await fetch('http://old-seeds.test/seeds');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(['Basil', null]);
  });
});
