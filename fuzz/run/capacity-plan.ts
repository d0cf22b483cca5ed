/**
 * The capacity phase's plan: the fill (thousands of distinct small valid plants, within a time
 * budget), then the earliest tenth of them replaced, then - where the contract has a read of what
 * the create stores - a sample of the others read back; and its counts, kept as its answers come.
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
  /** Fill indexes of the read-back sample (inReadBackSample) answered with a success, as they came. */
  sampleStored: number[];
  /** Plants read back. */
  readsSent: number;
  /** The fill index of the plant whose success came last: the newest stored (the canary's entries probe). */
  lastStored?: number;
  budgetHit: boolean;
  /** Why the fill ended before the target and the budget, if it did. */
  gaveUp?: string;
}

/** Plants refused in a row after which the fill stops: the target has said it stores no more. */
export const GIVE_UP_AFTER = 100;

/** Plants read back at most, at the end of the phase. */
export const READ_BACK = 50;

/** Whether the fill's i-th plant is in the sample that may be read back: one in every target / READ_BACK, spread over the fill. */
export function inReadBackSample(index: number, target: number): boolean {
  const stride = Math.max(1, Math.floor(target / READ_BACK));
  return index % stride === stride - 1;
}

export function newCapacityCounts(): CapacityCounts {
  return { sent: 0, stored: 0, refused: 0, streak: 0, replacementsSent: 0, replaced: 0, sampleStored: [], readsSent: 0, budgetHit: false };
}

/**
 * One capacity case answered: a success stores a plant (or replaces one, from index `target` on);
 * a read back (from index 2 × `target` on) is resource-available's to judge, not counted here.
 */
export function countCapacityAnswer(counts: CapacityCounts, index: number, target: number, success: boolean): void {
  if (index >= 2 * target) return;
  if (index >= target) counts.replaced += success ? 1 : 0;
  else if (success) {
    counts.stored++;
    counts.lastStored = index;
    counts.streak = 0;
    if (inReadBackSample(index, target)) counts.sampleStored.push(index);
  } else {
    counts.refused++;
    if (++counts.streak >= GIVE_UP_AFTER) counts.gaveUp ??= `${GIVE_UP_AFTER} plants in a row were refused`;
  }
}

/**
 * The plants read back: those of the sample stored by now (their answers are in, so each read
 * comes after its create) and not replaced, in fill order.
 */
function readBackSample(counts: CapacityCounts, replacements: number): number[] {
  return counts.sampleStored.filter((i) => i >= replacements).sort((a, b) => a - b);
}

/**
 * The fill (indexes 0 to target − 1) until the target or the budget (but not before `floor`,
 * for FLOOR_LIMIT_MS at most) or GIVE_UP_AFTER refusals in a row, then, if the target `stores`
 * what it is sent, the replacements (target + i) of the earliest plants and the reads back
 * (2 × target + i) of a sample of the others, where the cases have a read.
 */
export function capacityPlan(cases: CapacityCases, budgetMs: number, counts: CapacityCounts, floor: number, stores: boolean): PhasePlan {
  let began: number | undefined;
  let replacements: number | undefined;
  let reads: number[] | undefined;
  const itemAt = (index: number): PlanItem | undefined => {
    if (index < 0) return undefined;
    const i = index % cases.target;
    if (index >= 2 * cases.target) return cases.readBack === undefined ? undefined : { index, request: cases.readBack(i), fresh: false };
    return { index, request: index < cases.target ? cases.fill(i) : cases.replacement(i), fresh: cases.fresh(i) };
  };
  const readsPlanned = (): number => reads?.length ?? (stores && cases.readBack !== undefined ? Math.min(READ_BACK, cases.target) : 0);
  return {
    phase: 'capacity',
    total: () => cases.target + (replacements ?? Math.ceil(cases.target / REPLACED_SHARE)) + readsPlanned(),
    next: () => {
      const now = performance.now();
      began ??= now;
      if (replacements === undefined) {
        const within = now - began < budgetMs || (counts.sent < floor && now - began < Math.max(budgetMs, FLOOR_LIMIT_MS));
        if (counts.sent < cases.target && within && counts.gaveUp === undefined) return itemAt(counts.sent++);
        counts.budgetHit = counts.sent < cases.target && counts.gaveUp === undefined;
        // A tenth of the plants sent (a few may still be on their way), none when the target refused them all.
        replacements = stores ? Math.ceil((counts.gaveUp === undefined ? counts.sent : counts.stored) / REPLACED_SHARE) : 0;
      }
      if (counts.replacementsSent < replacements) return itemAt(cases.target + counts.replacementsSent++);
      reads ??= stores && cases.readBack !== undefined ? readBackSample(counts, replacements) : [];
      const plant = reads[counts.readsSent];
      if (plant === undefined) return undefined;
      counts.readsSent++;
      return itemAt(2 * cases.target + plant);
    },
    caseAt: (index) => (index < 3 * cases.target ? itemAt(index) : undefined),
  };
}
