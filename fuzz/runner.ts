/**
 * The runner: sends a run's requests to a target over real HTTP with bounded concurrency, judges
 * every exchange with every check of the registry, judges the run as a whole with the run checks,
 * then shrinks the first finding of each check to a minimal request.
 *
 * A run has phases, in order:
 * - **coverage**: every kind's deterministic requests (kinds/), the same list whatever the seed:
 *   each edge and each variant the engine knows is sent once in every run;
 * - **random**: `runs` requests generated from the seed by fast-check, each kind by its weight.
 *
 * Reproducible: the same seed sends the same requests (fast-check's `sample` and `check` draw the
 * same values from a seed; a random-phase finding is replayed and shrunk from its run index with
 * `path`). Coverage requests are small and name their one variant already: they are replayed to
 * see whether they fail again, not shrunk.
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, type Contract } from '../src/openapi/index.js';
import { applicableChecks, CHECK_NAMES, checkNamed, decodeJson, RUN_CHECKS, runChecks, type CheckName, type RunRecord, type TimedExchange } from './checks/index.js';
import { createHttpClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, parseBaseUrl, type HttpClient, type LateBytes } from './http-client.js';
import { coverageCases, KIND_NAMES, requestArbitrary } from './kinds/index.js';
import { reportedOutcome, reportedRequest, toCurl, type ReportedOutcome, type ReportedRequest } from './report.js';
import type { Finding, HttpOutcome, Phase, Profile, RequestCase, Severity } from './types.js';

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
/** How long a replayed request's connection is given to deliver bytes after its answer (delayed acknowledgements take 40 ms). */
const LATE_GRACE_MS = 100;

export interface ConformanceOptions {
  /** The implementation under test, e.g. http://127.0.0.1:3000 (a path prefix is kept: http://host/api). */
  readonly baseUrl: string;
  /** A bearer token the target accepts. Required for the `reference` profile; any well-formed one is made up under `mock`. */
  readonly token?: string;
  readonly profile?: Profile;
  /** Requests of the random phase (not counting the setup requests of repeated ids). Default 1000. */
  readonly runs?: number;
  /** The seed (a 32-bit integer); random by default. Print it: it replays the run. */
  readonly seed?: number;
  /** Deadline per exchange. Default 5000. */
  readonly timeoutMs?: number;
  /** Requests in flight at most. Default 8. */
  readonly concurrency?: number;
  readonly maxResponseBytes?: number;
  /** Budget for shrinking all findings. Default 20 s. */
  readonly shrinkTimeMs?: number;
  /** Stop starting requests after this many timeouts. Default 3. */
  readonly maxTimeouts?: number;
  /** Kinds of request to send (all by default; see kinds/index.ts). */
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
  /** Exchanges the check had something to say about (e.g. `echo`: valid requests that succeeded). */
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
  /** Exchanges of the phase, setup requests included. */
  readonly requests: number;
  readonly durationMs: number;
}

export interface Report {
  readonly target: string;
  readonly contract: { readonly title: string; readonly version: string };
  readonly profile: Profile;
  readonly seed: number;
  /** Requests generated for the random phase. */
  readonly runs: number;
  /** Exchanges of every phase (setup requests included; shrinking not). */
  readonly requests: number;
  /** Exchanges per request kind. */
  readonly kinds: Readonly<Record<string, number>>;
  readonly phases: Readonly<Partial<Record<Phase, PhaseSummary>>>;
  /** Wall time of the phases. */
  readonly checkingMs: number;
  /** Wall time of the whole run, shrinking included. */
  readonly durationMs: number;
  /** Exchanges sent and checked per second during the phases. */
  readonly requestsPerSecond: number;
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
}

/** The cases of one phase: pulled one at a time; any one can be made again from its index. */
interface PhasePlan {
  readonly phase: Phase;
  readonly total: number;
  next(): { readonly index: number; readonly request: RequestCase } | undefined;
  caseAt(index: number): RequestCase | undefined;
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
  return {
    phase,
    total: cases.length,
    next: () => {
      const request = cases[at];
      return request === undefined ? undefined : { index: at++, request };
    },
    caseAt: (index) => cases[index],
  };
}

function randomPlan(arbitrary: fc.Arbitrary<RequestCase>, seed: number, runs: number): PhasePlan {
  let generated = 0;
  let buffer: RequestCase[] = [];
  let offset = 0;
  return {
    phase: 'random',
    total: runs,
    arbitrary,
    // Cases are generated in chunks (fast-check's `path` starts a sample at a run index): memory stays flat for any runs.
    next: () => {
      if (offset >= buffer.length) {
        if (generated >= runs) return undefined;
        const size = Math.min(CHUNK, runs - generated);
        buffer = fc.sample(arbitrary, { seed, path: String(generated), numRuns: size });
        offset = 0;
        generated += size;
      }
      const request = buffer[offset] as RequestCase;
      const index = generated - buffer.length + offset;
      offset++;
      return { index, request };
    },
    caseAt: (index) => fc.sample(arbitrary, { seed, path: String(index), numRuns: 1 })[0],
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
  const seed = options.seed ?? randomSeed();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const maxTimeouts = options.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS;
  const phases = options.phases ?? ['coverage', 'random'];
  const generatorOptions = { token, profile, ...(options.kinds ? { kinds: options.kinds } : {}) };
  const arbitrary = requestArbitrary(contract, generatorOptions);
  const plans: PhasePlan[] = [];
  if (phases.includes('coverage')) plans.push(listPlan('coverage', coverageCases(contract, generatorOptions)));
  if (phases.includes('random')) plans.push(randomPlan(arbitrary, seed, runs));
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
    const recordedAt = new WeakMap<Exchange[], { readonly phase: Phase; readonly index: number }>();
    const execute = async (request: RequestCase): Promise<Exchange[]> => {
      const exchanges: Exchange[] = [];
      for (const step of [...request.setup, request]) {
        const outcome = await client.send(step);
        placeOf.set(outcome, { exchanges, at: exchanges.length });
        exchanges.push({ request: step, outcome, findings: runChecks(step, outcome, contract, checkContext) });
      }
      return exchanges;
    };

    // Only counts, the timeline and the first finding of each check and severity are kept: memory stays flat for any runs.
    const checks = Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 0, failures: 0, warnings: 0 }])) as Record<CheckName, { requests: number; failures: number; warnings: number }>;
    const kinds: Record<string, number> = Object.fromEntries(KIND_NAMES.map((name) => [name, 0]));
    const phaseSummaries: Partial<Record<Phase, PhaseSummary>> = {};
    const timeline: TimedExchange[] = [];
    type First = { readonly phase: Phase; readonly order: number; readonly index: number; readonly exchanges: readonly Exchange[] };
    const firsts = new Map<string, First>();
    const keyOf = (check: string, severity: Severity): string => `${check} ${severity}`;
    const phaseOrder = (phase: Phase): number => plans.findIndex((p) => p.phase === phase);
    const noteFirst = (check: string, severity: Severity, candidate: First): void => {
      const known = firsts.get(keyOf(check, severity));
      if (!known || known.order > candidate.order || (known.order === candidate.order && known.index > candidate.index)) firsts.set(keyOf(check, severity), candidate);
    };
    let requests = 0;
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
      place.exchanges[place.at] = { request: exchange.request, outcome, findings: [...exchange.findings, ...added] };
      // Not recorded yet: record() counts them with the rest.
      const where = recordedAt.get(place.exchanges);
      if (where === undefined) return;
      findingCount += added.length;
      for (const severity of ['failure', 'warning'] as const) {
        for (const check of new Set(added.filter((f) => f.severity === severity).map((f) => f.check as CheckName))) {
          checks[check][severity === 'failure' ? 'failures' : 'warnings']++;
          noteFirst(check, severity, { phase: where.phase, order: phaseOrder(where.phase), index: where.index, exchanges: place.exchanges });
        }
      }
    };

    const record = (phase: Phase, index: number, exchanges: Exchange[], startedMs: number): void => {
      recordedAt.set(exchanges, { phase, index });
      for (const exchange of exchanges) {
        requests++;
        kinds[exchange.request.kind] = (kinds[exchange.request.kind] ?? 0) + 1;
        for (const name of applicableChecks(exchange.request, exchange.outcome, contract, checkContext)) checks[name].requests++;
        // Counted per request: one response can break a check in more than one way.
        for (const severity of ['failure', 'warning'] as const) {
          for (const check of new Set(exchange.findings.filter((f) => f.severity === severity).map((f) => f.check as CheckName))) {
            checks[check][severity === 'failure' ? 'failures' : 'warnings']++;
            noteFirst(check, severity, { phase, order: phaseOrder(phase), index, exchanges });
          }
        }
        findingCount += exchange.findings.length;
        if (exchange.outcome.kind === 'failure' && exchange.outcome.failure === 'timeout') timeouts++;
        timeline.push({
          phase,
          index,
          kind: exchange.request.kind,
          content: exchange.request.content,
          credentials: exchange.request.credentials,
          startedMs,
          durationMs: exchange.outcome.durationMs,
          status: exchange.outcome.kind === 'response' ? exchange.outcome.status : exchange.outcome.failure,
        });
      }
      if (timeouts >= maxTimeouts) stoppedEarly ??= `the target timed out on ${timeouts} requests (${timeoutMs} ms each); no further requests were started`;
    };

    // Every case of a phase, `concurrency` at a time, no two with the same id at once.
    const runPlan = async (plan: PhasePlan): Promise<void> => {
      const phaseStarted = performance.now();
      const requestsBefore = requests;
      const queue: { index: number; request: RequestCase; key: string | undefined }[] = [];
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
          const item = next();
          if (item === undefined) {
            if (exhausted && queue.length === 0) break;
            await new Promise<void>((resolve) => waiting.push(resolve));
            continue;
          }
          if (item.key !== undefined) busy.add(item.key);
          const startedMs = performance.now() - started;
          const exchanges = await execute(item.request);
          if (item.key !== undefined) busy.delete(item.key);
          record(plan.phase, item.index, exchanges, startedMs);
          done++;
          options.onProgress?.({ phase: plan.phase, done, total: plan.total, findings: findingCount });
          wakeAll();
        }
        wakeAll();
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, plan.total)) }, worker));
      phaseSummaries[plan.phase] = { requests: requests - requestsBefore, durationMs: performance.now() - phaseStarted };
    };

    for (const plan of plans) {
      if (stoppedEarly !== undefined) break;
      await runPlan(plan);
    }
    const checkingMs = performance.now() - checkingStarted;

    // The run as a whole: run checks see the timeline.
    const run: RunRecord = { exchanges: timeline };
    const runVerdicts = new Map<string, { check: CheckName; severity: Severity; message: string; at: { phase: Phase; index: number } | undefined }>();
    for (const check of RUN_CHECKS) {
      if (check.skippedUnder?.[profile] !== undefined) continue;
      checks[check.name].requests = timeline.length;
      for (const verdict of check.judge(run, { contract, profile })) {
        checks[check.name][verdict.severity === 'failure' ? 'failures' : 'warnings']++;
        findingCount++;
        if (!runVerdicts.has(keyOf(check.name, verdict.severity))) runVerdicts.set(keyOf(check.name, verdict.severity), { check: check.name, severity: verdict.severity, message: verdict.message, at: verdict.exchange });
      }
    }

    // Shrinking: the first finding of each check and severity, replayed from its phase and index.
    const shrinkDeadline = performance.now() + (options.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS);
    const reported: ReportedFinding[] = [];
    const minimal: { exchanges: readonly Exchange[]; shrinks: number; path: string | undefined; reproduced: boolean; phase: Phase }[] = [];
    const findingKeys = CHECK_NAMES.flatMap((name) => (['failure', 'warning'] as const).map((severity) => ({ name, severity }))).filter(({ name, severity }) => firsts.has(keyOf(name, severity)) || runVerdicts.has(keyOf(name, severity)));
    let shrunk = 0;
    for (const { name, severity } of findingKeys) {
      options.onProgress?.({ phase: 'shrinking', done: shrunk++, total: findingKeys.length, findings: findingCount });
      const check = checkNamed(name);
      const verdict = runVerdicts.get(keyOf(name, severity));
      const shows = (exchanges: readonly Exchange[]): boolean =>
        check.scope === 'exchange'
          ? exchanges.some((e) => e.findings.some((f) => f.check === name && f.severity === severity))
          : check.reproduces !== undefined && exchanges.some((e) => check.reproduces?.(e.request, e.outcome, run, { contract, profile }) === true);
      let first = firsts.get(keyOf(name, severity));
      if (!first && verdict?.at) {
        const request = plans.find((p) => p.phase === verdict.at?.phase)?.caseAt(verdict.at.index);
        if (request) first = { phase: verdict.at.phase, order: phaseOrder(verdict.at.phase), index: verdict.at.index, exchanges: await execute(request) };
      }
      if (!first) {
        // A run check's finding about the run as a whole: nothing to replay.
        if (verdict) reported.push(runFinding(verdict.check, severity, verdict.message, checks, seed));
        continue;
      }
      const plan = plans.find((p) => p.phase === first.phase);
      // A finding already shrunk for another check often shows this one too (a 500 is also undeclared): reuse it.
      let found = minimal.find((m) => shows(m.exchanges));
      if (!found) {
        if (plan?.arbitrary !== undefined) {
          let last: Exchange[] | undefined;
          let timedOut = 0;
          const property = fc.asyncProperty(plan.arbitrary, async (request) => {
            // Every step that hangs costs a whole timeout: after a few, shrinking stops where it is
            // (the remaining candidates count as passing, so fast-check keeps the last failure).
            if (timedOut >= MAX_SHRINK_TIMEOUTS) return true;
            const exchanges = await execute(request);
            timedOut += exchanges.filter((e) => e.outcome.kind === 'failure' && e.outcome.failure === 'timeout').length;
            if (!shows(exchanges)) return true;
            last = exchanges;
            return false;
          });
          const remaining = Math.max(1, shrinkDeadline - performance.now());
          const details = await fc.check(property, { seed, path: String(first.index), numRuns: 1, plugins: [fc.interruptAfterTimeLimit(remaining)] });
          found =
            details.failed && last
              ? { exchanges: last, shrinks: details.numShrinks, path: details.counterexamplePath ?? String(first.index), reproduced: true, phase: first.phase }
              : { exchanges: first.exchanges, shrinks: 0, path: String(first.index), reproduced: false, phase: first.phase };
        } else {
          const request = plan?.caseAt(first.index);
          const again = request && performance.now() < shrinkDeadline ? await execute(request) : undefined;
          // Bytes a server sends after its answer (a second answer it holds back) are judged when they come.
          if (again !== undefined && !shows(again)) await new Promise((resolve) => setTimeout(resolve, LATE_GRACE_MS));
          const reproduced = again !== undefined && shows(again);
          found = { exchanges: reproduced ? again : first.exchanges, shrinks: 0, path: undefined, reproduced, phase: first.phase };
        }
        minimal.push(found);
      }
      const culprit = (check.scope === 'exchange' ? found.exchanges.find((e) => e.findings.some((f) => f.check === name && f.severity === severity)) : undefined) ?? found.exchanges[found.exchanges.length - 1];
      if (!culprit) continue;
      const before = found.exchanges.slice(0, found.exchanges.indexOf(culprit));
      const summary = checks[name];
      reported.push({
        check: name,
        severity,
        message: culprit.findings.find((f) => f.check === name && f.severity === severity)?.message ?? verdict?.message ?? '',
        phase: found.phase,
        request: reportedRequest(client.baseUrl, culprit.request, token),
        setup: before.map((e) => reportedRequest(client.baseUrl, e.request, token)),
        curl: [...before, culprit].map((e) => toCurl(client.baseUrl, e.request, token)).join('\n'),
        response: reportedOutcome(culprit.outcome),
        occurrences: severity === 'failure' ? summary.failures : summary.warnings,
        reproduced: found.reproduced,
        shrinks: found.shrinks,
        seed,
        ...(found.path === undefined ? {} : { path: found.path }),
      });
    }

    const failures = reported.filter((f) => f.severity === 'failure');
    const failed = new Set(failures.map((f) => f.check));
    return {
      target: client.baseUrl.href,
      contract: { title: contract.title, version: contract.version },
      profile,
      seed,
      runs,
      requests,
      kinds,
      phases: phaseSummaries,
      checkingMs,
      durationMs: performance.now() - started,
      requestsPerSecond: checkingMs > 0 ? (requests * 1000) / checkingMs : 0,
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
