/** Shrinking and replaying: a random case shrunk by fast-check from its index, any other replayed; `times` replays in a row confirm. */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { requestArbitrary } from '../../../fuzz/generation/kinds/index.js';
import { listPlan, randomPlan } from '../../../fuzz/run/plan.js';
import { minimise, type CaseReplay, type ShrinkParts } from '../../../fuzz/run/shrink.js';
import type { RunExchange } from '../../../fuzz/run/tally.js';
import type { RequestCase } from '../../../oracle/types.js';
import { answer, contract, judged, plants, token } from './support.js';

/** A target that answers a body over 20 bytes with a 500, anything else with a 201. */
function partsOf(deadline: number, seed: number, sent: RequestCase[]): ShrinkParts {
  return {
    seed,
    deadline,
    execute: (request) => {
      sent.push(request);
      return Promise.resolve([judged(request, request.body.length > 20 ? answer(500, { error: 500, message: 'boom' }) : answer(201, {}))]);
    },
  };
}

const long = (exchanges: readonly RunExchange[]): boolean => exchanges.some((e) => e.outcome.kind === 'response' && e.outcome.status === 500);
const replay = (times = 1): CaseReplay => ({ shows: long, times, waitsForLateBytes: false });

describe('minimise', () => {
  it('shrinks a random case from its index to a smaller one that still shows it', async () => {
    const seed = 21;
    console.log(`seed ${seed}`);
    const plan = randomPlan(requestArbitrary(contract, { token }), seed, 100, undefined);
    const index = [...Array(100).keys()].find((i) => (plan.caseAt(i)?.request.body.length ?? 0) > 60);
    const item = index === undefined ? undefined : plan.caseAt(index);
    if (item === undefined) throw new Error('no long body among 100 cases');
    const found = await minimise({ plan, phase: 'random', item }, replay(), partsOf(performance.now() + 10_000, seed, []));
    expect(found.reproduced).toBe(true);
    expect(found.path?.split(':')[0]).toBe(String(index));
    expect(found.shrinks).toBeGreaterThan(0);
    expect(found.exchanges[0]?.request.body.length).toBeLessThan(item.request.body.length);
  });

  it('replays any other case as it is, `times` in a row', async () => {
    const sent: RequestCase[] = [];
    const item = { index: 0, request: plants.fill(0), fresh: false };
    const found = await minimise({ plan: listPlan('coverage', [item.request]), phase: 'coverage', item }, replay(2), partsOf(performance.now() + 10_000, 1, sent));
    expect(found).toMatchObject({ reproduced: true, shrinks: 0, path: undefined, phase: 'coverage' });
    expect(sent).toHaveLength(2);
  });

  it('says when a replay does not show it again, and keeps the exchanges first seen', async () => {
    const sent: RequestCase[] = [];
    const item = { index: 0, request: { ...plants.fill(0), body: Buffer.from('{}') }, fresh: false };
    const first = [judged(item.request, answer(500, { error: 500, message: 'once' }))];
    const found = await minimise({ plan: undefined, phase: 'capacity', item, exchanges: first }, replay(2), partsOf(performance.now() + 10_000, 1, sent));
    expect(found.reproduced).toBe(false);
    expect(found.exchanges).toBe(first);
    // The first replay did not show it: no second.
    expect(sent).toHaveLength(1);
  });

  it('sends nothing once the time for shrinking is over, unless the case was never seen', async () => {
    const sent: RequestCase[] = [];
    const item = { index: 0, request: plants.fill(0), fresh: false };
    const seen = [judged(item.request, answer(201, {}))];
    await minimise({ plan: undefined, phase: 'coverage', item, exchanges: seen }, replay(), partsOf(0, 1, sent));
    expect(sent).toHaveLength(0);
    await minimise({ plan: undefined, phase: 'coverage', item }, replay(), partsOf(0, 1, sent));
    expect(sent).toHaveLength(1);
  });
});
