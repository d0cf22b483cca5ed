/**
 * The reference's store shared in Redis (issue 31; docs/reference-server.md, "Sharing one
 * reference"), against a real redis-server started by the test (test/support/redis.ts), no mock:
 * several servers of one contract see one store, each in its own process where it matters
 * (`plant-store serve --store`), int64 exact, writes atomic, Redis lost and back, contracts and
 * sessions apart, eviction oldest first on both stores.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startReference, type StartedServer } from '../../api/index.js';
import { compileContract, loadContract } from '../../src/openapi/index.js';
import { run, type Run } from '../support/cli.js';
import { FULL_STORE_FILE, fullStore } from '../support/contracts.js';
import { HAS_REDIS, REDIS_SKIP, startRedis, type RunningRedis } from '../support/redis.js';

const TOKEN = 'shared-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };
const INT64 = '9007199254740993';
const GARDENS = new URL('../../examples/contracts/garden-journal.yaml', import.meta.url);

async function send(base: string, method: string, path: string, body?: string, headers: Record<string, string> = body === undefined ? AUTH : JSON_BODY): Promise<{ status: number; body: string }> {
  const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, body: await response.text() };
}

/** `plant-store serve` on the store given, once it says where it listens. */
async function serve(args: readonly string[], env: Record<string, string> = {}, contract = FULL_STORE_FILE): Promise<{ readonly process: Run; readonly url: string }> {
  const serving = run(['serve', '--port', '0', '--contract', contract, '--token', TOKEN, '--quiet', ...args], env);
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(serving.stdout())?.[1];
    if (url !== undefined) return { process: serving, url };
    if (serving.child.exitCode !== null) throw new Error(`serve did not start: ${serving.stdout()}${serving.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stop(serving: { readonly process: Run }): Promise<void> {
  if (serving.process.child.exitCode !== null) return;
  serving.process.child.kill('SIGTERM');
  await serving.process.exit;
}

describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'the store shared in Redis' : `the store shared in Redis: skipped, ${REDIS_SKIP}`, () => {
  let redis: RunningRedis;
  const servers: StartedServer[] = [];
  const processes: { readonly process: Run }[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map(stop));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await redis.stop();
  });
  const reference = async (options: Parameters<typeof startReference>[0] = {}): Promise<StartedServer> => {
    const server = await startReference({ store: redis.url, contract: fullStore(), tokens: [TOKEN], ...options });
    servers.push(server);
    return server;
  };

  it('two serve processes: created through one, read, replaced and deleted through the other; still there after both restart; int64 exact', async () => {
    if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
    const session = { ...JSON_BODY, 'plant-store-session': 'processes' };
    let one = await serve(['--store', redis.url]);
    // The other one reads the store from the environment.
    let two = await serve([], { PLANT_STORE_REDIS_URL: redis.url });
    processes.push(one, two);
    expect(one.process.stdout()).toContain(`store: ${redis.url} (shared`);
    const created = await send(one.url, 'POST', '/plants', `{"name":"Monstera","id":${INT64},"tag":"tropical"}`, session);
    expect(created.status).toBe(200);
    expect(await send(two.url, 'GET', `/plants/${INT64}`, undefined, session)).toEqual({ status: 200, body: `{"name":"Monstera","tag":"tropical","id":${INT64}}` });
    expect((await send(two.url, 'PUT', `/plants/${INT64}`, '{"name":"Monstera II"}', session)).status).toBe(200);
    expect(await send(one.url, 'GET', `/plants/${INT64}`, undefined, session)).toEqual({ status: 200, body: `{"name":"Monstera II","id":${INT64}}` });
    expect((await send(one.url, 'POST', '/plants', '{"name":"Kept","id":2}', session)).status).toBe(200);
    expect((await send(two.url, 'DELETE', `/plants/${INT64}`, undefined, session)).status).toBe(204);
    expect((await send(one.url, 'GET', `/plants/${INT64}`, undefined, session)).status).toBe(404);

    await Promise.all(processes.splice(0).map(stop));
    one = await serve(['--store', redis.url]);
    two = await serve(['--store', redis.url]);
    processes.push(one, two);
    for (const url of [one.url, two.url]) expect(await send(url, 'GET', '/plants', undefined, session)).toEqual({ status: 200, body: '[{"name":"Kept","id":2}]' });
  });

  it('serve --workers 4 answers all of it on one port; the store in memory or Redis out of reach refuses to start (exit 2)', async () => {
    const workers = await serve(['--store', redis.url, '--workers', '4']);
    processes.push(workers);
    expect(workers.process.stdout()).toContain('(4 worker processes)');
    const session = { ...JSON_BODY, 'plant-store-session': 'workers' };
    const created = await Promise.all(Array.from({ length: 20 }, (_, index) => send(workers.url, 'POST', '/plants', `{"name":"p${String(index)}","id":${String(index + 1)}}`, session)));
    expect(created.map((answer) => answer.status)).toEqual(created.map(() => 200));
    expect((await send(workers.url, 'PUT', '/plants/3', '{"name":"three"}', session)).status).toBe(200);
    expect((await send(workers.url, 'DELETE', '/plants/4', undefined, session)).status).toBe(204);
    for (let read = 0; read < 6; read += 1) expect(await send(workers.url, 'GET', '/plants/3', undefined, session)).toEqual({ status: 200, body: '{"name":"three","id":3}' });
    expect(JSON.parse((await send(workers.url, 'GET', '/plants', undefined, session)).body)).toHaveLength(19);

    const inMemory = run(['serve', '--port', '0', '--workers', '2', '--quiet']);
    expect(await inMemory.exit).toBe(2);
    expect(inMemory.stderr()).toContain('--workers 2: with the store in memory each worker would keep plants of its own');
    const unreachable = run(['serve', '--port', '0', '--store', 'redis://127.0.0.1:1/0', '--quiet']);
    expect(await unreachable.exit).toBe(2);
    expect(unreachable.stderr()).toContain('--store: cannot reach the shared store at redis://127.0.0.1:1/0');
  });

  it('concurrent replaces of one key from two processes end in one of the writes, never a mix', async () => {
    const one = await serve(['--store', redis.url]);
    const two = await serve(['--store', redis.url]);
    processes.push(one, two);
    const session = { ...JSON_BODY, 'plant-store-session': 'race' };
    await send(one.url, 'POST', '/plants', '{"name":"start","id":1,"tag":"start"}', session);
    const writes = Array.from({ length: 40 }, (_, index) => `w${String(index)}`);
    const answers = await Promise.all(writes.map((word, index) => send(index % 2 === 0 ? one.url : two.url, 'PUT', '/plants/1', `{"name":"${word}","tag":"${word}"}`, session)));
    expect(answers.map((answer) => answer.status)).toEqual(writes.map(() => 200));
    const final = JSON.parse((await send(one.url, 'GET', '/plants/1', undefined, session)).body) as { name: string; tag: string };
    expect(writes).toContain(final.name);
    expect(final.tag).toBe(final.name);
  });

  it('server-assigned keys are unique across serve processes: a UUID, and an integer from one sequence', async () => {
    const one = await serve(['--store', redis.url], {}, GARDENS.pathname);
    const two = await serve(['--store', redis.url], {}, GARDENS.pathname);
    processes.push(one, two);
    const session = { ...JSON_BODY, 'plant-store-session': 'sequence' };
    const gardens = await Promise.all(Array.from({ length: 10 }, (_, index) => send(index % 2 === 0 ? one.url : two.url, 'POST', '/gardens', `{"name":"g${String(index)}"}`, session)));
    const gardenIds = gardens.map((garden) => (JSON.parse(garden.body) as { id: string }).id);
    expect(new Set(gardenIds).size).toBe(10);
    const beds = await Promise.all(Array.from({ length: 20 }, (_, index) => send(index % 2 === 0 ? one.url : two.url, 'POST', `/gardens/${gardenIds[0] ?? ''}/beds`, `{"label":"b${String(index)}"}`, session)));
    expect(beds.map((bed) => bed.status)).toEqual(beds.map(() => 201));
    expect(beds.map((bed) => (JSON.parse(bed.body) as { id: number }).id).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it('server-assigned keys are unique across servers, and PATCHes from both merge without losing one', async () => {
    const gardens = loadContract(GARDENS.pathname);
    const [one, two] = [await reference({ contract: gardens }), await reference({ contract: gardens })];
    const garden = JSON.parse((await send(one.url, 'POST', '/gardens', '{"name":"Shared","soil":"loam"}')).body) as { id: string };
    const beds = await Promise.all(Array.from({ length: 30 }, (_, index) => send(index % 2 === 0 ? one.url : two.url, 'POST', `/gardens/${garden.id}/beds`, `{"label":"b${String(index)}"}`)));
    expect(beds.map((bed) => bed.status)).toEqual(beds.map(() => 201));
    const ids = beds.map((bed) => (JSON.parse(bed.body) as { id: number }).id);
    expect(new Set(ids).size).toBe(30);
    // Each PATCH changes a member of its own: read-modify-write on both servers keeps every one.
    const patch = (base: string, body: string) => send(base, 'PATCH', `/gardens/${garden.id}`, body, { ...AUTH, 'content-type': 'application/merge-patch+json' });
    const patched = await Promise.all([patch(one.url, '{"name":"Renamed"}'), patch(two.url, '{"soil":"clay"}')]);
    expect(patched.map((answer) => answer.status)).toEqual([200, 200]);
    expect(JSON.parse((await send(two.url, 'GET', `/gardens/${garden.id}`)).body)).toMatchObject({ name: 'Renamed', soil: 'clay' });
  });

  it('two contracts on one Redis never see each other; nor do two versions of one', async () => {
    const document = parseYaml(readFileSync(FULL_STORE_FILE, 'utf8')) as { info: { version: string } };
    const next = compileContract({ ...document, info: { ...document.info, version: `${document.info.version}-next` } });
    const [current, upgraded] = [await reference(), await reference({ contract: next })];
    expect((await send(current.url, 'POST', '/plants', '{"name":"Only here","id":77}')).status).toBe(200);
    expect((await send(upgraded.url, 'GET', '/plants/77')).status).toBe(404);
    expect((await send(upgraded.url, 'GET', '/plants')).body).toBe('[]');
    expect((await send(current.url, 'GET', '/plants/77')).status).toBe(200);
  });

  it('Redis lost while serving: 503 in the contract\'s Error shape, nothing half-written, no crash; it resumes when Redis returns', async () => {
    const server = await reference();
    const session = { ...JSON_BODY, 'plant-store-session': 'lost' };
    expect((await send(server.url, 'POST', '/plants', '{"name":"Before","id":1}', session)).status).toBe(200);
    await redis.stop();
    for (const [method, path, body] of [['POST', '/plants', '{"name":"During","id":2}'], ['GET', '/plants/1'], ['GET', '/plants'], ['PUT', '/plants/1', '{"name":"x"}'], ['DELETE', '/plants/1']] as const) {
      const answer = await send(server.url, method, path, body, session);
      expect(answer.status, `${method} ${path}`).toBe(503);
      expect(JSON.parse(answer.body), `${method} ${path}`).toEqual({ error: 503, message: 'store: the shared store (Redis) cannot be reached; nothing was changed, try again' });
    }
    // What needs no store is still answered: a refusal by the rules.
    expect((await send(server.url, 'POST', '/plants', '{"id":"x"}', session)).status).toBe(400);
    const reset = await fetch(`${server.url}/__plant-store/store?session=lost`, { method: 'DELETE' });
    expect(reset.status).toBe(503);
    await redis.restart();
    // ioredis reconnects by itself (retryStrategy); until it has, the answer is still the 503.
    let created = await send(server.url, 'POST', '/plants', '{"name":"After","id":3}', session);
    while (created.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      created = await send(server.url, 'POST', '/plants', '{"name":"After","id":3}', session);
    }
    expect(created.status).toBe(200);
    // A redis-server without persistence comes back empty: only what was written after it returned.
    expect((await send(server.url, 'GET', '/plants', undefined, session)).body).toBe('[{"name":"After","id":3}]');
  });
});

/** The same stateful behaviour on both stores. */
describe.each([
  ['in memory', false],
  ['on Redis', true],
] as const)('eviction and sessions, %s', (_name, shared) => {
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    if (shared && HAS_REDIS) redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const start = (maxEntries?: number): Promise<StartedServer> => startReference({ contract: fullStore(), tokens: [TOKEN], ...(maxEntries === undefined ? {} : { maxEntries }), ...(redis === undefined ? {} : { store: redis.url }) });

  it.skipIf(shared && !HAS_REDIS)(`--max-entries forgets the oldest first, a replaced item counting as new${shared && !HAS_REDIS ? ` (skipped: ${REDIS_SKIP})` : ''}`, async () => {
    const server = await start(3);
    try {
      for (const id of [1, 2, 3]) await send(server.url, 'POST', '/plants', `{"name":"p${String(id)}","id":${String(id)}}`);
      await send(server.url, 'PUT', '/plants/1', '{"name":"p1 again"}');
      await send(server.url, 'POST', '/plants', '{"name":"p4","id":4}');
      const ids = (JSON.parse((await send(server.url, 'GET', '/plants')).body) as { id: number }[]).map((plant) => plant.id);
      expect(ids).toEqual([3, 1, 4]);
      expect((await send(server.url, 'GET', '/plants/2')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it.skipIf(shared && !HAS_REDIS)(`sessions are apart, and the admin path empties one and answers how many it held${shared && !HAS_REDIS ? ` (skipped: ${REDIS_SKIP})` : ''}`, async () => {
    const server = await start();
    try {
      const a = { ...JSON_BODY, 'plant-store-session': 'a*[x]' };
      const b = { ...JSON_BODY, 'plant-store-session': 'a' };
      await send(server.url, 'POST', '/plants', '{"name":"in a*[x]","id":1}', a);
      await send(server.url, 'POST', '/plants', '{"name":"in a","id":1}', b);
      const emptied = await fetch(`${server.url}/__plant-store/store?session=${encodeURIComponent('a*[x]')}`, { method: 'DELETE' });
      expect(await emptied.json()).toEqual({ session: 'a*[x]', emptied: 1 });
      expect((await send(server.url, 'GET', '/plants/1', undefined, a)).status).toBe(404);
      expect(JSON.parse((await send(server.url, 'GET', '/plants/1', undefined, b)).body)).toEqual({ name: 'in a', id: 1 });
    } finally {
      await server.close();
    }
  });
});
