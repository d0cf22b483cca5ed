/**
 * The worker pool: every case of a phase, `concurrency` at a time, no two about the same resource
 * at once (exclusion.ts), pausing while the canary is read.
 */
import type { Phase, RequestCase } from '../../oracle/index.js';
import type { InFlight } from './canary.js';
import { ExclusiveQueue, type KeyedItem } from './exclusion.js';
import type { PhasePlan } from './plan.js';
import type { RunExchange } from './tally.js';

export interface PoolParts {
  readonly concurrency: number;
  readonly inFlight: InFlight;
  keyOf(request: RequestCase): string | undefined;
  /** Whether the run stopped: no new case is started. */
  stopped(): boolean;
  /** A canary reading under way or due now, which every worker waits for. */
  canaryDue(phase: Phase): Promise<void> | undefined;
  /** Sends a case: its exchanges. */
  send(item: KeyedItem): Promise<RunExchange[]>;
  /** Records a case's exchanges. */
  record(plan: PhasePlan, item: KeyedItem, exchanges: readonly RunExchange[]): void;
  /** A case is done. */
  progress(phase: PhasePlan, done: number): void;
}

/** Runs a phase's cases; resolves when all are done or the run stopped. */
export async function runPhase(plan: PhasePlan, parts: PoolParts): Promise<void> {
  const queue = new ExclusiveQueue(plan, (request) => parts.keyOf(request), parts.concurrency * 4);
  let done = 0;
  // Workers waiting for a resource in flight to be released; all are woken when any case completes.
  let waiting: (() => void)[] = [];
  const wakeAll = (): void => {
    const woken = waiting;
    waiting = [];
    for (const resume of woken) resume();
  };
  const worker = async (): Promise<void> => {
    while (!parts.stopped() && !queue.done()) {
      const paused = parts.canaryDue(plan.phase);
      if (paused !== undefined) {
        await paused;
        continue;
      }
      const item = queue.take();
      if (item === undefined) {
        if (queue.done()) break;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      parts.inFlight.enter();
      const exchanges = await parts.send(item);
      parts.inFlight.leave();
      queue.release(item);
      parts.record(plan, item, exchanges);
      parts.progress(plan, ++done);
      wakeAll();
    }
    wakeAll();
  };
  await Promise.all(Array.from({ length: Math.min(parts.concurrency, Math.max(1, plan.total())) }, worker));
}
