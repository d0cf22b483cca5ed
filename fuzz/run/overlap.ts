/**
 * The overlap phase: several requests in flight at the server at once, which the other phases
 * never guarantee - against a fast target each request of the kept-alive pool arrives whole and is
 * answered before the next is read, whatever `--concurrency` says. Four shapes, each a few groups:
 * - **held**: a group of valid requests, each on a connection of its own with its head and half
 *   its body sent, the rest only once the whole group got that far (wire/held-exchange.ts);
 * - **burst**: a group of valid requests sent at once, each on a fresh connection;
 * - **pipelined**: a group of valid requests written back to back on one connection before any
 *   answer is read (RFC 9112, section 9.3.2: answered in order, one each; wire/pipelined-exchange.ts);
 * - **same-resource**: held groups of valid writes of one plant (the same id, other names and
 *   tags), the first creating it, the next replacing it: a check-then-insert race shows as a 5xx,
 *   and each answer must show one of the writes, never a mix (RequestCase.rivals, `echo`); then,
 *   where the contract links the create to a read (or has a collection/item pattern), a **read**
 *   alone: it answers one of the last group's writes (LinkStep.alternatives, `resource-available`).
 * Every request is valid, so rule 1 holds for each: a 503 ("busy"), a 409 or a broken connection
 * is a finding of `accepts-valid` or `no-server-error`, as anywhere else.
 * Bounded: a fixed number of groups, each exchange within the run's timeout.
 */
import { overlapCases, readAfterCase, sameResourceCases } from '../generation/overlap.js';
import type { PipelinedResult } from '../wire/pipelined-exchange.js';
import type { HttpOutcome, RequestCase } from '../../oracle/index.js';
import type { QualifiedOptions } from './options.js';
import type { PhasePlan, PlanItem } from './plan.js';
import type { RunExchange } from './tally.js';
import type { KeyedItem } from './exclusion.js';
import type { PoolParts } from './worker-pool.js';

/** How a group goes to the server (see above); `same-resource` groups are held, the `read` after them goes alone. */
export type OverlapShape = 'held' | 'burst' | 'pipelined' | 'same-resource' | 'read';

export interface ShapeSpec {
  readonly shape: OverlapShape;
  readonly groups: number;
  /** Requests in each group. */
  readonly size: number;
}

/**
 * The phase's groups, in the order they are sent. Held groups of eight, as many connections at
 * once as a burst: each group's hold (HOLD_MS) is time the engine only waits, so the held
 * requests go in three holds, not six of four.
 */
export const OVERLAP_SHAPES: readonly ShapeSpec[] = [
  { shape: 'held', groups: 3, size: 8 },
  { shape: 'burst', groups: 2, size: 8 },
  { shape: 'pipelined', groups: 2, size: 3 },
  // Last: their requests follow the distinct plants of the others.
  { shape: 'same-resource', groups: 2, size: 4 },
  { shape: 'read', groups: 1, size: 1 },
];

/** Requests of the phase (the canary's readings besides). */
export const OVERLAP_REQUESTS = OVERLAP_SHAPES.reduce((sum, { groups, size }) => sum + groups * size, 0);

/** The group a request of the phase belongs to: its shape, and the group's number in the phase. */
function groupOf(index: number): { readonly shape: OverlapShape; readonly group: number } {
  let first = 0;
  let group = 0;
  for (const spec of OVERLAP_SHAPES) {
    const count = spec.groups * spec.size;
    if (index < first + count) return { shape: spec.shape, group: group + Math.floor((index - first) / spec.size) };
    first += count;
    group += spec.groups;
  }
  return { shape: 'burst', group };
}

export function overlapPlan(options: Pick<QualifiedOptions, 'contract' | 'token' | 'profile' | 'seed' | 'credentials'>): PhasePlan {
  const sameResource = OVERLAP_SHAPES.find((spec) => spec.shape === 'same-resource') ?? { groups: 0, size: 0 };
  const distinct = OVERLAP_SHAPES.filter((spec) => spec.shape === 'held' || spec.shape === 'burst' || spec.shape === 'pipelined').reduce((sum, { groups, size }) => sum + groups * size, 0);
  const writes = sameResourceCases(options.contract, options, sameResource.groups, sameResource.size);
  const read = readAfterCase(options.contract, options, writes.slice(-sameResource.size));
  const cases = [...overlapCases(options.contract, options, distinct), ...writes, ...(read === undefined ? [] : [read])];
  let at = 0;
  // Every request goes on a connection of its own; a replay sends it so too (alone). Each carries
  // its group's shape as a tag (`overlap:pipelined`), which the map's rows name.
  const itemAt = (index: number): PlanItem | undefined => {
    const request = cases[index];
    return request === undefined ? undefined : { index, request: { ...request, tags: [...(request.tags ?? []), `overlap:${groupOf(index).shape}`] }, fresh: true };
  };
  return { phase: 'overlap', total: () => cases.length, next: () => itemAt(at++), caseAt: itemAt };
}

/** How the phase sends: a held group's and a pipeline's outcomes in order, and one request judged. */
export interface OverlapSender {
  held(requests: readonly RequestCase[]): Promise<readonly HttpOutcome[]>;
  pipelined(requests: readonly RequestCase[]): Promise<readonly PipelinedResult[]>;
  judge(request: RequestCase, outcome: HttpOutcome, startedMs: number): RunExchange;
  now(): number;
}

/** The plan's items in their groups, none keyed: a group's writes of one plant are meant to be in flight together (exclusion.ts). */
function groupsOf(plan: PhasePlan): KeyedItem[][] {
  const groups = new Map<number, KeyedItem[]>();
  for (let next = plan.next(); next !== undefined; next = plan.next()) {
    const { group } = groupOf(next.index);
    const items = groups.get(group) ?? [];
    items.push({ ...next, key: undefined });
    groups.set(group, items);
  }
  return [...groups.values()];
}

/** Outcomes in the order of the group's items, each judged; one without an answer is sent again alone. */
async function judged(group: readonly KeyedItem[], results: readonly PipelinedResult[], pool: PoolParts, sender: OverlapSender, startedMs: number): Promise<RunExchange[][]> {
  return Promise.all(
    group.map((item, i) => {
      const result = results[i] ?? 'unanswered';
      return result === 'unanswered' ? pool.send(item) : Promise.resolve([sender.judge(item.request, result, startedMs)]);
    }),
  );
}

async function sendGroup(group: readonly KeyedItem[], pool: PoolParts, sender: OverlapSender): Promise<RunExchange[][]> {
  const shape = groupOf(group[0]?.index ?? 0).shape;
  if (shape === 'burst' || shape === 'read') return Promise.all(group.map((item) => pool.send(item)));
  const startedMs = sender.now();
  const requests = group.map((item) => item.request);
  // A pipeline's requests the server closed on before answering are sent again alone (RFC 9112, section 9.3.2).
  return judged(group, await (shape === 'pipelined' ? sender.pipelined(requests) : sender.held(requests)), pool, sender, startedMs);
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
