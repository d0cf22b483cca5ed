/**
 * The capacity phase's plan: the fill (thousands of distinct small valid plants, within a time
 * budget), then the earliest tenth of them replaced; and its counts, kept as its answers come.
 */
import { performance } from 'node:perf_hooks';
import { FLOOR_LIMIT_MS, REPLACED_SHARE, type CapacityCases } from '../generation/capacity.js';
import type { PhasePlan, PlanItem } from './plan.js';

/** Counts of the capacity phase, kept as its exchanges complete. */
export interface CapacityCounts {
  sent: number;
  stored: number;
  refused: number;
  /** Plants refused in a row, lately. */
  streak: number;
  replacementsSent: number;
  replaced: number;
  budgetHit: boolean;
  /** Why the fill ended before the target and the budget, if it did. */
  gaveUp?: string;
}

/** Plants refused in a row after which the fill stops: the target has said it stores no more. */
export const GIVE_UP_AFTER = 100;

export function newCapacityCounts(): CapacityCounts {
  return { sent: 0, stored: 0, refused: 0, streak: 0, replacementsSent: 0, replaced: 0, budgetHit: false };
}

/** One capacity case answered: a success stores a plant (or replaces one, from index `target` on). */
export function countCapacityAnswer(counts: CapacityCounts, index: number, target: number, success: boolean): void {
  if (index >= target) counts.replaced += success ? 1 : 0;
  else if (success) {
    counts.stored++;
    counts.streak = 0;
  } else {
    counts.refused++;
    if (++counts.streak >= GIVE_UP_AFTER) counts.gaveUp ??= `${GIVE_UP_AFTER} plants in a row were refused`;
  }
}

/**
 * The fill (indexes 0 to target − 1) until the target or the budget (but not before `floor`,
 * for FLOOR_LIMIT_MS at most) or GIVE_UP_AFTER refusals in a row, then the replacements
 * (target + i) of the earliest plants, if `replace`.
 */
export function capacityPlan(cases: CapacityCases, budgetMs: number, counts: CapacityCounts, floor: number, replace: boolean): PhasePlan {
  let began: number | undefined;
  let replacements: number | undefined;
  const itemAt = (index: number): PlanItem | undefined => {
    if (index < 0) return undefined;
    const i = index < cases.target ? index : index - cases.target;
    return { index, request: index < cases.target ? cases.fill(i) : cases.replacement(i), fresh: cases.fresh(i) };
  };
  return {
    phase: 'capacity',
    total: () => cases.target + (replacements ?? Math.ceil(cases.target / REPLACED_SHARE)),
    next: () => {
      const now = performance.now();
      began ??= now;
      if (replacements === undefined) {
        const within = now - began < budgetMs || (counts.sent < floor && now - began < Math.max(budgetMs, FLOOR_LIMIT_MS));
        if (counts.sent < cases.target && within && counts.gaveUp === undefined) return itemAt(counts.sent++);
        counts.budgetHit = counts.sent < cases.target && counts.gaveUp === undefined;
        // A tenth of the plants sent (a few may still be on their way), none when the target refused them all.
        replacements = replace ? Math.ceil((counts.gaveUp === undefined ? counts.sent : counts.stored) / REPLACED_SHARE) : 0;
      }
      return counts.replacementsSent < replacements ? itemAt(cases.target + counts.replacementsSent++) : undefined;
    },
    caseAt: (index) => (index < cases.target + cases.target ? itemAt(index) : undefined),
  };
}
