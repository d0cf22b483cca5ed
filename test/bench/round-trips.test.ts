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
import { fullStore } from '../support/contracts.js';
import { HAS_REDIS, REDIS_SKIP, startRedis, type RunningRedis } from '../support/redis.js';

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
});
