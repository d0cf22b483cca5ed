import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../fuzz/reports/text.js';
import { runConformance } from '../../../fuzz/run/runner.js';
import { OVERLAP_REQUESTS } from '../../../fuzz/run/overlap.js';
import { OVERLAP_FAULTS } from '../../faulty/overlap-faults.js';
import { startReference, TEST_TOKEN } from '../../support/servers.js';

const SEEDS = [1, 7, 20240611];

async function overlapRun(url: string, seed: number): ReturnType<typeof runConformance> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, seed, phases: ['overlap'], timeoutMs: 2500 });
}

describe('the overlap phase', () => {
  for (const fault of OVERLAP_FAULTS) {
    it(`catches ${fault.name} by ${fault.caughtBy} (seeds ${SEEDS.join(', ')})`, async () => {
      const server = await fault.start();
      try {
        for (const seed of SEEDS) {
          const report = await overlapRun(server.url, seed);
          const finding = report.failures.find((f) => f.check === fault.caughtBy);
          expect(finding, `seed ${seed}`).toMatchObject({ phase: 'overlap' });
          // Alone, there is no overlap: the label says so rather than hiding it.
          expect(finding?.replays?.reproduced, `seed ${seed}`).toBe(0);
          expect(formatReport(report)).toMatch(/seen \d+ times in the run, reproduced 0 of \d alone/);
        }
      } finally {
        await server.close();
      }
    }, 60_000);
  }

  it('passes the reference, every request of every group answered', async () => {
    const server = await startReference();
    try {
      const report = await overlapRun(server.url, 1);
      expect(report.failures).toEqual([]);
      // The canary's readings besides.
      expect(report.phases.overlap?.requests).toBeGreaterThanOrEqual(OVERLAP_REQUESTS);
      expect(report.checks['accepts-valid'].requests).toBeGreaterThanOrEqual(OVERLAP_REQUESTS);
    } finally {
      await server.close();
    }
  }, 60_000);
});
