/**
 * The faults of the conformance map's rows on time (test/faulty/map-time.ts), each caught by
 * `degradation` in a default run, one at a time in this process of their own (as
 * faulty-alone.test.ts runs the other defects that show in time). Their growth shows only across
 * what a default run makes a server hold, and only where no other run loads the machine: this file
 * runs under `npm run test:slow` (PLANT_STORE_CONFORM_BUDGET=default, one file at a time); `npm
 * test` proves the probes and their judgement cheaply (test/fuzz/growth.test.ts).
 */
import { describe } from 'vitest';
import { MAP_TIME_FAULTS } from '../faulty/map-time.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

const slowTier = process.env.PLANT_STORE_CONFORM_BUDGET === 'default';

describe.runIf(slowTier)('the time rows of the conformance map: each fault caught by degradation in a default run', () => {
  useEnginePool(1);
  MAP_TIME_FAULTS.forEach((implementation, i) => {
    describeConformance(implementation, [SUITE_SEEDS[i % SUITE_SEEDS.length] ?? 7]);
  });
});
