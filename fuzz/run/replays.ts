/**
 * Replaying a finding's reported request: after shrinking, the request (with its setup) is sent
 * alone up to REPLAYS times, and the record says how many showed the finding again - so that a
 * flaky target and a deterministic one no longer read the same ("reproduced 3 of 3" against
 * "seen once"). Replays stop at the shrinking deadline (one is always sent) and after a timeout,
 * which costs a whole timeout each time.
 */
import { performance } from 'node:perf_hooks';
import type { RunExchange } from './tally.js';
import type { ReplayCount } from './record.js';

/** Replays of each reported request, at most. */
export const REPLAYS = 3;

export interface ReplayParts {
  /** performance.now() after which no more replays are started (one always is). */
  readonly deadline: number;
  execute(request: RunExchange['request'], fresh: boolean): Promise<RunExchange[]>;
}

const timedOut = (exchanges: readonly RunExchange[]): boolean => exchanges.some((e) => e.outcome.kind === 'failure' && e.outcome.failure === 'timeout');

/** Sends `culprit`'s request again, alone, and counts the replays whose exchanges `shows`. */
export async function replayCount(culprit: RunExchange, shows: (exchanges: readonly RunExchange[]) => boolean, parts: ReplayParts): Promise<ReplayCount> {
  let reproduced = 0;
  let of = 0;
  while (of < REPLAYS && (of === 0 || performance.now() < parts.deadline)) {
    const exchanges = await parts.execute(culprit.request, culprit.fresh);
    of++;
    if (shows(exchanges)) reproduced++;
    if (timedOut(exchanges)) break;
  }
  return { reproduced, of };
}
