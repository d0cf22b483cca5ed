/**
 * The plan of a run (fast-check's iterator, in spirit): its phases in order, each a source of
 * cases pulled one at a time, any of which can be made again from its index (to replay or shrink).
 * - **coverage**: every kind's deterministic requests, the same list whatever the seed;
 * - **capacity**: see capacity-plan.ts;
 * phases.ts makes the plans of a run.
 * - **random**: `runs` requests generated from the seed by fast-check (and more for `durationMs`).
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type { Phase, RequestCase } from '../../oracle/index.js';

/** Cases generated at a time. */
const CHUNK = 250;

export interface PlanItem {
  /** Its position in the phase (for the random phase, fast-check's run index); -1 for the canary. */
  readonly index: number;
  readonly request: RequestCase;
  /** Sent on a connection of its own, as curl sends it. */
  readonly fresh: boolean;
}

/** The cases of one phase: pulled one at a time; any one can be made again from its index. */
export interface PhasePlan {
  readonly phase: Phase;
  /** Cases planned so far (a `durationMs` run plans more as it goes). */
  total(): number;
  next(): PlanItem | undefined;
  caseAt(index: number): PlanItem | undefined;
  /** For the random phase: the arbitrary behind `caseAt`, to shrink with. */
  readonly arbitrary?: fc.Arbitrary<RequestCase>;
}

export function listPlan(phase: Phase, cases: readonly RequestCase[]): PhasePlan {
  let at = 0;
  const itemAt = (index: number): PlanItem | undefined => {
    const request = cases[index];
    return request === undefined ? undefined : { index, request, fresh: false };
  };
  return { phase, total: () => cases.length, next: () => itemAt(at++), caseAt: itemAt };
}

export function randomPlan(arbitrary: fc.Arbitrary<RequestCase>, seed: number, runs: number, durationMs: number | undefined): PhasePlan {
  let generated = 0;
  let buffer: RequestCase[] = [];
  let offset = 0;
  let deadline: number | undefined;
  const more = (): boolean => generated < runs || (durationMs !== undefined && performance.now() < (deadline ?? 0));
  return {
    phase: 'random',
    total: () => Math.max(runs, generated),
    arbitrary,
    // Cases are generated in chunks (fast-check's `path` starts a sample at a run index): memory stays flat for any runs.
    next: () => {
      deadline ??= performance.now() + (durationMs ?? 0);
      if (offset >= buffer.length) {
        if (!more()) return undefined;
        const size = generated < runs ? Math.min(CHUNK, runs - generated) : CHUNK;
        buffer = fc.sample(arbitrary, { seed, path: String(generated), numRuns: size });
        offset = 0;
        generated += size;
      }
      const request = buffer[offset] as RequestCase;
      const index = generated - buffer.length + offset;
      offset++;
      return { index, request, fresh: false };
    },
    caseAt: (index) => {
      const request = fc.sample(arbitrary, { seed, path: String(index), numRuns: 1 })[0];
      return request === undefined ? undefined : { index, request, fresh: false };
    },
  };
}

/** The plan of a phase, if the run has it. */
export function planOf(plans: readonly PhasePlan[], phase: Phase): PhasePlan | undefined {
  return plans.find((p) => p.phase === phase);
}
