/**
 * The reference against contracts that show more of the store: the example full store
 * (examples/contracts/plant-store-full.yaml: list, read, replace, delete, linked from the create)
 * in process and over a socket, and a contract the kit has never seen (other names, no links).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen, STORE_ADMIN_PATH, type App, type RunningServer } from '../../src/reference/index.js';
import { parse as parseYaml } from 'yaml';
import { compileContract } from '../../src/openapi/index.js';
import { fullStore, trees, TREES_YAML } from '../support/contracts.js';
import { TEST_TOKEN } from '../support/servers.js';
import { HAS_REDIS, REDIS_SKIP, referenceOnRedis } from '../support/redis.js';
import { startReference } from '../../api/index.js';

const BIG = '9223372036854775807';
const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}
type Call = (method: string, url: string, headers?: Record<string, string>, body?: string) => Promise<Answer>;

/** The same scenarios in process (app.request()) and over a socket (fetch). */
function inProcess(app: App): Call {
  return (method, url, headers = {}, body) => Promise.resolve(app.request({ method, url, headers, ...(body === undefined ? {} : { body }) }));
}

function overSocket(url: () => string): Call {
  return async (method, path, headers = {}, body) => {
    const response = await fetch(url() + path, { method, headers, ...(body === undefined ? {} : { body }) });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };
}

function scenarios(name: string, call: () => Call): void {
  describe(`the full store, ${name}`, () => {
    it('POST then GET the same id answers the plant digit for digit; the list shows it; DELETE then GET is 404', async () => {
      const created = await call()('POST', '/plants', JSON_BODY, `{"name":"Monstera","id":${BIG},"tag":"tropical"}`);
      expect(created.status).toBe(200);
      const read = await call()('GET', `/plants/${BIG}`, AUTH);
      expect(read).toMatchObject({ status: 200, body: created.body });
      expect(read.body).toBe(`{"name":"Monstera","tag":"tropical","id":${BIG}}`);
      expect((await call()('GET', '/plants', AUTH)).body).toContain(`"id":${BIG}`);
      expect((await call()('DELETE', `/plants/${BIG}`, AUTH)).status).toBe(204);
      const gone = await call()('GET', `/plants/${BIG}`, AUTH);
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.body)).toEqual({ error: 404, message: `path parameter id: nothing is stored under ${BIG}` });
    });

    it('PUT replaces under the path id, whatever else the body holds; reads see the replacement', async () => {
      await call()('POST', '/plants', JSON_BODY, '{"name":"Fern","id":7}');
      const replaced = await call()('PUT', '/plants/7', JSON_BODY, '{"name":"Fern II","tag":"shade"}');
      expect(JSON.parse(replaced.body)).toEqual({ name: 'Fern II', tag: 'shade', id: 7 });
      expect(JSON.parse((await call()('GET', '/plants/7', AUTH)).body)).toEqual({ name: 'Fern II', tag: 'shade', id: 7 });
    });

    it('PUT to an id nothing is stored under is the declared 404 (the contract declares no 201), and stores nothing', async () => {
      const refused = await call()('PUT', '/plants/4242', JSON_BODY, '{"name":"Ghost"}');
      expect(refused.status).toBe(404);
      expect(JSON.parse(refused.body)).toEqual({ error: 404, message: 'path parameter id: nothing is stored under 4242' });
      expect((await call()('GET', '/plants/4242', AUTH)).status).toBe(404);
    });

    it('a bad path or query parameter is a 400 Error naming it, and changes nothing', async () => {
      for (const [url, message] of [
        ['/plants/abc', 'path parameter id: must be an integer'],
        ['/plants/9223372036854775808', 'path parameter id: must be an int64 integer, from -9223372036854775808 to 9223372036854775807'],
        ['/plants?limit=0', 'query parameter limit: must be >= 1'],
        ['/plants?limit=1&limit=2', 'query parameter limit: given 2 times; give it once'],
      ] as const) {
        const answer = await call()('GET', url, AUTH);
        expect(answer.status, url).toBe(400);
        expect(JSON.parse(answer.body), url).toEqual({ error: 400, message });
      }
    });

    it('no credentials is a 401 with its challenge on every operation the contract secures', async () => {
      for (const [method, url, body] of [['GET', '/plants'], ['POST', '/plants', '{"name":"x","id":1}'], ['GET', '/plants/1'], ['PUT', '/plants/1', '{"name":"x"}'], ['DELETE', '/plants/1']] as const) {
        const answer = await call()(method, url, { 'content-type': 'application/json' }, body);
        expect(answer.status, `${method} ${url}`).toBe(401);
        expect(answer.headers['www-authenticate'], `${method} ${url}`).toBe('Bearer realm="plant-store"');
      }
    });

    it('sessions a and b have their own stores; the admin path empties one', async () => {
      const a = { ...JSON_BODY, 'plant-store-session': 'a' };
      const b = { ...JSON_BODY, 'plant-store-session': 'b' };
      await call()('POST', '/plants', a, '{"name":"in a","id":11}');
      expect((await call()('GET', '/plants/11', a)).status).toBe(200);
      expect((await call()('GET', '/plants/11', b)).status).toBe(404);
      expect((await call()('GET', '/plants/11', AUTH)).status).toBe(404);
      expect((await call()('GET', '/plants', b)).body).toBe('[]');
      expect((await call()('DELETE', `${STORE_ADMIN_PATH}?session=a`)).status).toBe(200);
      expect((await call()('GET', '/plants/11', a)).status).toBe(404);
    });

    it('lists by convention: limit caps the count, tag filters, oldest first', async () => {
      const s = { ...JSON_BODY, 'plant-store-session': 'list' };
      for (const [id, tag] of [[1, 'x'], [2, 'y'], [3, 'x']] as const) await call()('POST', '/plants', s, `{"name":"p${id}","id":${id},"tag":"${tag}"}`);
      const ids = async (query: string): Promise<number[]> => (JSON.parse((await call()('GET', `/plants${query}`, s)).body) as { id: number }[]).map((plant) => plant.id);
      expect(await ids('')).toEqual([1, 2, 3]);
      expect(await ids('?limit=2')).toEqual([1, 2]);
      expect(await ids('?tag=x')).toEqual([1, 3]);
      expect(await ids('?tag=x&limit=1')).toEqual([1]);
    });

    it('405 lists the path methods in Allow (HEAD where GET is); HEAD answers as GET without content', async () => {
      const refused = await call()('PATCH', '/plants/1', AUTH);
      expect(refused.status).toBe(405);
      expect(refused.headers.allow).toBe('GET, PUT, DELETE, HEAD');
      expect(JSON.parse(refused.body)).toMatchObject({ error: 405 });
      const s = { ...JSON_BODY, 'plant-store-session': 'head' };
      await call()('POST', '/plants', s, '{"name":"Head","id":5}');
      const get = await call()('GET', '/plants/5', s);
      const head = await call()('HEAD', '/plants/5', s);
      expect(head).toMatchObject({ status: 200, body: '' });
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    });

    it('a body where the operation takes none is refused; none is needed', async () => {
      expect((await call()('DELETE', '/plants/1', JSON_BODY, '{"x":1}')).status).toBe(400);
      expect((await call()('GET', '/plants/1', AUTH)).status).toBe(404);
    });
  });
}

const app = createApp({ tokens: [TEST_TOKEN], contract: fullStore() });
scenarios('in process', () => inProcess(app));

let server: RunningServer | undefined;
beforeAll(async () => {
  server = await listen(createApp({ tokens: [TEST_TOKEN], contract: fullStore() }), { port: 0, host: '127.0.0.1' });
});
afterAll(() => server?.close());
scenarios('over a socket', () => overSocket(() => server?.url ?? ''));

// The same scenarios on the shared store (issue 31): one redis-server of this file's own.
describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'on Redis' : `on Redis: skipped, ${REDIS_SKIP}`, () => {
  const shared = referenceOnRedis((store) => startReference({ store, contract: fullStore(), tokens: [TEST_TOKEN] }));
  scenarios('over a socket, on Redis', () => overSocket(shared.url));
});

describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'a contract the kit has never seen, on Redis' : `a contract the kit has never seen, on Redis: skipped, ${REDIS_SKIP}`, () => {
  const shared = referenceOnRedis((store) => startReference({ store, contract: trees(), tokens: [TEST_TOKEN] }));
  it('stores, reads, lists, deletes by serial; the open list needs no token; the rest is answered from examples', () => treesByKey(overSocket(shared.url)));
});

/** The trees contract's stateful answers, keyed by an int64 serial, through `call`. */
async function treesByKey(call: Call): Promise<void> {
  expect((await call('POST', '/trees', JSON_BODY, `{"serial":${BIG},"species":"oak","height":12.5}`)).status).toBe(201);
  expect((await call('GET', `/trees/${BIG}`, AUTH)).body).toBe(`{"serial":${BIG},"species":"oak","height":12.5}`);
  expect((await call('GET', '/trees?species=oak&max=5')).body).toBe(`[{"serial":${BIG},"species":"oak","height":12.5}]`);
  expect((await call('GET', '/trees?species=elm')).body).toBe('[]');
  expect((await call('GET', `/trees/${BIG}`)).status).toBe(401);
  expect((await call('DELETE', `/trees/${BIG}`, AUTH))).toMatchObject({ status: 204, body: '' });
  expect((await call('GET', `/trees/${BIG}`, AUTH)).status).toBe(404);
  expect(await call('GET', '/health')).toMatchObject({ status: 200, body: '{"up":true}' });
  expect((await call('GET', '/trees/x1', AUTH)).body).toBe('{"error":400,"message":"path parameter treeId: must be an integer"}');
}

describe('a contract the kit has never seen (trees keyed by serial, no links)', () => {
  const orchard = createApp({ tokens: [TEST_TOKEN], contract: trees() });
  const call = inProcess(orchard);

  it('finds the pattern from the schemas: the path parameter treeId names the integer property serial', () => {
    expect(orchard.plan.patterns.map(({ collection, item, keyParameter, keyProperty, keyFrom }) => ({ collection, item, keyParameter, keyProperty, keyFrom }))).toEqual([
      { collection: '/trees', item: '/trees/{treeId}', keyParameter: 'treeId', keyProperty: 'serial', keyFrom: 'schema' },
    ]);
    expect(orchard.plan.fromExamples.map((operation) => operation.operationId)).toEqual(['health']);
  });

  it('stores, reads, lists, deletes by serial; the open list needs no token; the rest is answered from examples', () => treesByKey(call));

  it('reads the key from a link where one is declared, whatever the names', () => {
    const full = createApp({ tokens: [TEST_TOKEN], contract: fullStore() });
    expect(full.plan.patterns.map(({ keyProperty, keyFrom }) => ({ keyProperty, keyFrom }))).toEqual([{ keyProperty: 'id', keyFrom: 'link' }]);
    expect(full.plan.fromExamples).toEqual([]);
  });
});

describe('what no pattern or example answers is answered with a value generated from its schema', () => {
  it('an operation outside the pattern with no example and a JSON success starts, and answers a valid generated body', () => {
    const document = parseYaml(TREES_YAML) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const health = document.paths['/health']?.get;
    if (!health) throw new Error('the trees contract lost /health');
    health.responses = { '200': { description: 'up', content: { 'application/json': { schema: { type: 'object', required: ['up'], properties: { up: { type: 'boolean' } } } } } } };
    const app = createApp({ tokens: [TEST_TOKEN], contract: compileContract(document) });
    expect(app.plan.generated.map((operation) => operation.operationId)).toEqual(['health']);
    expect(app.plan.invalid).toEqual([]);
    expect(app.request({ method: 'GET', url: '/health', headers: {} })).toMatchObject({ status: 200, body: '{"up":true}' });
  });

  it('the admin path that empties a store takes DELETE only', () => {
    const answer = createApp({ tokens: [TEST_TOKEN], contract: fullStore() }).request({ method: 'GET', url: STORE_ADMIN_PATH, headers: {} });
    expect(answer).toMatchObject({ status: 405, headers: { allow: 'DELETE' } });
    expect(JSON.parse(answer.body)).toMatchObject({ error: 405 });
  });
});
