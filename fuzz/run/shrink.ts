/**
 * Shrinking and replaying a finding: a random-phase case is shrunk by fast-check from its run index
 * (the same seed draws the same values); any other case is replayed once, to see whether it shows
 * the finding again. How many replays in a row confirm it, and whether a replay waits for late
 * bytes, the check's replay says (checks/index.ts, replayOf).
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type { Phase, Replay, RequestCase } from '../../oracle/index.js';
import type { PhasePlan, PlanItem } from './plan.js';
import type { RunExchange } from './tally.js';

/** Shrinking a finding stops after this many timed-out steps. */
const MAX_SHRINK_TIMEOUTS = 3;
/** How long a replayed request's connection is given to deliver bytes after its answer (delayed acknowledgements take 40 ms). */
const LATE_GRACE_MS = 100;

/** What shrinking or replaying a finding's case found. */
export interface Found {
  readonly exchanges: readonly RunExchange[];
  readonly shrinks: number;
  readonly path: string | undefined;
  readonly reproduced: boolean;
  readonly phase: Phase;
  readonly message?: string;
}

export interface ShrinkParts {
  readonly seed: number;
  /** performance.now() after which no more shrinking is started. */
  readonly deadline: number;
  execute(request: RequestCase, fresh: boolean): Promise<RunExchange[]>;
}

/** A check's replay (checks/index.ts) over a case's exchanges. */
export interface CaseReplay extends Pick<Replay, 'times' | 'waitsForLateBytes'> {
  shows(exchanges: readonly RunExchange[]): boolean;
}

/** The case to start from: its phase's plan, the case, and its exchanges in the run if it was seen there. */
export interface Start {
  readonly plan: PhasePlan | undefined;
  readonly phase: Phase;
  readonly item: PlanItem;
  readonly exchanges?: readonly RunExchange[];
}

const timedOut = (exchanges: readonly RunExchange[]): number => exchanges.filter((e) => e.outcome.kind === 'failure' && e.outcome.failure === 'timeout').length;

/** One case's replays: `times` in a row that all show it, or none. */
class Attempts {
  timedOut = 0;
  /** The first replay's exchanges, whatever they showed. */
  sent: RunExchange[] | undefined;

  constructor(
    private readonly parts: ShrinkParts,
    private readonly shows: (exchanges: readonly RunExchange[]) => boolean,
    private readonly times: number,
  ) {}

  /** The last execution's exchanges when every one of `times` showed it, undefined otherwise; `waitForLate` waits LATE_GRACE_MS for late bytes before a replay counts as not showing it. */
  async attempt(request: RequestCase, fresh: boolean, waitForLate: boolean): Promise<RunExchange[] | undefined> {
    let exchanges: RunExchange[] | undefined;
    for (let i = 0; i < this.times; i++) {
      exchanges = await this.parts.execute(request, fresh);
      this.sent ??= exchanges;
      this.timedOut += timedOut(exchanges);
      // Bytes a server sends after its answer (a second answer it holds back) are judged when they come.
      if (waitForLate && !this.shows(exchanges)) await new Promise((resolve) => setTimeout(resolve, LATE_GRACE_MS));
      if (!this.shows(exchanges)) return undefined;
    }
    return exchanges;
  }
}

/** Shrinks a random-phase case with fast-check, from its run index, within the time left. */
async function shrinkRandom(start: Start, arbitrary: fc.Arbitrary<RequestCase>, attempts: Attempts, parts: ShrinkParts): Promise<Found> {
  const index = start.item.index;
  let last: RunExchange[] | undefined;
  const property = fc.asyncProperty(arbitrary, async (request) => {
    // Every step that hangs costs a whole timeout: after a few, shrinking stops where it is
    // (the remaining candidates count as passing, so fast-check keeps the last failure).
    if (attempts.timedOut >= MAX_SHRINK_TIMEOUTS) return true;
    const shown = await attempts.attempt(request, false, false);
    if (!shown) return true;
    last = shown;
    return false;
  });
  const remaining = Math.max(1, parts.deadline - performance.now());
  const details = await fc.check(property, { seed: parts.seed, path: String(index), numRuns: 1, plugins: [fc.interruptAfterTimeLimit(remaining)] });
  if (details.failed && last) return { exchanges: last, shrinks: details.numShrinks, path: details.counterexamplePath ?? String(index), reproduced: true, phase: start.phase };
  return { exchanges: start.exchanges ?? attempts.sent ?? [], shrinks: 0, path: String(index), reproduced: false, phase: start.phase };
}

/**
 * A random-phase case shrunk by fast-check, or any other case replayed once. A replay confirms a
 * run check's finding (a case not seen in the run): it is sent even when the time for shrinking is over.
 */
export async function minimise(start: Start, replay: CaseReplay, parts: ShrinkParts): Promise<Found> {
  const attempts = new Attempts(parts, (exchanges) => replay.shows(exchanges), replay.times);
  const arbitrary = start.plan?.arbitrary;
  if (arbitrary !== undefined && start.item.index >= 0 && performance.now() < parts.deadline) return shrinkRandom(start, arbitrary, attempts, parts);
  const again = performance.now() < parts.deadline || start.exchanges === undefined ? await attempts.attempt(start.item.request, start.item.fresh, replay.waitsForLateBytes) : undefined;
  return { exchanges: again ?? start.exchanges ?? attempts.sent ?? [], shrinks: 0, path: undefined, reproduced: again !== undefined, phase: start.phase };
}
