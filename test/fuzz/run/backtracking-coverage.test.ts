/**
 * A store that validates names with a catastrophically backtracking pattern is caught by the
 * coverage phase alone, whatever the seed: the backtracking runs are sent in every run
 * (generation/values/backtracking-probes.ts), not drawn by chance. Time is judged by the run's own
 * bound (10 × its median, at least 1 s) against answers the faulty store cuts at 1.5 s.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../../fuzz/run/runner.js';
import { FAULTY_IMPLEMENTATIONS } from '../../faulty/faults.js';
import { TEST_TOKEN } from '../../support/servers.js';

const SEEDS = [1, 7, 1999];

describe('the coverage phase and backtracking', () => {
  it(`catches backtracking-name-classifier by response-time, seeds ${SEEDS.join(', ')}`, async () => {
    const fault = FAULTY_IMPLEMENTATIONS.find((f) => f.name === 'backtracking-name-classifier');
    if (fault === undefined) throw new Error('the backtracking faulty implementation is gone');
    const server = await fault.start();
    try {
      for (const seed of SEEDS) {
        const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed, phases: ['coverage'], timeoutMs: 2500, shrinkTimeMs: 1 });
        const slow = report.failures.find((f) => f.check === 'response-time');
        expect(slow, `seed ${seed}`).toMatchObject({ phase: 'coverage', reproduced: true });
        expect(slow?.request?.variant, `seed ${seed}`).toMatch(/backtracking|letters-then-symbol/);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
