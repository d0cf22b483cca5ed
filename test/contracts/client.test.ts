import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { INT64_MAX, INT64_MIN, LosslessNumber, loadContract, parseJson } from '../../src/openapi/index.js';
import type { RunningServer } from '../../src/reference/index.js';
import { startFaulty, startReference, TEST_TOKEN, type RunningFaulty } from '../support/servers.js';
import { createClient, createPlant, createPlantOperation, readResponse, toNewPlant, UnexpectedResponseError, type OperationInput } from '../../contracts/client.js';
import type { operations as FullStore } from './fixtures/plant-store-full-types.js';

let reference: RunningServer;
let prefixed: RunningFaulty;
const seenUrls: string[] = [];

beforeAll(async () => {
  reference = await startReference();
  // The reference behind a path prefix, as a provider deployed under /api would be.
  prefixed = await startFaulty((request, _correct, app) => {
    seenUrls.push(request.url);
    return app.request({ ...request, url: request.url.replace(/^\/api/, '') });
  });
});
afterAll(async () => {
  await reference.close();
  await prefixed.close();
});

describe('createPlant against the reference implementation', () => {
  it('answers a plant with a tag with the typed 200 branch', async () => {
    const result = await createPlant(reference.url, TEST_TOKEN, { name: 'Monstera', id: 1n, tag: 'tropical' });
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    expect(result.body.name).toBe('Monstera');
    expect(result.body.tag).toBe('tropical');
  });

  it.each([9007199254740993n, INT64_MAX, INT64_MIN])('carries the id %s both ways without losing a digit', async (id) => {
    const result = await createPlant(reference.url, TEST_TOKEN, { name: 'Fern', id });
    expect(result.status).toBe(200);
    // The reference echoes the id, a property Plant does not declare: it arrives as parsed, losslessly.
    expect(result.body.id).toEqual(new LosslessNumber(id.toString()));
  });

  it('answers an id beyond int64 with the typed 400 branch, error as a number', async () => {
    const result = await createPlant(reference.url, TEST_TOKEN, { name: 'Monstera', id: INT64_MAX + 1n });
    expect(result.status).toBe(400);
    if (result.status !== 400) return;
    expect(result.body.error).toBe(400);
    expect(result.body.message).toMatch(/^id: /);
  });

  it.each([
    ['no token', undefined],
    ['a token the server does not accept', 'not-the-token'],
  ])('answers %s with the typed 401 branch', async (_, token) => {
    const result = await createPlant(reference.url, token, { name: 'Monstera', id: 1n });
    expect(result).toMatchObject({ status: 401, body: { error: 401 } });
  });

  it('keeps a path prefix of the base URL', async () => {
    const result = await createPlant(`${prefixed.url}/api`, TEST_TOKEN, { name: 'Fern', id: 2n });
    expect(result.status).toBe(200);
    expect(seenUrls).toContain('/api/plants');
  });

  it('rejects when nothing listens', async () => {
    const closed = await startReference();
    await closed.close();
    await expect(createPlant(closed.url, TEST_TOKEN, { name: 'Fern', id: 2n })).rejects.toThrow(TypeError);
  });
});

describe('readResponse keeps the provider to the contract', () => {
  const operation = createPlantOperation();
  const read = (status: number, contentType: string | undefined, body: string) => () => readResponse(operation, status, contentType, body);

  it.each([
    ['an undeclared status', 500, 'application/json', '{"error":500,"message":"boom"}', /500: the status is not declared/],
    ['a 200 without name', 200, 'application/json', '{"tag":"tropical","id":1}', /name: is required/],
    ['an Error whose error is a string', 400, 'application/json', '{"error":"400","message":"id: is required"}', /error: must be an integer/],
    ['a plain-text 401', 401, 'text/plain', 'Unauthorized', /content-type text\/plain is not application\/json/],
    ['a body that is not JSON', 200, 'application/json', '<html>', /the body is not JSON/],
    ['no content type', 200, undefined, '{"name":"Fern"}', /content-type \(none\)/],
  ])('rejects %s with an UnexpectedResponseError', (_, status, contentType, body, message) => {
    expect(read(status, contentType, body)).toThrow(UnexpectedResponseError);
    expect(read(status, contentType, body)).toThrow(message);
  });

  it('accepts media type parameters and keeps what was sent for the report', () => {
    expect(readResponse(operation, 200, 'Application/JSON; charset=utf-8', '{"name":"Fern"}')).toEqual({ status: 200, body: { name: 'Fern' } });
    let thrown: unknown;
    try {
      readResponse(operation, 401, 'text/plain', 'Unauthorized');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnexpectedResponseError);
    expect(thrown).toMatchObject({ status: 401, contentType: 'text/plain', bodyText: 'Unauthorized' });
  });

  it('keeps __proto__ in a body an ordinary property', () => {
    const result = readResponse(operation, 200, 'application/json', '{"name":"Fern","__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(result.body)).toBe(Object.prototype);
    expect(Object.keys(result.body as object)).toEqual(['name', '__proto__']);
  });
});

describe('toNewPlant', () => {
  it('gives the typed NewPlant with an exact bigint id', () => {
    expect(toNewPlant(parseJson('{"name":"Ficus","id":9223372036854775807,"tag":"indoor"}'))).toEqual({ ok: true, plant: { name: 'Ficus', id: INT64_MAX, tag: 'indoor' } });
    expect(toNewPlant(parseJson('{"name":"Ficus","id":1e2}'))).toEqual({ ok: true, plant: { name: 'Ficus', id: 100n } });
  });

  it("gives the contract's reasons when the value is not a NewPlant", () => {
    expect(toNewPlant(parseJson('{"name":"Ficus"}'))).toEqual({ ok: false, issues: [{ field: 'id', message: 'is required' }] });
  });
});

describe('createClient: a method per operation of the full-store example, typed from its generated operations', () => {
  const contract = loadContract(fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url)));
  let full: RunningServer;
  beforeAll(async () => {
    full = await startReference({ contract });
  });
  afterAll(async () => {
    await full.close();
  });

  it('types path and query parameters (int64 as bigint) and bodies per operation', () => {
    expectTypeOf<OperationInput<FullStore['getPlant']>>().toEqualTypeOf<{ readonly path: { id: bigint } }>();
    expectTypeOf<OperationInput<FullStore['listPlants']>>().toEqualTypeOf<{ readonly query?: { limit?: number; tag?: string } }>();
    expectTypeOf<Parameters<ReturnType<typeof createClient<FullStore>>['deletePlant']>[0]>().toEqualTypeOf<{ readonly path: { id: bigint } }>();
    expectTypeOf<Awaited<ReturnType<ReturnType<typeof createClient<FullStore>>['deletePlant']>>['status']>().toEqualTypeOf<204 | 400 | 401 | 404>();
  });

  it('creates, reads, lists, replaces and deletes a plant with an id beyond 2^53, digit for digit', async () => {
    const client = createClient<FullStore>(full.url, TEST_TOKEN, { contract });
    const id = 2n ** 53n + 1n;
    expect(await client.addPlant({ body: { name: 'Monstera', id, tag: 'tropical' } })).toMatchObject({ status: 200 });
    expect(await client.getPlant({ path: { id } })).toEqual({ status: 200, body: { name: 'Monstera', id, tag: 'tropical' } });
    const listed = await client.listPlants({ query: { tag: 'tropical', limit: 5 } });
    expect(listed.status).toBe(200);
    if (listed.status === 200) expect(listed.body).toContainEqual({ name: 'Monstera', id, tag: 'tropical' });
    expect(await client.replacePlant({ path: { id }, body: { name: 'Monstera deliciosa' } })).toEqual({ status: 200, body: { name: 'Monstera deliciosa', id } });
    expect(await client.deletePlant({ path: { id } })).toEqual({ status: 204, body: undefined });
    expect(await client.getPlant({ path: { id } })).toMatchObject({ status: 404, body: { error: 404 } });
  });

  it('sends a bad query parameter as given, and gets the typed 400', async () => {
    const client = createClient<FullStore>(full.url, TEST_TOKEN, { contract });
    expect(await client.listPlants({ query: { limit: 0 } })).toMatchObject({ status: 400, body: { error: 400, message: expect.stringMatching(/query parameter limit/) as unknown } });
  });
});
