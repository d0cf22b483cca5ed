/** The plans of a run's phases, from its qualified options (plan.ts, capacity-plan.ts). */
import { CAPACITY_FLOOR, type CapacityCases } from '../generation/capacity.js';
import { coverageCases, requestArbitrary } from '../generation/kinds/index.js';
import { capacityPlan, type CapacityCounts } from './capacity-plan.js';
import type { QualifiedOptions } from './options.js';
import { overlapPlan } from './overlap.js';
import { listPlan, randomPlan, type PhasePlan } from './plan.js';
import { statefulPlan } from './stateful-plan.js';

/** The plans of the run's phases, in order. */
export function planPhases(options: QualifiedOptions, capacity: CapacityCases, counts: CapacityCounts): PhasePlan[] {
  const { contract, token, profile, credentials } = options;
  const generatorOptions = { token, profile, credentials, ...(options.kinds ? { kinds: options.kinds } : {}) };
  // Made where the random phase runs (coverageCases checks the kinds asked for too): a focused run
  // of coverage-only kinds (weight 0, other-method) has no random generator to make.
  const arbitrary = options.phases.includes('random') ? requestArbitrary(contract, generatorOptions) : undefined;
  if (arbitrary === undefined) coverageCases(contract, generatorOptions);
  return options.phases.map((phase) => {
    if (phase === 'coverage') return listPlan('coverage', coverageCases(contract, generatorOptions));
    // A mock stores nothing: its capacity phase is a load within the budget, with nothing to replace or read back.
    if (phase === 'capacity') return capacityPlan(capacity, options.capacityBudgetMs, counts, profile === 'mock' ? 0 : CAPACITY_FLOOR, profile !== 'mock');
    if (phase === 'stateful') return statefulPlan(contract, options.seed, { token, profile, credentials });
    if (phase === 'overlap') return overlapPlan(options);
    return randomPlan(arbitrary ?? requestArbitrary(contract, generatorOptions), options.seed, options.runs, options.durationMs);
  });
}
