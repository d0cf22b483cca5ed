/**
 * What the mock adds to the pipeline it shares with the reference implementation: Prism's answers
 * chosen per request (`Prefer`), generated data and seeds, latency, CORS, and the filter that
 * keeps every answer of Prism inside the contract.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { loadContract, parseJson, stringifyJson } from '../../src/openapi/index.js';
import { errorResponse, PlantStoreError, type AppRequest, type AppResponse } from '../../src/http/index.js';
import { createMock, keepContract, type Mock } from '../../mock/index.js';
import { declaredExamples, shapeViolations } from '../support/expect-answer.js';
import { send, type WireRequest } from '../support/http.js';
import { startMock, type RunningMock } from '../support/servers.js';

const contract = loadContract();
const addPlant = contract.findOperation('POST', '/plants');
if (!addPlant) throw new Error('openapi.yaml has no POST /plants');

const headers = { authorization: 'Bearer any-token', 'content-type': 'application/json' };
const post = (extra: Record<string, string> = {}, body = '{"name":"Monstera","id":9223372036854775807}'): AppRequest => ({ method: 'POST', url: '/plants', headers: { ...headers, ...extra }, body });
const wire = (request: AppRequest): WireRequest => ({ method: request.method, path: request.url, headers: request.headers as Record<string, string>, body: Buffer.from(request.body as string) });
const json = (response: AppResponse): unknown => JSON.parse(response.body);

describe('the mock answers with Prism, over a socket', () => {
  let server: RunningMock;
  beforeAll(async () => {
    server = await startMock();
  });
  afterAll(() => server.close());

  it('answers a valid NewPlant with the first 200 example, an id beyond 2^53 included', async () => {
    const request = wire(post());
    const response = await send(server.url, request);
    expect(response.status).toBe(200);
    expect(shapeViolations(request, response)).toEqual([]);
    const [, , first] = declaredExamples().find(([status]) => status === 200) ?? [];
    expect(JSON.parse(response.body.toString('utf8'))).toEqual(first);
  });

  it('answers a CORS preflight for any path and method, without a body or Content-Length', async () => {
    for (const [path, method] of [['/plants', 'POST'], ['/nope', 'GET']] as const) {
      const response = await send(server.url, {
        method: 'OPTIONS',
        path,
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, prefer' },
      });
      expect(response.status).toBe(204);
      expect(response.body.length).toBe(0);
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-allow-methods': method,
        'access-control-allow-headers': 'authorization, content-type, prefer',
        'access-control-allow-credentials': 'true',
        vary: 'Origin',
      });
    }
  });

  it('lets a page read every answer, and the headers a script needs (WWW-Authenticate, Allow)', async () => {
    const origin = { origin: 'http://localhost:5173' };
    const ok = await send(server.url, wire(post(origin)));
    expect(ok.headers).toMatchObject({ 'access-control-allow-origin': 'http://localhost:5173', 'access-control-allow-credentials': 'true', vary: 'Origin' });
    const unauthorized = await send(server.url, { method: 'POST', path: '/plants', headers: { ...origin, 'content-type': 'application/json' }, body: Buffer.from('{}') });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['access-control-expose-headers']).toContain('www-authenticate');
    const wrongMethod = await send(server.url, { method: 'OPTIONS', path: '/plants', headers: origin });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers['access-control-expose-headers']).toContain('allow');
    const noOrigin = await send(server.url, wire(post()));
    expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Prefer chooses among the declared answers (Prism)', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await createMock();
  });

  it('finds at least a 200, a 400 and a 401 example in openapi.yaml', () => {
    expect(new Set(declaredExamples().map(([status]) => status))).toEqual(new Set(addPlant.declaredStatuses));
  });

  it.each(declaredExamples())('Prefer: code=%i, example=%s answers that example', async (status, name, value) => {
    const response = await mock.request(post({ prefer: `code=${status}, example=${name}` }));
    expect(response.status).toBe(status);
    expect(json(response)).toEqual(value);
    expect(response.headers['content-type']).toBe('application/json');
    if (status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
  });

  it('takes the first example of a status when none is named, and Prism query parameters without Prefer', async () => {
    const first401 = declaredExamples().find(([status]) => status === 401)?.[2];
    expect(json(await mock.request(post({ prefer: 'code=401' })))).toEqual(first401);
    const byQuery = await mock.request({ ...post(), url: '/plants?__code=401' });
    expect([byQuery.status, json(byQuery)]).toEqual([401, first401]);
  });

  it.each([
    ['code=500', 'Requested status code 500 is not defined'],
    ['code=404', 'Requested status code 404 is not defined'],
    ['example=nope', 'exampleKey: nope does not exist'],
    ['code=401, example=withTag', 'withTag'],
    ['code=abc', 'cannot decode "abc"'],
    ['dynamic=maybe', 'cannot decode "maybe"'],
  ])('answers Prefer: %s, which it cannot honour, with a 400 Error naming it', async (prefer, detail) => {
    const response = await mock.request(post({ prefer }));
    expect(response.status).toBe(400);
    expect(response.code).toBe('unsupported_preference');
    expect(json(response)).toEqual({ error: 400, message: expect.stringContaining(detail) as string });
  });

  it('never lets Prefer override the rules: the request is judged first', async () => {
    const missing = await mock.request({ ...post({ prefer: 'code=200' }), headers: { 'content-type': 'application/json', prefer: 'code=200' } });
    expect([missing.status, missing.code]).toEqual([401, 'unauthorized']);
    const invalid = await mock.request(post({ prefer: 'code=200' }, '{"name":"a","id":9223372036854775808}'));
    expect(json(invalid)).toEqual({ error: 400, message: expect.stringContaining('id: must be an int64 integer') as string });
  });
});

describe('generated data (--dynamic, Prefer: dynamic=true) and seeds', () => {
  let dynamic: Mock;
  let seeded: Mock;
  let seededAgain: Mock;
  let examples: Mock;
  beforeAll(async () => {
    [dynamic, seeded, seededAgain, examples] = await Promise.all([createMock({ dynamic: true }), createMock({ dynamic: true, seed: 'plants' }), createMock({ dynamic: true, seed: 'plants' }), createMock()]);
  });

  it('generates a Plant other than the examples', async () => {
    const response = await dynamic.request(post());
    expect(response.status).toBe(200);
    expect(addPlant.response(200)?.validateBody?.(parseJson(response.body)).valid).toBe(true);
    expect(declaredExamples().map(([, , value]) => stringifyJson(value))).not.toContain(response.body);
  });

  it('gives the same data for the same seed, in another mock too, and other data for another seed', async () => {
    const first = (await seeded.request(post())).body;
    expect((await seeded.request(post())).body).toBe(first);
    expect((await seededAgain.request(post())).body).toBe(first);
    expect((await examples.request(post({ prefer: 'dynamic=true, seed=plants' }))).body).toBe(first);
    expect((await seeded.request(post({ prefer: 'seed=other' }))).body).not.toBe(first);
  });

  it('keeps the contract in every generated answer: 200 Plants, and Errors whose error is the status', async () => {
    for (let i = 0; i < 50; i++) {
      for (const status of addPlant.declaredStatuses) {
        const request = post({ prefer: `code=${status}, seed=seed-${i}` });
        const response = await dynamic.request(request);
        const onWire = { status: response.status, headers: response.headers, body: Buffer.from(response.body) };
        expect({ seed: `seed-${i}`, status: response.status, violations: shapeViolations(wire(request), onWire) }).toEqual({ seed: `seed-${i}`, status, violations: [] });
      }
    }
  });

  it('answers with examples again when a request asks for dynamic=false', async () => {
    const response = await dynamic.request(post({ prefer: 'dynamic=false' }));
    expect(json(response)).toEqual(declaredExamples()[0]?.[2]);
  });
});

describe('simulated latency (--delay)', () => {
  it('holds every answer but a CORS preflight back by the delay', async () => {
    const mock = await createMock({ delayMs: 5_000 });
    vi.useFakeTimers();
    try {
      for (const request of [post(), { ...post(), headers: {} }, { method: 'GET', url: '/nope', headers: {} }]) {
        let answered = false;
        const pending = mock.request(request).then((response) => {
          answered = true;
          return response;
        });
        await vi.advanceTimersByTimeAsync(4_999);
        expect(answered).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect(answered).toBe(true);
        await pending;
      }
      const preflight = await mock.request({ method: 'OPTIONS', url: '/plants', headers: { origin: 'http://a.test', 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(204);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('nothing Prism answers leaves the mock unless the contract allows it', () => {
  // A defect comes back as an internal refusal, which the pipeline answers with its 500 Error.
  const answer = (status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): AppResponse => {
    const kept = keepContract(contract, addPlant, { kind: 'response', status, headers, body });
    return kept instanceof PlantStoreError ? errorResponse(kept) : kept;
  };

  it.each([
    ['an undeclared status', answer(500, { error: 500, message: 'boom' }), 'the status is not declared'],
    ['problem+json', answer(400, { type: 'x', title: 'y', status: 400 }, { 'content-type': 'application/problem+json' }), 'media type application/problem+json'],
    ['a 200 that is not a Plant', answer(200, { tag: 'no name' }), 'name: is required'],
    ['a 400 that is not an Error', answer(400, { error: { code: 'invalid_json' } }), 'breaks the contract'],
    ['an Error whose error is not the status', answer(400, { error: 401, message: 'x' }), "the Error's error is not the status"],
    ['a 401 without WWW-Authenticate', answer(401, { error: 401, message: 'x' }), 'www-authenticate is missing'],
    ['no body', answer(200, undefined), 'no body'],
  ])('turns %s into a 500 Error naming the defect', (_, response, defect) => {
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/json');
    expect(json(response)).toEqual({ error: 500, message: expect.stringContaining(defect) as string });
  });

  it('passes a declared answer on, with its headers', () => {
    const response = answer(401, { error: 401, message: 'x' }, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    expect(response).toEqual({ status: 401, headers: { 'www-authenticate': 'Bearer', 'content-type': 'application/json' }, body: '{"error":401,"message":"x"}' });
  });

  it('never answers an example that breaks the contract: a generated answer in its place, and the 500 Error where the client asked for that example', async () => {
    // The same openapi.yaml with a 200 example that is not a Plant.
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-mock-'));
    try {
      const document = parseYaml(readFileSync(contract.file, 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }> }>> };
      const examples = document.paths['/plants']?.post?.responses['200']?.content['application/json']?.examples ?? {};
      for (const example of Object.values(examples)) example.value = { tag: 'a Plant needs a name' };
      const file = join(dir, 'openapi.yaml');
      writeFileSync(file, stringifyYaml(document));
      const reported: unknown[] = [];
      const broken = await createMock({ contract: loadContract(file), onDefect: (cause) => reported.push(cause) });
      // The contract contradicts itself: a Plant generated from the schema, as the reference answers.
      const generated = await broken.request(post());
      expect(generated.status).toBe(200);
      expect(json(generated)).toMatchObject({ name: expect.any(String) as string });
      expect(reported).toEqual([]);
      // Asked for by name, the example is not replaced: the guard's 500, reported.
      const response = await broken.request(post({ prefer: `example=${Object.keys(examples)[0] ?? ''}` }));
      expect(response.status).toBe(500);
      expect(json(response)).toEqual({ error: 500, message: expect.stringContaining("Prism's 200 answer breaks the contract (name: is required)") as string });
      // A defect of the mock is reported, never only answered.
      expect(reported).toEqual([expect.stringContaining("Prism's 200 answer breaks the contract") as string]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
