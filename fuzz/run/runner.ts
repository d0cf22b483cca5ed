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
 *   against a store that now holds thousands of plants - and for `durationMs` at least, if set.
 * Through all of them a **canary** (the same valid request) is sent at intervals, alone, a few
 * times in a row; its fastest time is one reading of the target's speed (checks/degradation.ts).
 *
 * Reproducible: the same seed sends the same requests (fast-check's `sample` and `check` draw the
 * same values from a seed; a random-phase finding is replayed and shrunk from its run index with
 * `path`). Coverage and capacity requests are small and name their one variant already: they are
 * replayed to see whether they fail again, not shrunk.
 *
 * Memory stays flat for any length of run: per-check counts, the first finding of each check,
 * and a timeline of bounded size (timeline.ts).
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, type Contract } from '../../src/openapi/index.js';
import { CAPACITY_FLOOR, capacityCases, DEFAULT_CAPACITY, DEFAULT_CAPACITY_BUDGET_MS, FLOOR_LIMIT_MS, REPLACED_SHARE, type CapacityCases } from '../capacity.js';
import {
  applicableChecks,
  canaryTrend,
  CHECK_NAMES,
  checkNamed,
  decodeJson,
  DEFAULT_MAX_RESPONSE_TIME_MS,
  RUN_CHECKS,
  responseTimeBound,
  runChecks,
  type CanaryReading,
  type CanaryTrend,
  type CheckName,
  type RunRecord,
  type TimedExchange,
} from '../checks/index.js';
import { createHttpClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, parseBaseUrl, type HttpClient, type LateBytes } from '../wire/http-client.js';
import { coverageCases, KIND_NAMES, requestArbitrary } from '../kinds/index.js';
import { reportedOutcome, reportedRequest, toCurl, type ReportedOutcome, type ReportedRequest } from '../reports/text.js';
import { round } from '../statistics.js';
import { RunTimeline, SLOWEST_KEPT, type LatencySummary } from '../timeline.js';
import { PHASES, type Finding, type HttpOutcome, type Phase, type Profile, type RequestCase, type Severity } from '../types.js';

/**
 * Requests in a default run's random phase. A fault that shows on one request in 40 is missed by
 * 1000 independent requests with probability (39/40)^1000 ≈ 1e-11; one that shows on one *valid*
 * request in 40 (400 of them) with probability ≈ 4e-5.
 */
export const DEFAULT_RUNS = 1000;
export const DEFAULT_CONCURRENCY = 8;
/** Cases generated at a time. */
const CHUNK = 250;
/** Time spent shrinking, all findings together; a hanging target makes every failing step cost a timeout. */
export const DEFAULT_SHRINK_TIME_MS = 20_000;
/** After this many timeouts no new requests are started: the target hangs, that is the finding. */
export const DEFAULT_MAX_TIMEOUTS = 3;
/** Shrinking a finding stops after this many timed-out steps. */
const MAX_SHRINK_TIMEOUTS = 3;
/** Sends of the canary per reading; the reading is the fastest. */
export const CANARY_SENDS = 5;
/**
 * Time between two readings of the canary, at least: about 40 in a default run against a local
 * server. Against a slow target it is five times what a reading took, so the canary never costs
 * more than a sixth of the run.
 */
export const DEFAULT_CANARY_INTERVAL_MS = 150;
/**
 * A run check's findings about single exchanges: this many candidates (all the slowest the
 * timeline keeps) are replayed, slowest first, to find one that shows it again. At the default
 * concurrency the requests queued behind a slow one can each be slower still, so the slow one may
 * rank below its victims; their replays are quick, so trying them all costs little.
 */
const RUN_FINDING_CANDIDATES = SLOWEST_KEPT;
/** Slowest responses in a report. */
const SLOWEST_REPORTED = 10;
/** How long a replayed request's connection is given to deliver bytes after its answer (delayed acknowledgements take 40 ms). */
const LATE_GRACE_MS = 100;

export interface ConformanceOptions {
  /** The implementation under test, e.g. http://127.0.0.1:3000 (a path prefix is kept: http://host/api). */
  readonly baseUrl: string;
  /** A bearer token the target accepts. Required for the `reference` profile; any well-formed one is made up under `mock`. */
  readonly token?: string;
  readonly profile?: Profile;
  /** Requests of the random phase (not counting the setup requests of repeated ids). Default 1000; with `durationMs`, the least. */
  readonly runs?: number;
  /** The random phase goes on generating requests until it has run this long (and sent `runs`): an endurance run. */
  readonly durationMs?: number;
  /** The seed (a 32-bit integer); random by default. Print it: it replays the run. */
  readonly seed?: number;
  /** Deadline per exchange. Default 5000. */
  readonly timeoutMs?: number;
  /** Requests in flight at most. Default 8. */
  readonly concurrency?: number;
  readonly maxResponseBytes?: number;
  /** The absolute part of the response-time bound (see checks/response-time.ts). Default 1000. */
  readonly maxResponseTimeMs?: number;
  /** Distinct plants the capacity phase stores. Default 5000. */
  readonly capacity?: number;
  /** The capacity phase starts no new plant after this long once it has sent 2000. Default 5000. */
  readonly capacityBudgetMs?: number;
  /** Time between two readings of the canary, at least. Default 150. */
  readonly canaryIntervalMs?: number;
  /** Budget for shrinking all findings. Default 20 s. */
  readonly shrinkTimeMs?: number;
  /** Stop starting requests after this many timeouts. Default 3. */
  readonly maxTimeouts?: number;
  /** Kinds of request to send in the coverage and random phases (all by default; see kinds/index.ts). */
  readonly kinds?: readonly string[];
  /** Phases to run (all by default). */
  readonly phases?: readonly Phase[];
  readonly contract?: Contract;
  readonly onProgress?: (progress: Progress) => void;
}

export interface Progress {
  readonly phase: Phase | 'shrinking';
  readonly done: number;
  readonly total: number;
  /** Findings so far, failures and warnings together. */
  readonly findings: number;
}

export interface CheckSummary {
  /** Exchanges the check had something to say about (e.g. `echo`: valid requests that succeeded; `degradation`: canary readings). */
  readonly requests: number;
  /** Exchanges (or, for a run check, verdicts) with a failure of this check. */
  readonly failures: number;
  /** Exchanges (or verdicts) with a warning of this check. */
  readonly warnings: number;
}

/** A finding as reported: the first one of its check and severity, with its request shrunk where it could be. */
export interface ReportedFinding {
  readonly check: CheckName;
  readonly severity: Severity;
  /** The finding, for the minimal request. */
  readonly message: string;
  /** The phase whose request showed it first; absent for a finding about the run as a whole. */
  readonly phase?: Phase;
  /**
   * The minimal request found, and the requests sent before it in the same case (a repeated id).
   * Absent, with `curl` and `response`, for a run check's finding about the run as a whole.
   */
  readonly request?: ReportedRequest;
  readonly setup: readonly ReportedRequest[];
  /** The minimal request as a shell command (with `$TOKEN` for the token). */
  readonly curl?: string;
  readonly response?: ReportedOutcome;
  /** Whether the request went on a connection of its own (as curl sends it), not a kept-alive one. */
  readonly fresh?: boolean;
  /** Exchanges of the run with a finding of this check and severity. */
  readonly occurrences: number;
  /** Whether replaying the first request that showed it showed it again (not: intermittent, or it depends on earlier requests). */
  readonly reproduced: boolean;
  /** Successful shrinking steps from the first request to this one (0 for a coverage request, which is not shrunk). */
  readonly shrinks: number;
  readonly seed: number;
  /** For a random-phase finding, fast-check's counterexample path: with the seed, `fc.check(..., { seed, path })` replays it. */
  readonly path?: string;
}

export interface PhaseSummary {
  /** Exchanges of the phase, setup requests and canaries included. */
  readonly requests: number;
  /** When it began, since the run began. */
  readonly startedMs: number;
  readonly durationMs: number;
}

/** What the capacity phase did. */
export interface CapacitySummary {
  /** Plants it was to store. */
  readonly target: number;
  /** Plants sent (fewer than the target when the budget ran out first). */
  readonly sent: number;
  /** Plants answered with a success: stored, on a target that stores (under the mock profile: only answered). */
  readonly stored: number;
  /** Plants answered otherwise, or not at all. */
  readonly refused: number;
  /** Replacements of the earliest plants sent after the fill, and answered with a success. */
  readonly replacementsSent: number;
  readonly replaced: number;
  readonly budgetMs: number;
  /** Whether the budget ended the fill before the target. */
  readonly budgetHit: boolean;
  /** Why the fill stopped before the target and the budget, if it did (the target refused plant after plant). */
  readonly gaveUp?: string;
  /** Whether the target is expected to store what it is sent (false under the mock profile). */
  readonly stores: boolean;
}

/** Response times: the bound the run used, the slowest answers, the histogram and the series. */
export interface ResponseTimeSummary extends LatencySummary {
  /** The bound of `response-time`: the larger of `maxResponseTimeMs` and `factor` × the median. */
  readonly boundMs: number;
  readonly maxResponseTimeMs: number;
  readonly factor: number;
  /** Answers slower than the bound during the run whose requests were not, replayed alone: no finding. */
  readonly unconfirmed: number;
  /** The slowest answers, slowest first. */
  readonly slowest: readonly TimedExchange[];
}

/** The canary's readings and what `degradation` made of them. */
export interface DegradationSummary {
  /** Time between two readings, at least (five times a reading's cost against a slow target). */
  readonly intervalMs: number;
  readonly sends: number;
  readonly readings: readonly CanaryReading[];
  /** Absent with too few readings to judge. */
  readonly trend?: CanaryTrend;
}

export interface Report {
  readonly target: string;
  readonly contract: { readonly title: string; readonly version: string };
  readonly profile: Profile;
  readonly seed: number;
  /** Requests generated for the random phase (more than asked for in a `durationMs` run: with --runs, they replay it all). */
  readonly runs: number;
  /** Exchanges of every phase (setup requests and canaries included; shrinking not). */
  readonly requests: number;
  /** Exchanges per request kind (the canary's aside). */
  readonly kinds: Readonly<Record<string, number>>;
  readonly phases: Readonly<Partial<Record<Phase, PhaseSummary>>>;
  /** Wall time of the phases. */
  readonly checkingMs: number;
  /** Wall time of the whole run, shrinking included. */
  readonly durationMs: number;
  /** Exchanges sent and checked per second during the phases. */
  readonly requestsPerSecond: number;
  /** Connections opened for one request each (`Connection: close`), besides the kept-alive pool of `concurrency` connections. */
  readonly freshConnections: number;
  /** Absent when the capacity phase did not run. */
  readonly capacity?: CapacitySummary;
  readonly responseTimes: ResponseTimeSummary;
  readonly degradation: DegradationSummary;
  readonly checks: Readonly<Record<CheckName, CheckSummary>>;
  /** One per check that failed, shrunk, in check order. */
  readonly failures: readonly ReportedFinding[];
  /** One per check that warned (and did not fail), in check order: hazards the contract allows. */
  readonly warnings: readonly ReportedFinding[];
  /** Why the run ended before every request was sent, if it did. */
  readonly stoppedEarly?: string;
  /** No failure and every request sent. Warnings do not count (the CLI's `--strict` makes them). */
  readonly passed: boolean;
}

/** The target did not accept a connection at all (exit code 2 in the CLI, not a finding). */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

/** Random 32-bit seed (fast-check takes a 32-bit integer). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

/** A well-formed bearer token for targets that accept any (the mock). */
const ANY_TOKEN = 'plant-store-conform';

interface Exchange {
  readonly request: RequestCase;
  readonly outcome: HttpOutcome;
  readonly findings: readonly Finding[];
  /** Since the run began. */
  readonly startedMs: number;
  readonly fresh: boolean;
}

interface PlanItem {
  readonly index: number;
  readonly request: RequestCase;
  readonly fresh: boolean;
}

/** The cases of one phase: pulled one at a time; any one can be made again from its index. */
interface PhasePlan {
  readonly phase: Phase;
  /** Cases planned so far (a `durationMs` run plans more as it goes). */
  total(): number;
  next(): PlanItem | undefined;
  caseAt(index: number): PlanItem | undefined;
  /** For the random phase: the arbitrary behind `caseAt`, to shrink with. */
  readonly arbitrary?: fc.Arbitrary<RequestCase>;
}

/** TCP reachability of the target, before any request: refused or unknown hosts are a usage problem. */
function probe(url: URL, timeoutMs: number): Promise<void> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (message: string): void => {
      socket.destroy();
      reject(new TargetUnreachableError(`cannot reach ${url.origin}: ${message}`));
    };
    socket.setTimeout(timeoutMs, () => {
      fail(`no connection within ${timeoutMs} ms`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      fail(error.code ?? error.message);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}

/**
 * The exact integers of a valid body's integer properties: two requests with the same key are
 * never in flight together, so that `echo` never sees another request's write. (Invalid requests
 * store nothing on a correct target.)
 */
function resourceKey(request: RequestCase, integerKeys: readonly string[]): string | undefined {
  if (integerKeys.length === 0 || request.content !== 'valid' || request.credentials !== 'valid') return undefined;
  const parsed = decodeJson(request.body);
  if (!('value' in parsed) || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  const parts = integerKeys.map((k) => {
    const v = value[k];
    return isLosslessNumber(v) ? String(exactInteger(v) ?? v.value) : '';
  });
  // The same resource whatever query string the request carries (an extra of valid requests).
  return parts.every((p) => p === '') ? undefined : `${request.path.split('?', 1)[0] ?? ''} ${parts.join(' ')}`;
}

function listPlan(phase: Phase, cases: readonly RequestCase[]): PhasePlan {
  let at = 0;
  const itemAt = (index: number): PlanItem | undefined => {
    const request = cases[index];
    return request === undefined ? undefined : { index, request, fresh: false };
  };
  return {
    phase,
    total: () => cases.length,
    next: () => itemAt(at++),
    caseAt: itemAt,
  };
}

/** Counts of the capacity phase, kept as its exchanges complete. */
interface CapacityCounts {
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
const GIVE_UP_AFTER = 100;

/**
 * The fill (indexes 0 to target − 1) until the target or the budget (but not before `floor`,
 * for FLOOR_LIMIT_MS at most) or GIVE_UP_AFTER refusals in a row, then the replacements
 * (target + i) of the earliest plants, if `replace`.
 */
function capacityPlan(cases: CapacityCases, budgetMs: number, counts: CapacityCounts, floor: number, replace: boolean): PhasePlan {
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

function randomPlan(arbitrary: fc.Arbitrary<RequestCase>, seed: number, runs: number, durationMs: number | undefined): PhasePlan {
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

export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const contract = options.contract ?? loadContract();
  const profile = options.profile ?? 'reference';
  const base = parseBaseUrl(options.baseUrl);
  const token = options.token ?? (profile === 'mock' ? ANY_TOKEN : undefined);
  if (token === undefined) throw new TypeError('a bearer token the target accepts is needed (the reference profile sends valid requests)');
  const runs = options.runs ?? DEFAULT_RUNS;
  if (!Number.isSafeInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  const positive = (name: string, value: number | undefined): void => {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a number of at least 0, got ${value}`);
  };
  positive('durationMs', options.durationMs);
  positive('capacity', options.capacity);
  positive('capacityBudgetMs', options.capacityBudgetMs);
  positive('maxResponseTimeMs', options.maxResponseTimeMs);
  positive('canaryIntervalMs', options.canaryIntervalMs);
  const seed = options.seed ?? randomSeed();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const maxTimeouts = options.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS;
  const maxResponseTimeMs = options.maxResponseTimeMs ?? DEFAULT_MAX_RESPONSE_TIME_MS;
  const capacityTarget = Math.floor(options.capacity ?? DEFAULT_CAPACITY);
  const capacityBudgetMs = options.capacityBudgetMs ?? DEFAULT_CAPACITY_BUDGET_MS;
  const phases = PHASES.filter((phase) => (options.phases ?? PHASES).includes(phase) && (phase !== 'capacity' || capacityTarget > 0));
  const generatorOptions = { token, profile, ...(options.kinds ? { kinds: options.kinds } : {}) };
  const arbitrary = requestArbitrary(contract, generatorOptions);
  const capacity = capacityCases(contract, { token, profile, target: capacityTarget });
  const capacityCounts: CapacityCounts = { sent: 0, stored: 0, refused: 0, streak: 0, replacementsSent: 0, replaced: 0, budgetHit: false };
  const plans: PhasePlan[] = phases.map((phase) => {
    if (phase === 'coverage') return listPlan('coverage', coverageCases(contract, generatorOptions));
    // A mock stores nothing: its capacity phase is a load within the budget, with nothing to replace.
    if (phase === 'capacity') return capacityPlan(capacity, capacityBudgetMs, capacityCounts, profile === 'mock' ? 0 : CAPACITY_FLOOR, profile !== 'mock');
    return randomPlan(arbitrary, seed, runs, options.durationMs);
  });
  const canaryIntervalMs = options.canaryIntervalMs ?? DEFAULT_CANARY_INTERVAL_MS;
  const integerKeys = [
    ...new Set(contract.operations.flatMap((o) => [...(o.requestBody?.shape.properties ?? [])].filter(([, s]) => contract.resolve(s).type === 'integer').map(([k]) => k))),
  ];
  const checkContext = { profile };

  await probe(base, timeoutMs);
  // Bytes a connection got after an exchange's outcome was handed on (a second answer, the rest of
  // a body) belong to that exchange: it is judged again with them (see onLateBytes below).
  let lateBytes: ((late: LateBytes) => void) | undefined;
  const client: HttpClient = createHttpClient(base, {
    concurrency,
    timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    onLateBytes: (late) => lateBytes?.(late),
  });
  try {
    /** Where each outcome's exchange sits, for late bytes; and where each case was recorded. */
    const placeOf = new WeakMap<HttpOutcome, { readonly exchanges: Exchange[]; readonly at: number }>();
    const recordedAt = new WeakMap<readonly Exchange[], { readonly phase: Phase; readonly item: PlanItem }>();
    const exchange = async (request: RequestCase, fresh: boolean): Promise<Exchange> => {
      const startedMs = performance.now() - started;
      const outcome = await client.send(request, fresh ? { fresh } : {});
      return { request, outcome, findings: runChecks(request, outcome, contract, checkContext), startedMs, fresh };
    };
    const execute = async (request: RequestCase, fresh = false): Promise<Exchange[]> => {
      const exchanges: Exchange[] = [];
      for (const step of [...request.setup, request]) {
        const sent = await exchange(step, fresh);
        placeOf.set(sent.outcome, { exchanges, at: exchanges.length });
        exchanges.push(sent);
      }
      return exchanges;
    };

    // Only counts, the bounded timeline and the first finding of each check and severity are kept: memory stays flat for any runs.
    const checks = Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 0, failures: 0, warnings: 0 }])) as Record<CheckName, { requests: number; failures: number; warnings: number }>;
    const kinds: Record<string, number> = Object.fromEntries(KIND_NAMES.map((name) => [name, 0]));
    const phaseSummaries: Partial<Record<Phase, PhaseSummary>> = {};
    const timeline = new RunTimeline();
    type First = { readonly phase: Phase; readonly order: number; readonly index: number; readonly item: PlanItem; readonly exchanges: readonly Exchange[] };
    const firsts = new Map<string, First>();
    const keyOf = (check: string, severity: Severity): string => `${check} ${severity}`;
    const phaseOrder = (phase: Phase): number => plans.findIndex((p) => p.phase === phase);
    const noteFirst = (check: string, severity: Severity, candidate: First): void => {
      const known = firsts.get(keyOf(check, severity));
      if (!known || known.order > candidate.order || (known.order === candidate.order && known.index > candidate.index)) firsts.set(keyOf(check, severity), candidate);
    };
    let requests = 0;
    let freshConnections = 0;
    let findingCount = 0;
    let timeouts = 0;
    let stoppedEarly: string | undefined;
    const checkingStarted = performance.now();

    lateBytes = ({ after, outcome }) => {
      const place = placeOf.get(after);
      const exchange = place?.exchanges[place.at];
      if (place === undefined || exchange === undefined) return;
      const added = runChecks(exchange.request, outcome, contract, checkContext).filter((f) => !exchange.findings.some((g) => g.check === f.check && g.severity === f.severity));
      if (added.length === 0) return;
      place.exchanges[place.at] = { ...exchange, outcome, findings: [...exchange.findings, ...added] };
      // Not recorded yet: record() counts them with the rest.
      const where = recordedAt.get(place.exchanges);
      if (where === undefined) return;
      findingCount += added.length;
      for (const severity of ['failure', 'warning'] as const) {
        for (const check of new Set(added.filter((f) => f.severity === severity).map((f) => f.check as CheckName))) {
          checks[check][severity === 'failure' ? 'failures' : 'warnings']++;
          noteFirst(check, severity, { phase: where.phase, order: phaseOrder(where.phase), index: where.item.index, item: where.item, exchanges: place.exchanges });
        }
      }
    };

    const record = (phase: Phase, item: PlanItem, exchanges: readonly Exchange[], probe?: 'canary'): void => {
      recordedAt.set(exchanges, { phase, item });
      for (const exchange of exchanges) {
        requests++;
        if (exchange.fresh) freshConnections++;
        // The canary is counted apart (report.degradation): how often it is read depends on time, not on the seed.
        if (probe === undefined) kinds[exchange.request.kind] = (kinds[exchange.request.kind] ?? 0) + 1;
        for (const name of applicableChecks(exchange.request, exchange.outcome, contract, checkContext)) checks[name].requests++;
        // Counted per request: one response can break a check in more than one way.
        for (const severity of ['failure', 'warning'] as const) {
          for (const check of new Set(exchange.findings.filter((f) => f.severity === severity).map((f) => f.check as CheckName))) {
            checks[check][severity === 'failure' ? 'failures' : 'warnings']++;
            noteFirst(check, severity, { phase, order: phaseOrder(phase), index: item.index, item, exchanges });
          }
        }
        findingCount += exchange.findings.length;
        if (exchange.outcome.kind === 'failure' && exchange.outcome.failure === 'timeout') timeouts++;
        const status = exchange.outcome.kind === 'response' ? exchange.outcome.status : exchange.outcome.failure;
        timeline.add({
          phase,
          index: item.index,
          kind: exchange.request.kind,
          variant: exchange.request.variant,
          content: exchange.request.content,
          credentials: exchange.request.credentials,
          startedMs: exchange.startedMs,
          durationMs: exchange.outcome.durationMs,
          status,
          ...(exchange.fresh ? { fresh: true } : {}),
          ...(probe === undefined ? {} : { probe }),
        });
        if (phase === 'capacity' && probe === undefined) {
          const success = typeof status === 'number' && status >= 200 && status < 300;
          if (item.index >= capacity.target) capacityCounts.replaced += success ? 1 : 0;
          else if (success) {
            capacityCounts.stored++;
            capacityCounts.streak = 0;
          } else {
            capacityCounts.refused++;
            if (++capacityCounts.streak >= GIVE_UP_AFTER) capacityCounts.gaveUp ??= `${GIVE_UP_AFTER} plants in a row were refused`;
          }
        }
      }
      if (timeouts >= maxTimeouts) stoppedEarly ??= `the target timed out on ${timeouts} requests (${timeoutMs} ms each); no further requests were started`;
    };

    // The canary: sent alone (every worker waits), CANARY_SENDS times; its fastest answer is a reading.
    let inFlight = 0;
    let drained: (() => void) | undefined;
    let pause: Promise<void> | undefined;
    let lastCanary = 0;
    let canaryCost = 0;
    const canaryItem: PlanItem = { index: -1, request: capacity.canary, fresh: false };
    const readCanary = async (phase: Phase): Promise<void> => {
      const began = performance.now();
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      const startedMs = performance.now() - started;
      const afterExchanges = requests;
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < CANARY_SENDS && stoppedEarly === undefined; i++) {
        const sent = await exchange(capacity.canary, false);
        record(phase, canaryItem, [sent], 'canary');
        if (sent.outcome.kind === 'response') best = Math.min(best, sent.outcome.durationMs);
      }
      lastCanary = performance.now();
      canaryCost = lastCanary - began;
      if (Number.isFinite(best)) timeline.addCanary({ afterExchanges, startedMs, phase, durationMs: best, samples: CANARY_SENDS });
    };
    const canaryDue = (phase: Phase): Promise<void> | undefined => {
      if (pause === undefined && performance.now() - lastCanary >= Math.max(canaryIntervalMs, 5 * canaryCost) && stoppedEarly === undefined) {
        pause = readCanary(phase).finally(() => {
          pause = undefined;
        });
      }
      return pause;
    };

    // Every case of a phase, `concurrency` at a time, no two with the same id at once, pausing for the canary.
    const runPlan = async (plan: PhasePlan): Promise<void> => {
      const phaseStarted = performance.now();
      const requestsBefore = requests;
      const queue: (PlanItem & { key: string | undefined })[] = [];
      let exhausted = false;
      const refill = (): void => {
        while (!exhausted && queue.length < concurrency * 4) {
          const item = plan.next();
          if (item === undefined) exhausted = true;
          else queue.push({ ...item, key: resourceKey(item.request, integerKeys) });
        }
      };
      const busy = new Set<string>();
      let done = 0;
      // Workers waiting for an id in flight to be released; all are woken when any case completes.
      let waiting: (() => void)[] = [];
      const wakeAll = (): void => {
        const woken = waiting;
        waiting = [];
        for (const resume of woken) resume();
      };
      const next = (): (typeof queue)[number] | undefined => {
        refill();
        const at = queue.findIndex(({ key }) => key === undefined || !busy.has(key));
        return at === -1 ? undefined : queue.splice(at, 1)[0];
      };
      const worker = async (): Promise<void> => {
        while (stoppedEarly === undefined && !(exhausted && queue.length === 0)) {
          const paused = canaryDue(plan.phase);
          if (paused !== undefined) {
            await paused;
            continue;
          }
          const item = next();
          if (item === undefined) {
            if (exhausted && queue.length === 0) break;
            await new Promise<void>((resolve) => waiting.push(resolve));
            continue;
          }
          if (item.key !== undefined) busy.add(item.key);
          inFlight++;
          const exchanges = await execute(item.request, item.fresh);
          if (--inFlight === 0) drained?.();
          if (item.key !== undefined) busy.delete(item.key);
          record(plan.phase, item, exchanges);
          done++;
          options.onProgress?.({ phase: plan.phase, done, total: plan.total(), findings: findingCount });
          wakeAll();
        }
        wakeAll();
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, plan.total())) }, worker));
      phaseSummaries[plan.phase] = { requests: requests - requestsBefore, startedMs: phaseStarted - started, durationMs: performance.now() - phaseStarted };
    };

    // A reading before the first request and one after the last, so that the series spans the run.
    const firstPhase = plans[0]?.phase;
    if (firstPhase !== undefined) await readCanary(firstPhase);
    for (const plan of plans) {
      if (stoppedEarly !== undefined) break;
      await runPlan(plan);
    }
    const lastPhase = plans[plans.length - 1]?.phase;
    if (lastPhase !== undefined && stoppedEarly === undefined) await readCanary(lastPhase);
    const checkingMs = performance.now() - checkingStarted;

    // The run as a whole: run checks see the timeline.
    const run: RunRecord = timeline.record(maxResponseTimeMs);
    type RunFinding = { check: CheckName; severity: Severity; message: string; candidates: { phase: Phase; index: number; message: string; fresh: boolean }[] };
    const runVerdicts = new Map<string, RunFinding>();
    for (const check of RUN_CHECKS) {
      if (check.skippedUnder?.[profile] !== undefined) continue;
      checks[check.name].requests = check.looksAt(run);
      for (const verdict of check.judge(run, { contract, profile })) {
        checks[check.name][verdict.severity === 'failure' ? 'failures' : 'warnings']++;
        findingCount++;
        const key = keyOf(check.name, verdict.severity);
        const finding = runVerdicts.get(key) ?? { check: check.name, severity: verdict.severity, message: verdict.message, candidates: [] };
        runVerdicts.set(key, finding);
        const at = verdict.exchange;
        if (at && finding.candidates.length < RUN_FINDING_CANDIDATES) {
          const fresh = run.slowest.find((e) => e.phase === at.phase && e.index === at.index)?.fresh === true;
          finding.candidates.push({ phase: at.phase, index: at.index, message: verdict.message, fresh });
        }
      }
    }

    // Shrinking: the first finding of each check and severity, replayed from its phase and index.
    const shrinkDeadline = performance.now() + (options.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS);
    const reported: ReportedFinding[] = [];
    type Found = { exchanges: readonly Exchange[]; shrinks: number; path: string | undefined; reproduced: boolean; phase: Phase; message?: string };
    const minimal: Found[] = [];
    const findingKeys = CHECK_NAMES.flatMap((name) => (['failure', 'warning'] as const).map((severity) => ({ name, severity }))).filter(({ name, severity }) => firsts.has(keyOf(name, severity)) || runVerdicts.has(keyOf(name, severity)));

    /**
     * A random-phase request shrunk by fast-check, or any other replayed once. A candidate shows the
     * finding when `times` executions in a row all show it (twice for a check confirmed by replay:
     * a loaded machine stalls one answer in a thousand, the same request twice in a row, hardly).
     * With `grace`, a replay that does not show it waits LATE_GRACE_MS for late bytes first.
     */
    const minimise = async (first: { phase: Phase; item: PlanItem; exchanges?: readonly Exchange[] }, shows: (exchanges: readonly Exchange[]) => boolean, times = 1, grace = false): Promise<Found> => {
      const plan = plans.find((p) => p.phase === first.phase);
      let sent: Exchange[] | undefined;
      let timedOut = 0;
      /** The last execution's exchanges when every one of `times` showed it, undefined otherwise. */
      const attempt = async (request: RequestCase, fresh: boolean, waitForLate = false): Promise<Exchange[] | undefined> => {
        let exchanges: Exchange[] | undefined;
        for (let i = 0; i < times; i++) {
          exchanges = await execute(request, fresh);
          sent ??= exchanges;
          timedOut += exchanges.filter((e) => e.outcome.kind === 'failure' && e.outcome.failure === 'timeout').length;
          // Bytes a server sends after its answer (a second answer it holds back) are judged when they come.
          if (waitForLate && !shows(exchanges)) await new Promise((resolve) => setTimeout(resolve, LATE_GRACE_MS));
          if (!shows(exchanges)) return undefined;
        }
        return exchanges;
      };
      if (plan?.arbitrary !== undefined && first.item.index >= 0 && performance.now() < shrinkDeadline) {
        let last: Exchange[] | undefined;
        const property = fc.asyncProperty(plan.arbitrary, async (request) => {
          // Every step that hangs costs a whole timeout: after a few, shrinking stops where it is
          // (the remaining candidates count as passing, so fast-check keeps the last failure).
          if (timedOut >= MAX_SHRINK_TIMEOUTS) return true;
          const shown = await attempt(request, false);
          if (!shown) return true;
          last = shown;
          return false;
        });
        const remaining = Math.max(1, shrinkDeadline - performance.now());
        const details = await fc.check(property, { seed, path: String(first.item.index), numRuns: 1, plugins: [fc.interruptAfterTimeLimit(remaining)] });
        if (details.failed && last) return { exchanges: last, shrinks: details.numShrinks, path: details.counterexamplePath ?? String(first.item.index), reproduced: true, phase: first.phase };
        return { exchanges: first.exchanges ?? sent ?? [], shrinks: 0, path: String(first.item.index), reproduced: false, phase: first.phase };
      }
      // A replay confirms a run check's finding: it is sent even when the time for shrinking is over.
      const again = performance.now() < shrinkDeadline || first.exchanges === undefined ? await attempt(first.item.request, first.item.fresh, grace) : undefined;
      const reproduced = again !== undefined;
      return { exchanges: again ?? first.exchanges ?? sent ?? [], shrinks: 0, path: undefined, reproduced, phase: first.phase };
    };

    /** Verdicts of checks confirmed by replay that no replay confirmed, per check. */
    const unconfirmed: Partial<Record<CheckName, number>> = {};
    let shrunk = 0;
    for (const { name, severity } of findingKeys) {
      options.onProgress?.({ phase: 'shrinking', done: shrunk++, total: findingKeys.length, findings: findingCount });
      const check = checkNamed(name);
      const verdict = runVerdicts.get(keyOf(name, severity));
      const shows = (exchanges: readonly Exchange[]): boolean =>
        check.scope === 'exchange'
          ? exchanges.some((e) => e.findings.some((f) => f.check === name && f.severity === severity))
          : check.reproduces !== undefined && exchanges.some((e) => check.reproduces?.(e.request, e.outcome, run, { contract, profile }) === true);
      const first = firsts.get(keyOf(name, severity));
      let found: Found | undefined = minimal.find((m) => shows(m.exchanges));
      if (!found && first) {
        // A finding already shrunk for another check often shows this one too (a 500 is also undeclared): reuse it.
        found = await minimise(first, shows, 1, check.scope === 'exchange');
        minimal.push(found);
      }
      if (!found && verdict && verdict.candidates.length > 0) {
        // A run check's finding about single exchanges (a slow answer): the first candidate that shows it again
        // when replayed alone - the others may only have waited behind it.
        for (const candidate of verdict.candidates) {
          const item = plans.find((p) => p.phase === candidate.phase)?.caseAt(candidate.index);
          if (!item) continue;
          const attempt = await minimise({ phase: candidate.phase, item: { ...item, fresh: candidate.fresh } }, shows, check.scope === 'run' && check.confirmedByReplay === true ? 2 : 1);
          found ??= { ...attempt, message: candidate.message };
          if (attempt.reproduced) {
            found = { ...attempt, message: candidate.message };
            break;
          }
        }
        if (found?.reproduced === true) minimal.push(found);
        else if (check.scope === 'run' && check.confirmedByReplay === true) {
          // Not shown again by any replay alone: a moment of the run, not a finding (the report keeps the count).
          const counted = checks[name][severity === 'failure' ? 'failures' : 'warnings'];
          unconfirmed[name] = (unconfirmed[name] ?? 0) + counted;
          checks[name][severity === 'failure' ? 'failures' : 'warnings'] = 0;
          findingCount -= counted;
          continue;
        }
      }
      if (!found || found.exchanges.length === 0) {
        // A run check's finding about the run as a whole: nothing to replay.
        if (verdict) reported.push(runFinding(verdict.check, severity, verdict.message, checks, seed));
        continue;
      }
      const culprit =
        (check.scope === 'exchange'
          ? found.exchanges.find((e) => e.findings.some((f) => f.check === name && f.severity === severity))
          : found.exchanges.find((e) => check.reproduces?.(e.request, e.outcome, run, { contract, profile }) === true)) ?? found.exchanges[found.exchanges.length - 1];
      if (!culprit) continue;
      const before = found.exchanges.slice(0, found.exchanges.indexOf(culprit));
      const summary = checks[name];
      reported.push({
        check: name,
        severity,
        message:
          culprit.findings.find((f) => f.check === name && f.severity === severity)?.message ??
          (check.scope === 'run' && found.reproduced ? check.explain?.(culprit.request, culprit.outcome, run, { contract, profile }) : undefined) ??
          found.message ??
          verdict?.message ??
          '',
        phase: found.phase,
        request: reportedRequest(client.baseUrl, culprit.request, token),
        setup: before.map((e) => reportedRequest(client.baseUrl, e.request, token)),
        curl: [...before, culprit].map((e) => toCurl(client.baseUrl, e.request, token)).join('\n'),
        response: reportedOutcome(culprit.outcome),
        ...(culprit.fresh ? { fresh: true } : {}),
        occurrences: severity === 'failure' ? summary.failures : summary.warnings,
        reproduced: found.reproduced,
        shrinks: found.shrinks,
        seed,
        ...(found.path === undefined ? {} : { path: found.path }),
      });
    }

    const failures = reported.filter((f) => f.severity === 'failure');
    const failed = new Set(failures.map((f) => f.check));
    const bound = responseTimeBound(run);
    const trend = canaryTrend(run.canary);
    return {
      target: client.baseUrl.href,
      contract: { title: contract.title, version: contract.version },
      profile,
      seed,
      runs: plans.find((p) => p.phase === 'random')?.total() ?? runs,
      requests,
      kinds,
      phases: phaseSummaries,
      checkingMs,
      durationMs: performance.now() - started,
      requestsPerSecond: checkingMs > 0 ? (requests * 1000) / checkingMs : 0,
      freshConnections,
      ...(phases.includes('capacity')
        ? {
            capacity: {
              target: capacity.target,
              sent: capacityCounts.sent,
              stored: capacityCounts.stored,
              refused: capacityCounts.refused,
              replacementsSent: capacityCounts.replacementsSent,
              replaced: capacityCounts.replaced,
              budgetMs: capacityBudgetMs,
              budgetHit: capacityCounts.budgetHit,
              ...(capacityCounts.gaveUp === undefined ? {} : { gaveUp: capacityCounts.gaveUp }),
              stores: profile !== 'mock',
            },
          }
        : {}),
      responseTimes: {
        ...timeline.summary(),
        boundMs: round(bound.boundMs),
        maxResponseTimeMs: bound.maxResponseTimeMs,
        factor: bound.factor,
        unconfirmed: unconfirmed['response-time'] ?? 0,
        slowest: timeline.slowest(SLOWEST_REPORTED),
      },
      degradation: { intervalMs: canaryIntervalMs, sends: CANARY_SENDS, readings: run.canary, ...(trend === undefined ? {} : { trend }) },
      checks,
      failures,
      warnings: reported.filter((f) => f.severity === 'warning' && !failed.has(f.check)),
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
      passed: failures.length === 0 && stoppedEarly === undefined,
    };
  } finally {
    client.close();
  }
}

/** A run check's finding about the run as a whole: no request to show. */
function runFinding(check: CheckName, severity: Severity, message: string, checks: Readonly<Record<CheckName, CheckSummary>>, seed: number): ReportedFinding {
  return {
    check,
    severity,
    message,
    setup: [],
    occurrences: severity === 'failure' ? checks[check].failures : checks[check].warnings,
    reproduced: false,
    shrinks: 0,
    seed,
  };
}
