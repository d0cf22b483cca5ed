/**
 * The bench's count of Redis round trips per request kind (bench/round-trips.ts), against a real
 * redis-server and a reference of the full store on it: what docs/reference-server.md says a
 * request costs - one round trip to read or create, two to replace or delete (a read, then the
 * commit), none for a request refused by the rules - counted from Redis's own statistics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type StartedServer } from '../../api/index.js';
import { connectBenchRedis, countRoundTrips, fullStoreProbes } from '../../bench/round-trips.js';
import { BENCH_TOKEN } from '../../bench/workload.js';
import { loadContract } from '../../src/openapi/index.js';
import { fullStore } from '../support/contracts.js';
import { HAS_REDIS, REDIS_SKIP, startRedis, type RunningRedis } from '../support/redis.js';

const GARDENS = new URL('../../examples/contracts/garden-journal.yaml', import.meta.url).pathname;

describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'Redis round trips per request kind' : `Redis round trips per request kind: skipped, ${REDIS_SKIP}`, () => {
  let redis: RunningRedis;
  let server: StartedServer;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startReference({ store: redis.url, contract: fullStore(), tokens: [BENCH_TOKEN] });
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('read and create one, replace and delete two, a refused create none; a list one, whatever it holds', async () => {
    const client = await connectBenchRedis(redis.url);
    try {
      const figures = await countRoundTrips(client, server.url, fullStoreProbes(), 4, 'counted');
      const perKind = Object.fromEntries(figures.map((figure) => [figure.kind, [Object.keys(figure.statuses).join(), figure.perRequest]]));
      expect(perKind).toEqual({
        'create (POST /plants)': ['200', 1],
        'read (GET /plants/{id})': ['200', 1],
        'read of an absent item (404)': ['404', 1],
        'replace (PUT /plants/{id})': ['200', 2],
        'list (GET /plants)': ['200', 1],
        'delete (DELETE /plants/{id})': ['204', 2],
        'an invalid create (400)': ['400', 0],
      });
      // The list's one script read every item of the session's scope.
      expect(figures.find((figure) => figure.kind === 'list (GET /plants)')?.commands.get).toBe(5);
    } finally {
      await client.quit();
    }
  });

  it('server-assigned keys: a UUID create and a PATCH two; a create under a parent with an integer from the sequence five', async () => {
    const gardens = await startReference({ store: redis.url, contract: loadContract(GARDENS), tokens: [BENCH_TOKEN] });
    const client = await connectBenchRedis(redis.url);
    try {
      const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json', 'plant-store-session': 'gardens' };
      const garden = (await (await fetch(`${gardens.url}/gardens`, { method: 'POST', headers, body: '{"name":"G"}' })).json()) as { id: string };
      const figures = await countRoundTrips(client, gardens.url, [
        { name: 'create a garden', method: 'POST', path: () => '/gardens', body: () => '{"name":"G"}', headers },
        { name: 'patch a garden', method: 'PATCH', path: () => `/gardens/${garden.id}`, body: () => '{"soil":"clay"}', headers: { ...headers, 'content-type': 'application/merge-patch+json' } },
        { name: 'create a bed', method: 'POST', path: () => `/gardens/${garden.id}/beds`, body: () => '{"label":"b"}', headers },
      ], 3, 'gardens');
      expect(figures.map((figure) => [figure.kind, Object.keys(figure.statuses).join(), figure.perRequest])).toEqual([
        ['create a garden', '201', 2],
        ['patch a garden', '200', 2],
        ['create a bed', '201', 5],
      ]);
    } finally {
      await client.quit();
      await gardens.close();
    }
  });
});
