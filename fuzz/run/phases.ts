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
  // Made first where there is a random phase: it checks the kinds asked for. Without one (a run
  // focused on coverage-only kinds: open-texts, json-whitespace, framing), coverageCases checks them.
  const arbitrary = options.phases.includes('random') ? requestArbitrary(contract, generatorOptions) : undefined;
  if (arbitrary === undefined && !options.phases.includes('coverage')) coverageCases(contract, generatorOptions);
  return options.phases.map((phase) => {
    if (phase === 'coverage') return listPlan('coverage', coverageCases(contract, generatorOptions));
    // A mock stores nothing: its capacity phase is a load within the budget, with nothing to replace or read back.
    if (phase === 'capacity') return capacityPlan(capacity, options.capacityBudgetMs, counts, profile === 'mock' ? 0 : CAPACITY_FLOOR, profile !== 'mock');
    if (phase === 'stateful') return statefulPlan(contract, options.seed, { token, profile, credentials });
    if (phase === 'overlap') return overlapPlan(options);
    return randomPlan(arbitrary ?? requestArbitrary(contract, generatorOptions), options.seed, options.runs, options.durationMs);
  });
}
