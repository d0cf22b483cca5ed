/**
 * The runner: generates requests from a seed, sends them to a target over real HTTP with bounded
 * concurrency, runs every check on every exchange, then shrinks the first failure of each check
 * with fast-check to a minimal request. Reproducible: the same seed and runs send the same
 * requests (fast-check's `sample` and `check` draw the same values from a seed, and a failure is
 * replayed and shrunk from its run index with `path`).
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, type Contract } from '../src/openapi/index.js';
import { checkApplies, CHECKS, decodeJson } from './checks.js';
import { requestArbitrary } from './generators.js';
import { createHttpClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, parseBaseUrl, type HttpClient } from './http-client.js';
import { reportedOutcome, reportedRequest, toCurl, type ReportedOutcome, type ReportedRequest } from './report.js';
import { CASE_LABELS, CHECK_NAMES, type CaseLabel, type CheckName, type HttpOutcome, type Profile, type RequestCase, type Violation } from './types.js';

/**
 * Requests in a default run. A fault that shows on one request in 40 is missed by 1000
 * independent requests with probability (39/40)^1000 ≈ 1e-11; one that shows on one *valid*
 * request in 40 (400 of them) with probability ≈ 4e-5.
 */
export const DEFAULT_RUNS = 1000;
export const DEFAULT_CONCURRENCY = 8;
/** Cases generated at a time. */
const CHUNK = 250;
/** Time spent shrinking, all failures together; a hanging target makes every failing step cost a timeout. */
export const DEFAULT_SHRINK_TIME_MS = 20_000;
/** After this many timeouts no new requests are started: the target hangs, that is the finding. */
export const DEFAULT_MAX_TIMEOUTS = 3;
/** Shrinking a failure stops after this many timed-out steps. */
const MAX_SHRINK_TIMEOUTS = 3;

export interface ConformanceOptions {
  /** The implementation under test, e.g. http://127.0.0.1:3000 (a path prefix is kept: http://host/api). */
  readonly baseUrl: string;
  /** A bearer token the target accepts. Required for the `reference` profile; any well-formed one is made up under `mock`. */
  readonly token?: string;
  readonly profile?: Profile;
  /** Generated requests (not counting the setup requests of repeated ids). Default 1000. */
  readonly runs?: number;
  /** The seed (a 32-bit integer); random by default. Print it: it replays the run. */
  readonly seed?: number;
  /** Deadline per exchange. Default 5000. */
  readonly timeoutMs?: number;
  /** Requests in flight at most. Default 8. */
  readonly concurrency?: number;
  readonly maxResponseBytes?: number;
  /** Budget for shrinking all failures. Default 20 s. */
  readonly shrinkTimeMs?: number;
  /** Stop starting requests after this many timeouts. Default 3. */
  readonly maxTimeouts?: number;
  /** Kinds of request to send (all by default). */
  readonly labels?: readonly CaseLabel[];
  readonly contract?: Contract;
  readonly onProgress?: (progress: Progress) => void;
}

export interface Progress {
  readonly phase: 'checking' | 'shrinking';
  readonly done: number;
  readonly total: number;
  readonly violations: number;
}

export interface CheckSummary {
  /** Exchanges the check had something to say about (e.g. `echo`: valid requests that succeeded). */
  readonly requests: number;
  /** Exchanges that broke it. */
  readonly violations: number;
}

export interface Failure {
  readonly check: CheckName;
  /** The violation, for the minimal request. */
  readonly message: string;
  /** The minimal request found, and the requests sent before it in the same case (a repeated id). */
  readonly request: ReportedRequest;
  readonly setup: readonly ReportedRequest[];
  /** The minimal request as a shell command (with `$TOKEN` for the token). */
  readonly curl: string;
  readonly response: ReportedOutcome;
  /** Exchanges of the run that broke this check. */
  readonly occurrences: number;
  /** Whether replaying the first failing request failed again (not: an intermittent fault or one that depends on state). */
  readonly reproduced: boolean;
  /** Successful shrinking steps from the first failing request to this one. */
  readonly shrinks: number;
  readonly seed: number;
  /** fast-check's counterexample path: with the seed, `fc.check(..., { seed, path })` replays it. */
  readonly path: string;
}

export interface Report {
  readonly target: string;
  readonly contract: { readonly title: string; readonly version: string };
  readonly profile: Profile;
  readonly seed: number;
  readonly runs: number;
  /** Exchanges of the checking phase (setup requests included; shrinking not). */
  readonly requests: number;
  readonly labels: Readonly<Record<CaseLabel, number>>;
  /** Wall time of the checking phase. */
  readonly checkingMs: number;
  /** Wall time of the whole run, shrinking included. */
  readonly durationMs: number;
  /** Exchanges sent and checked per second during the checking phase. */
  readonly requestsPerSecond: number;
  readonly checks: Readonly<Record<CheckName, CheckSummary>>;
  /** One per broken check, shrunk, in check order. */
  readonly failures: readonly Failure[];
  /** Why the checking phase ended before every request was sent, if it did. */
  readonly stoppedEarly?: string;
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
  readonly violations: readonly Violation[];
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
  if (integerKeys.length === 0 || request.label !== 'valid') return undefined;
  const parsed = decodeJson(request.body);
  if (!('value' in parsed) || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  const parts = integerKeys.map((k) => {
    const v = value[k];
    return isLosslessNumber(v) ? String(exactInteger(v) ?? v.value) : '';
  });
  return parts.every((p) => p === '') ? undefined : `${request.path} ${parts.join(' ')}`;
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
  const arbitrary = requestArbitrary(contract, { token, profile, ...(options.labels ? { labels: options.labels } : {}) });
  const integerKeys = [
    ...new Set(contract.operations.flatMap((o) => [...(o.requestBody?.shape.properties ?? [])].filter(([, s]) => contract.resolve(s).type === 'integer').map(([k]) => k))),
  ];

  await probe(base, timeoutMs);
  const client: HttpClient = createHttpClient(base, { concurrency, timeoutMs, maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES });
  try {
    const execute = async (request: RequestCase): Promise<Exchange[]> => {
      const exchanges: Exchange[] = [];
      for (const step of [...request.setup, request]) {
        const outcome = await client.send(step);
        exchanges.push({ request: step, outcome, violations: CHECK_NAMES.flatMap((name) => CHECKS[name](step, outcome, contract, { profile })) });
      }
      return exchanges;
    };

    // Checking: every generated case, `concurrency` at a time, no two with the same id at once.
    // Cases are generated in chunks (fast-check's `path` starts a sample at a run index), and
    // only counts and the first failure of each check are kept: memory stays flat for any --runs.
    const checks = Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 0, violations: 0 }])) as Record<CheckName, { requests: number; violations: number }>;
    const labels = Object.fromEntries(CASE_LABELS.map((label) => [label, 0])) as Record<CaseLabel, number>;
    const firstFailure = new Map<CheckName, { index: number; exchanges: Exchange[] }>();
    let requests = 0;
    const record = (index: number, exchanges: Exchange[]): void => {
      for (const exchange of exchanges) {
        requests++;
        labels[exchange.request.label]++;
        for (const name of CHECK_NAMES) {
          if (checkApplies(name, exchange.request, exchange.outcome, contract, { profile })) checks[name].requests++;
        }
        // Counted per request: one response can break a check in more than one way.
        for (const check of new Set(exchange.violations.map((v) => v.check))) {
          checks[check].violations++;
          const first = firstFailure.get(check);
          if (!first || first.index > index) firstFailure.set(check, { index, exchanges });
        }
      }
    };

    const queue: { index: number; request: RequestCase; key: string | undefined }[] = [];
    let generated = 0;
    const refill = (): void => {
      if (queue.length >= concurrency * 4 || generated >= runs) return;
      const size = Math.min(CHUNK, runs - generated);
      fc.sample(arbitrary, { seed, path: String(generated), numRuns: size }).forEach((request, offset) => {
        queue.push({ index: generated + offset, request, key: resourceKey(request, integerKeys) });
      });
      generated += size;
    };
    const busy = new Set<string>();
    let done = 0;
    let violationCount = 0;
    let timeouts = 0;
    let stoppedEarly: string | undefined;
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
    const checkingStarted = performance.now();
    const worker = async (): Promise<void> => {
      while ((queue.length > 0 || generated < runs) && stoppedEarly === undefined) {
        const item = next();
        if (item === undefined) {
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        if (item.key !== undefined) busy.add(item.key);
        const exchanges = await execute(item.request);
        if (item.key !== undefined) busy.delete(item.key);
        record(item.index, exchanges);
        done++;
        for (const exchange of exchanges) {
          violationCount += exchange.violations.length;
          if (exchange.outcome.kind === 'failure' && exchange.outcome.failure === 'timeout') timeouts++;
        }
        if (timeouts >= maxTimeouts) stoppedEarly ??= `the target timed out on ${timeouts} requests (${timeoutMs} ms each); no further requests were started`;
        options.onProgress?.({ phase: 'checking', done, total: runs, violations: violationCount });
        wakeAll();
      }
      wakeAll();
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, runs) }, worker));
    const checkingMs = performance.now() - checkingStarted;

    // Shrinking: the first failing case of each broken check, replayed from its run index.
    const shrinkDeadline = performance.now() + (options.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS);
    const failures: Failure[] = [];
    const minimal: { exchanges: Exchange[]; shrinks: number; path: string; reproduced: boolean }[] = [];
    let shrunk = 0;
    for (const name of CHECK_NAMES) {
      const first = firstFailure.get(name);
      if (first === undefined) continue;
      const index = first.index;
      options.onProgress?.({ phase: 'shrinking', done: shrunk++, total: firstFailure.size, violations: violationCount });
      const breaks = (exchanges: readonly Exchange[]): boolean => exchanges.some((e) => e.violations.some((v) => v.check === name));
      // A failure already shrunk for another check often breaks this one too (a 500 is also undeclared): reuse it.
      let found = minimal.find((m) => breaks(m.exchanges));
      if (!found) {
        let last: Exchange[] | undefined;
        let timedOut = 0;
        const property = fc.asyncProperty(arbitrary, async (request) => {
          // Every step that hangs costs a whole timeout: after a few, shrinking stops where it is
          // (the remaining candidates count as passing, so fast-check keeps the last failure).
          if (timedOut >= MAX_SHRINK_TIMEOUTS) return true;
          const exchanges = await execute(request);
          timedOut += exchanges.filter((e) => e.outcome.kind === 'failure' && e.outcome.failure === 'timeout').length;
          if (!breaks(exchanges)) return true;
          last = exchanges;
          return false;
        });
        const remaining = Math.max(1, shrinkDeadline - performance.now());
        const details = await fc.check(property, { seed, path: String(index), numRuns: 1, plugins: [fc.interruptAfterTimeLimit(remaining)] });
        found =
          details.failed && last
            ? { exchanges: last, shrinks: details.numShrinks, path: details.counterexamplePath ?? String(index), reproduced: true }
            : { exchanges: first.exchanges, shrinks: 0, path: String(index), reproduced: false };
        minimal.push(found);
      }
      const culprit = found.exchanges.find((e) => e.violations.some((v) => v.check === name)) ?? found.exchanges[found.exchanges.length - 1];
      if (!culprit) continue;
      const before = found.exchanges.slice(0, found.exchanges.indexOf(culprit));
      failures.push({
        check: name,
        message: culprit.violations.find((v) => v.check === name)?.message ?? '',
        request: reportedRequest(client.baseUrl, culprit.request, token),
        setup: before.map((e) => reportedRequest(client.baseUrl, e.request, token)),
        curl: [...before, culprit].map((e) => toCurl(client.baseUrl, e.request, token)).join('\n'),
        response: reportedOutcome(culprit.outcome),
        occurrences: checks[name].violations,
        reproduced: found.reproduced,
        shrinks: found.shrinks,
        seed,
        path: found.path,
      });
    }

    return {
      target: client.baseUrl.href,
      contract: { title: contract.title, version: contract.version },
      profile,
      seed,
      runs,
      requests,
      labels,
      checkingMs,
      durationMs: performance.now() - started,
      requestsPerSecond: checkingMs > 0 ? (requests * 1000) / checkingMs : 0,
      checks,
      failures,
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
      passed: failures.length === 0 && stoppedEarly === undefined,
    };
  } finally {
    client.close();
  }
}
