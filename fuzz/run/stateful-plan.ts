/**
 * The stateful phase's plan: sequences along the contract's links (generation/sequences.ts), drawn
 * by fast-check from the run's seed - any one made again from its index, as the random phase's
 * cases are - at most STATEFUL_SEQUENCES of them and for STATEFUL_BUDGET_MS at most. A contract
 * with no link and no read (the bundled 1.0.0) gives no walk: the run has no stateful phase.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type { Contract } from '../../src/openapi/index.js';
import { sequenceArbitrary, walksOf, type SequenceOptions } from '../generation/sequences.js';
import type { Phase, Profile, RequestCase } from '../types.js';
import type { PhasePlan, PlanItem } from './plan.js';

/** Sequences a run sends at most. */
export const STATEFUL_SEQUENCES = 60;
/** How long the phase starts new sequences for, at most. */
export const STATEFUL_BUDGET_MS = 15_000;

/**
 * Whether a run has the phase: by default where the contract has links (or a collection/item
 * pattern with a read) to walk and the target stores what it is sent (not a mock), so that a run
 * of the bundled 1.0.0 contract is as it was; always where the phases were asked for by name (it
 * then reports 0 requests).
 */
export function statefulRuns(contract: Contract, profile: Profile, asked: readonly Phase[] | undefined): boolean {
  return asked !== undefined || (profile !== 'mock' && walksOf(contract).length > 0);
}

export function statefulPlan(contract: Contract, seed: number, options: SequenceOptions, budgetMs = STATEFUL_BUDGET_MS): PhasePlan {
  const walks = walksOf(contract);
  const arbitrary: fc.Arbitrary<RequestCase> | undefined = walks.length === 0 ? undefined : sequenceArbitrary(contract, walks, options);
  const total = arbitrary === undefined ? 0 : STATEFUL_SEQUENCES;
  const caseAt = (index: number): PlanItem | undefined => {
    if (arbitrary === undefined || index < 0 || index >= total) return undefined;
    // fast-check's `path` starts a sample at a run index: the same seed and index give the same sequence.
    const request = fc.sample(arbitrary, { seed, path: String(index), numRuns: 1 })[0];
    return request === undefined ? undefined : { index, request, fresh: false };
  };
  let at = 0;
  let deadline: number | undefined;
  return {
    phase: 'stateful',
    total: () => total,
    next: () => {
      deadline ??= performance.now() + budgetMs;
      return performance.now() < deadline ? caseAt(at++) : undefined;
    },
    caseAt,
  };
}
