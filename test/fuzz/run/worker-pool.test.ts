/** The worker pool: every case once, `concurrency` at most in flight, never two about the same resource at once, stopping when told. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../fuzz/run/canary.js';
import { writtenResource } from '../../../fuzz/run/exclusion.js';
import { listPlan } from '../../../fuzz/run/plan.js';
import type { RunExchange } from '../../../fuzz/run/tally.js';
import { runPhase, type PoolParts } from '../../../fuzz/run/worker-pool.js';
import { contract, kept, plants } from './support.js';


function parts(overrides: Partial<PoolParts> & { log: string[] }): PoolParts {
  const inFlight = new InFlight();
  let now = 0;
  let most = 0;
  const busy = new Set<string>();
  return {
    concurrency: 3,
    inFlight,
    keyOf: (request) => writtenResource(contract, request),
    stopped: () => false,
    canaryDue: () => undefined,
    send: async (item): Promise<RunExchange[]> => {
      const key = item.key ?? '';
      if (busy.has(key)) overrides.log.push(`overlap ${key}`);
      busy.add(key);
      most = Math.max(most, ++now);
      overrides.log.push(`most ${most}`);
      await sleep(5);
      now--;
      busy.delete(key);
      return [kept(item.index % plants.target)];
    },
    record: (_plan, item) => {
      overrides.log.push(`done ${item.index}`);
    },
    progress: () => undefined,
    ...overrides,
  };
}

describe('runPhase', () => {
  it('runs every case once, at most `concurrency` at a time, never two with the same key together', async () => {
    // Plants 0 to 9, each with its replacement right behind it: the same resource twice.
    const cases = [...Array(10).keys()].flatMap((i) => [plants.fill(i), plants.replacement(i)]);
    const log: string[] = [];
    let progress = 0;
    await runPhase(listPlan('capacity', cases), parts({ log, progress: (_plan, done) => (progress = done) }));
    expect(log.filter((l) => l.startsWith('done')).sort()).toEqual([...Array(20).keys()].map((i) => `done ${i}`).sort());
    expect(log.filter((l) => l.startsWith('overlap'))).toEqual([]);
    expect(Math.max(...log.filter((l) => l.startsWith('most')).map((l) => Number(l.slice(5))))).toBe(3);
    expect(progress).toBe(20);
  });

  it('starts no case once the run stopped', async () => {
    const log: string[] = [];
    let stop = false;
    await runPhase(listPlan('random', [...Array(20).keys()].map((i) => plants.fill(i))), parts({ log, concurrency: 1, stopped: () => stop, record: () => (stop = true) }));
    expect(log.filter((l) => l.startsWith('most'))).toHaveLength(1);
  });

  it('waits for the canary before starting more', async () => {
    const log: string[] = [];
    let read = false;
    const canary = sleep(20).then(() => {
      read = true;
      log.push('canary');
    });
    await runPhase(listPlan('random', [plants.fill(0)]), parts({ log, canaryDue: () => (read ? undefined : canary) }));
    expect(log.indexOf('canary')).toBeLessThan(log.indexOf('done 0'));
  });
});
