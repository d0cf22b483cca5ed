/** The plan: each phase's cases in order, any of them made again from its index, the same for the same seed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/openapi/index.js';
import { capacityCases, REPLACED_SHARE } from '../../../fuzz/generation/capacity.js';
import { capacityPlan, countCapacityAnswer, GIVE_UP_AFTER, newCapacityCounts } from '../../../fuzz/run/capacity-plan.js';
import { qualify } from '../../../fuzz/run/options.js';
import { planPhases } from '../../../fuzz/run/phases.js';
import { listPlan, randomPlan, type PhasePlan, type PlanItem } from '../../../fuzz/run/plan.js';
import type { RequestCase } from '../../../oracle/types.js';
import { requestArbitrary } from '../../../fuzz/generation/kinds/index.js';

const contract = loadContract();
const token = 'test-token';

function drain(plan: PhasePlan): PlanItem[] {
  const items: PlanItem[] = [];
  for (let item = plan.next(); item !== undefined; item = plan.next()) items.push(item);
  return items;
}

const bodies = (items: readonly { request: RequestCase }[]): string[] => items.map((i) => Buffer.from(i.request.body).toString('base64'));

describe('the random plan', () => {
  const arbitrary = requestArbitrary(contract, { token });

  it('pulls `runs` cases, in chunks, each the one its index makes again', () => {
    const seed = 11;
    const items = drain(randomPlan(arbitrary, seed, 300, undefined));
    console.log(`seed ${seed}`);
    expect(items.map((i) => i.index)).toEqual([...Array(300).keys()]);
    const again = randomPlan(arbitrary, seed, 300, undefined);
    for (const index of [0, 1, 249, 250, 299]) expect(bodies([again.caseAt(index) as PlanItem])).toEqual(bodies([items[index] as PlanItem]));
  });

  it('is the same for the same seed, and another for another', () => {
    const first = bodies(drain(randomPlan(arbitrary, 3, 50, undefined)));
    expect(bodies(drain(randomPlan(arbitrary, 3, 50, undefined)))).toEqual(first);
    expect(bodies(drain(randomPlan(arbitrary, 4, 50, undefined)))).not.toEqual(first);
  });

  it('keeps the arbitrary to shrink with', () => {
    expect(randomPlan(arbitrary, 1, 1, undefined).arbitrary).toBe(arbitrary);
    expect(fc.sample(arbitrary, { seed: 1, numRuns: 1 })).toHaveLength(1);
  });
});

describe('the list and capacity plans', () => {
  it('a list plan hands out its cases in order, and none after', () => {
    const cases = capacityCases(contract, { token, target: 3 });
    const plan = listPlan('coverage', [cases.fill(0), cases.fill(1)]);
    expect(drain(plan).map((i) => i.index)).toEqual([0, 1]);
    expect(plan.caseAt(2)).toBeUndefined();
  });

  it('fills to the target, then replaces the earliest tenth', () => {
    const cases = capacityCases(contract, { token, target: 40 });
    const counts = newCapacityCounts();
    const items = drain(capacityPlan(cases, 60_000, counts, 0, true));
    const replacements = Math.ceil(40 / REPLACED_SHARE);
    expect(items.map((i) => i.index)).toEqual([...Array(40 + replacements).keys()]);
    expect(counts).toMatchObject({ sent: 40, replacementsSent: replacements, budgetHit: false });
  });

  it('stops the fill when the budget is spent (with no floor), and replaces nothing when told not to', () => {
    const cases = capacityCases(contract, { token, target: 40 });
    const counts = newCapacityCounts();
    expect(drain(capacityPlan(cases, 0, counts, 0, false))).toEqual([]);
    expect(counts.budgetHit).toBe(true);
  });

  it('gives up after GIVE_UP_AFTER refusals in a row; a success in between starts the count again', () => {
    const counts = newCapacityCounts();
    for (let i = 0; i < GIVE_UP_AFTER - 1; i++) countCapacityAnswer(counts, i, 1000, false);
    countCapacityAnswer(counts, 99, 1000, true);
    countCapacityAnswer(counts, 100, 1000, false);
    expect(counts.gaveUp).toBeUndefined();
    for (let i = 0; i < GIVE_UP_AFTER; i++) countCapacityAnswer(counts, 101 + i, 1000, false);
    expect(counts.gaveUp).toBe(`${GIVE_UP_AFTER} plants in a row were refused`);
    countCapacityAnswer(counts, 1000, 1000, true);
    expect(counts).toMatchObject({ stored: 1, replaced: 1, refused: GIVE_UP_AFTER * 2 });
  });
});

describe('planPhases', () => {
  it('plans the qualified phases in order', () => {
    const options = qualify({ baseUrl: 'http://127.0.0.1:1', token, seed: 1, capacity: 10, runs: 5 });
    const plans = planPhases(options, capacityCases(contract, { token, target: 10 }), newCapacityCounts());
    expect(plans.map((p) => p.phase)).toEqual(['coverage', 'capacity', 'random', 'overlap']);
    expect(plans[2]?.total()).toBe(5);
  });
});
