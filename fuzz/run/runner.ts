/**
 * The runner: sends a run's requests to a target over real HTTP with bounded concurrency, judges
 * every exchange with every check of the registry, judges the run as a whole with the run checks,
 * then shrinks the first finding of each check to a minimal request.
 *
 * A run has phases, in order:
 * - **coverage**: every kind's deterministic requests (kinds/), the same list whatever the seed:
 *   each edge and each variant the engine knows is sent once in every run;
 * - **capacity**: thousands of distinct small valid plants (capacity.ts), one in eight on a
 *   connection of its own, within a time budget, then the earliest tenth of them replaced;
 * - **random**: `runs` requests generated from the seed by fast-check, each kind by its weight -
 *   against a store that now holds thousands of plants - and for `durationMs` at least, if set;
 * - **stateful**: sequences along the contract's links (create, then read; delete or replace,
 *   then read), drawn from the seed, where the contract has links to walk (stateful-plan.ts);
 * - **overlap**: valid requests held in flight at the server together (overlap.ts).
 * Through all of them a **canary** (the same valid request) is sent at intervals, alone, a few
 * times in a row; its fastest time is one reading of the target's speed (checks/degradation.ts).
 *
 * Composed of parts, each in its own file: options.ts (qualified options), phases.ts with plan.ts
 * and capacity-plan.ts (the phases' cases), worker-pool.ts with exclusion.ts, canary.ts, execute.ts
 * and late-bytes.ts (sending and judging), tally.ts (the counts, written once), run-checks.ts,
 * findings.ts with shrink.ts, and record.ts with summaries.ts and reported.ts (the record of the
 * run, which reports/ formats). Data flows one way: options → plans → pool → tally → run checks →
 * findings → record.
 *
 * Reproducible: the same seed sends the same requests (fast-check's `sample` and `check` draw the
 * same values from a seed; a random-phase finding is replayed and shrunk from its run index with
 * `path`). Coverage and capacity requests are small and name their one variant already: they are
 * replayed to see whether they fail again, not shrunk.
 *
 * Memory stays flat for any length of run: per-check counts, the first finding of each check,
 * and a timeline of bounded size (timeline.ts).
 */
import { performance } from 'node:perf_hooks';
import { capacityCases, type CapacityCases } from '../generation/capacity.js';
import { runChecks, type CheckContext, type Phase } from '../../oracle/index.js';
import { sendHeldTogether } from '../wire/held-exchange.js';
import { sendPipelined } from '../wire/pipelined-exchange.js';
import { createHttpClient, type HttpClient } from '../wire/http-client.js';
import { Canary, InFlight, tagged, type ControlSender } from './canary.js';
import { startControl } from './control.js';
import { writtenResource } from './exclusion.js';
import { Executor } from './execute.js';
import { reportFindings } from './findings.js';
import { LateBytesJudge, type ExchangeJudge } from './late-bytes.js';
import { qualify, type ConformanceOptions, type QualifiedOptions } from './options.js';
import { runOverlap, type OverlapSender } from './overlap.js';
import { planPhases } from './phases.js';
import type { PhasePlan, PlanItem } from './plan.js';
import { reachTarget } from './reachable.js';
import { credentialSecrets } from './credentials.js';
import type { Report } from './record.js';
import { judgeRun } from './run-checks.js';
import { reportOf } from './summaries.js';
import { Tally, type RunExchange, type Place } from './tally.js';
import { runPhase, type PoolParts } from './worker-pool.js';

export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const qualified = qualify(options);
  // The canary's control (control.ts), started first: its process starts while this one plans.
  const control = startControl();
  try {
    return await runStarted(qualified, started, control.sender);
  } finally {
    await control.close();
  }
}

/** The run once its control is starting: plans, the phases, the run checks, shrinking, the report. */
async function runStarted(qualified: QualifiedOptions, started: number, control: ControlSender): Promise<Report> {
  const { contract, profile } = qualified;
  const capacity = capacityCases(contract, { token: qualified.token, profile, target: qualified.capacityTarget, credentials: qualified.credentials });
  const tally = new Tally(qualified, capacity.target);
  const plans = planPhases(qualified, capacity, tally.capacity);
  const context: CheckContext = { contract, profile };
  await reachTarget(qualified.base, qualified.timeoutMs);
  const judge: ExchangeJudge = (request, outcome) => runChecks(request, outcome, contract, { profile });
  const late = new LateBytesJudge(judge, tally);
  const client: HttpClient = createHttpClient(qualified.base, {
    concurrency: qualified.concurrency,
    timeoutMs: qualified.timeoutMs,
    maxResponseBytes: qualified.maxResponseBytes,
    onLateBytes: (bytes) => {
      late.onLateBytes(bytes);
    },
  });
  try {
    const executor = new Executor(client, judge, late, started);
    const checkingStarted = performance.now();
    const overlap: OverlapSender = {
      held: (requests) => sendHeldTogether(client.baseUrl, requests, qualified),
      pipelined: (requests) => sendPipelined(client.baseUrl, requests, qualified),
      judge: (request, outcome, startedMs) => ({ request, outcome, findings: judge(request, outcome), startedMs, fresh: true }),
      now: () => performance.now() - started,
    };
    await runPhases(qualified, plans, { tally, late, executor, started, capacity, overlap, control });
    const checkingMs = performance.now() - checkingStarted;
    // The run as a whole: run checks see the timeline's record.
    const run = tally.timeline.record(qualified.maxResponseTimeMs);
    const runFindings = judgeRun(run, context, tally);
    // Shrinking: the first finding of each check and severity, replayed from its phase and index.
    const deadline = performance.now() + qualified.shrinkTimeMs;
    const findings = await reportFindings({
      seed: qualified.seed,
      deadline,
      execute: (request, fresh) => executor.execute(request, fresh),
      plans,
      tally,
      runFindings,
      run,
      context,
      base: client.baseUrl,
      token: qualified.token,
      secrets: credentialSecrets(contract, qualified.credentials),
      onProgress: qualified.onProgress,
    });
    return reportOf(qualified, tally, plans, run, findings, { started, checkingMs, capacityTarget: capacity.target });
  } finally {
    client.close();
  }
}

interface PhaseParts {
  readonly tally: Tally;
  readonly late: LateBytesJudge;
  readonly executor: Executor;
  /** When the run began (performance.now()). */
  readonly started: number;
  /** The capacity phase's cases: the canary's request, the plant stored last, other clients. */
  readonly capacity: CapacityCases;
  readonly overlap: OverlapSender;
  readonly control: ControlSender;
}

/** The phases in order, with a canary reading as each begins and one after the last request, so that its series spans the run and every phase. */
async function runPhases(options: QualifiedOptions, plans: readonly PhasePlan[], parts: PhaseParts): Promise<void> {
  const { tally, late, executor, started } = parts;
  const orderOf = (phase: Phase): number => plans.findIndex((p) => p.phase === phase);
  const record = (place: Place, exchanges: readonly RunExchange[], probe?: 'canary'): void => {
    late.recordedAt(exchanges, place);
    tally.record(place, exchanges, probe);
  };
  const inFlight = new InFlight();
  const canary = new Canary({
    item: { index: -1, request: tagged(parts.capacity.canary, 'growth:canary'), fresh: false },
    intervalMs: options.canaryIntervalMs,
    inFlight,
    tally,
    started,
    send: (item) => executor.exchange(item.request, item.fresh),
    record,
    orderOf,
    control: parts.control,
    newest: (phase) => newestStored(parts.capacity, tally, phase),
    ...(parts.capacity.otherClient === undefined ? {} : { otherClient: parts.capacity.otherClient }),
  });
  const pool: PoolParts = {
    concurrency: options.concurrency,
    inFlight,
    keyOf: (request) => writtenResource(options.contract, request),
    stopped: () => tally.stoppedEarly !== undefined,
    canaryDue: (phase) => canary.due(phase),
    send: (item) => executor.execute(item.request, item.fresh),
    record: (plan, item, exchanges) => {
      record({ phase: plan.phase, order: orderOf(plan.phase), item }, exchanges);
    },
    progress: (plan, done) => options.onProgress?.({ phase: plan.phase, done, total: plan.total(), findings: tally.findings }),
  };
  for (const plan of plans) {
    if (tally.stoppedEarly !== undefined) break;
    // A reading as each phase begins: every phase has one, however short it runs against the
    // interval on a loaded machine (the rounds in between come when they are due).
    await canary.read(plan.phase);
    const began = performance.now();
    const before = tally.requests;
    await (plan.phase === 'overlap' ? runOverlap(plan, pool, parts.overlap) : runPhase(plan, pool));
    tally.phases[plan.phase] = { requests: tally.requests - before, startedMs: began - started, durationMs: performance.now() - began };
  }
  const lastPhase = plans[plans.length - 1]?.phase;
  if (lastPhase !== undefined && tally.stoppedEarly === undefined) await canary.read(lastPhase);
}

/** The canary's entries probe during the capacity phase: a request about the plant stored last (its read where the contract has one, else its create again), and the plants stored. */
function newestStored(cases: CapacityCases, tally: Tally, phase: Phase): { readonly item: PlanItem; readonly holds: number } | undefined {
  const last = tally.capacity.lastStored;
  if (phase !== 'capacity' || last === undefined) return undefined;
  const request = cases.readBack === undefined ? cases.fill(last) : cases.readBack(last);
  return { item: { index: -1, request, fresh: false }, holds: tally.capacity.stored };
}

export { CANARY_SENDS } from './canary.js';
export { DEFAULT_CANARY_INTERVAL_MS, DEFAULT_MAX_TIMEOUTS, DEFAULT_SHRINK_TIME_MS, randomSeed, type ConformanceOptions, type Progress } from './options.js';
export { TargetUnreachableError } from './reachable.js';
export type { CapacitySummary, CheckSummary, DegradationSummary, GrowthSummary, PhaseSummary, Report, ReportedFinding, ResponseTimeSummary } from './record.js';
