/**
 * The overlap phase: several requests in flight at the server at once, which the other phases
 * never guarantee - against a fast target each request of the kept-alive pool arrives whole and is
 * answered before the next is read, whatever `--concurrency` says. Two shapes, each a few groups:
 * - **held**: a group of valid requests, each on a connection of its own with its head and half
 *   its body sent, the rest only once the whole group got that far (wire/held-exchange.ts);
 * - **burst**: a group of valid requests sent at once, each on a fresh connection.
 * Every request is valid and about a plant of its own, so rule 1 holds for each: a 503 ("busy")
 * or a broken connection is a finding of `accepts-valid` or `no-server-error`, as anywhere else.
 * Bounded: a fixed number of groups, each exchange within the run's timeout.
 */
import { overlapCases } from '../generation/overlap.js';
import type { HttpOutcome, RequestCase } from '../types.js';
import type { QualifiedOptions } from './options.js';
import type { PhasePlan, PlanItem } from './plan.js';
import type { Exchange } from './tally.js';
import type { KeyedItem } from './exclusion.js';
import type { PoolParts } from './worker-pool.js';

/** Held groups, and requests in each. */
export const HELD_GROUPS = 6;
export const HELD_SIZE = 4;
/** Bursts on fresh connections, and requests in each. */
export const BURSTS = 2;
export const BURST_SIZE = 8;

const HELD_TOTAL = HELD_GROUPS * HELD_SIZE;

export function overlapPlan(options: Pick<QualifiedOptions, 'contract' | 'token' | 'profile'>): PhasePlan {
  const cases = overlapCases(options.contract, options, HELD_TOTAL + BURSTS * BURST_SIZE);
  let at = 0;
  // Every request goes on a connection of its own; a replay sends it so too (alone).
  const itemAt = (index: number): PlanItem | undefined => {
    const request = cases[index];
    return request === undefined ? undefined : { index, request, fresh: true };
  };
  return { phase: 'overlap', total: () => cases.length, next: () => itemAt(at++), caseAt: itemAt };
}

/** How the phase sends: a held group's outcomes in order, and one request alone on a fresh connection. */
export interface OverlapSender {
  held(requests: readonly RequestCase[]): Promise<readonly HttpOutcome[]>;
  judge(request: RequestCase, outcome: HttpOutcome, startedMs: number): Exchange;
  now(): number;
}

/** The plan's items in groups of a shape; no two are about the same plant, so none waits for another (exclusion.ts). */
function groupsOf(plan: PhasePlan): KeyedItem[][] {
  const groups: KeyedItem[][] = [];
  for (let next = plan.next(); next !== undefined; next = plan.next()) {
    const item = { ...next, key: undefined };
    const size = item.index < HELD_TOTAL ? HELD_SIZE : BURST_SIZE;
    const last = groups[groups.length - 1];
    const sameShape = last !== undefined && (last[0]?.index ?? 0) < HELD_TOTAL === item.index < HELD_TOTAL;
    if (last !== undefined && sameShape && last.length < size) last.push(item);
    else groups.push([item]);
  }
  return groups;
}

async function sendGroup(group: readonly KeyedItem[], pool: PoolParts, sender: OverlapSender): Promise<Exchange[][]> {
  if ((group[0]?.index ?? 0) >= HELD_TOTAL) return Promise.all(group.map((item) => pool.send(item)));
  const startedMs = sender.now();
  const outcomes = await sender.held(group.map((item) => item.request));
  return group.map((item, i) => {
    const outcome = outcomes[i] as HttpOutcome;
    return [sender.judge(item.request, outcome, startedMs)];
  });
}

/** Runs the phase's groups one after the other, each all at once; the canary is read between groups. */
export async function runOverlap(plan: PhasePlan, pool: PoolParts, sender: OverlapSender): Promise<void> {
  let done = 0;
  for (const group of groupsOf(plan)) {
    if (pool.stopped()) break;
    await pool.canaryDue(plan.phase);
    group.forEach(() => {
      pool.inFlight.enter();
    });
    const sent = await sendGroup(group, pool, sender);
    group.forEach(() => {
      pool.inFlight.leave();
    });
    group.forEach((item, i) => {
      pool.record(plan, item, sent[i] ?? []);
      pool.progress(plan, ++done);
    });
  }
}
