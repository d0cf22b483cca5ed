/**
 * A run's options as the caller gives them, and qualified: checked, with every default filled in,
 * so that the parts of the run read settled values (fast-check's QualifiedParameters, in spirit).
 */
import { loadContract, type Contract } from '../../src/openapi/index.js';
import { DEFAULT_CAPACITY, DEFAULT_CONCURRENCY, DEFAULT_CONFORM_TIMEOUT_MS, DEFAULT_RUNS } from '../defaults.js';
import { DEFAULT_CAPACITY_BUDGET_MS, hasCapacityOperation } from '../generation/capacity.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_RESPONSE_TIME_MS, PHASES, type Phase, type Profile } from '../../oracle/index.js';
import { parseBaseUrl } from '../../src/http/index.js';
import { statefulRuns } from './stateful-plan.js';
import { runCredentials } from './credentials.js';
import { credentialPlan, type EngineCredentials } from '../generation/tables/scheme-credentials.js';
import { NothingToTestError } from './nothing-to-test.js';

/** Time spent shrinking, all findings together; a hanging target makes every failing step cost a timeout. */
export const DEFAULT_SHRINK_TIME_MS = 20_000;
/** After this many timeouts no new requests are started: the target hangs, that is the finding. */
export const DEFAULT_MAX_TIMEOUTS = 3;
/**
 * Time between two readings of the canary, at least: about 40 in a default run against a local
 * server. Against a slow target it is five times what a reading took, so the canary never costs
 * more than a sixth of the run.
 */
export const DEFAULT_CANARY_INTERVAL_MS = 150;

/** A well-formed bearer token for targets that accept any (the mock). */
const ANY_TOKEN = 'plant-store-conform';

export interface ConformanceOptions {
  /** The implementation under test, e.g. http://127.0.0.1:3000 (a path prefix is kept: http://host/api). */
  readonly baseUrl: string;
  /** A bearer token the target accepts. Required for the `reference` profile unless `credentials` are given; any well-formed one is made up under `mock`. */
  readonly token?: string;
  /**
   * Credentials per security scheme of the contract, by its name (as `--auth <scheme>=<value>`):
   * a bearer or access token, basic `user:password`, an API key. An operation none of whose
   * requirements the run has credentials for is not tested (Report.security).
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Header fields every request carries (`--header 'Name: value'`), for what no scheme describes. */
  readonly headers?: Readonly<Record<string, string>>;
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

/** The options checked, every default filled in. */
export interface QualifiedOptions {
  readonly base: URL;
  readonly contract: Contract;
  readonly profile: Profile;
  /** The bearer token; empty where the run has only `credentials`. */
  readonly token: string;
  /** The credentials per scheme (checked against the contract) and the plain header fields. */
  readonly credentials: EngineCredentials;
  readonly runs: number;
  readonly durationMs: number | undefined;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly maxResponseBytes: number;
  readonly maxResponseTimeMs: number;
  readonly capacityTarget: number;
  readonly capacityBudgetMs: number;
  readonly canaryIntervalMs: number;
  readonly shrinkTimeMs: number;
  readonly maxTimeouts: number;
  /** The phases to run, in order (capacity only with a target above 0 and an operation with a body to fill). */
  readonly phases: readonly Phase[];
  readonly kinds: readonly string[] | undefined;
  readonly onProgress: ((progress: Progress) => void) | undefined;
}

/** Random 32-bit seed (fast-check takes a 32-bit integer). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

function atLeastZero(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a number of at least 0, got ${value}`);
}

/**
 * Throws NothingToTestError where the run could send no request: a contract without operations
 * (webhooks alone are not exercised), or one whose every operation needs credentials the run lacks.
 */
function somethingToTest(contract: Contract, token: string, credentials: EngineCredentials, profile: Profile): void {
  if (contract.operations.length === 0) throw new NothingToTestError(`the contract ${contract.file} declares no operation under paths: there is nothing to send (webhooks and callbacks are not exercised)`);
  const reasons = new Set<string>();
  for (const operation of contract.operations) {
    const plan = credentialPlan(operation, token, credentials, profile);
    if (plan.kind !== 'unreachable') return;
    reasons.add(plan.reason);
  }
  throw new NothingToTestError(`the run has credentials for none of the contract's operations, so none can be tested: ${[...reasons].join('; ')}`);
}

/** Checks the options (TypeError, RangeError, NothingToTestError) and fills in the defaults; the seed is drawn here when none is given. */
export function qualify(options: ConformanceOptions): QualifiedOptions {
  const contract = options.contract ?? loadContract();
  const profile = options.profile ?? 'reference';
  const base = parseBaseUrl(options.baseUrl);
  const credentials = runCredentials(contract, options.credentials ?? {}, options.headers ?? {});
  const token = options.token ?? credentials.bearer ?? (profile === 'mock' ? ANY_TOKEN : Object.keys(credentials.schemes).length > 0 ? '' : undefined);
  if (token === undefined) throw new TypeError('a bearer token (or credentials per scheme) the target accepts is needed (the reference profile sends valid requests)');
  somethingToTest(contract, token, { schemes: credentials.schemes, headers: credentials.headers }, profile);
  const runs = options.runs ?? DEFAULT_RUNS;
  if (!Number.isSafeInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  atLeastZero('durationMs', options.durationMs);
  atLeastZero('capacity', options.capacity);
  atLeastZero('capacityBudgetMs', options.capacityBudgetMs);
  atLeastZero('maxResponseTimeMs', options.maxResponseTimeMs);
  atLeastZero('canaryIntervalMs', options.canaryIntervalMs);
  const capacityTarget = Math.floor(options.capacity ?? DEFAULT_CAPACITY);
  return {
    base,
    contract,
    profile,
    token,
    credentials: { schemes: credentials.schemes, headers: credentials.headers },
    runs,
    durationMs: options.durationMs,
    seed: options.seed ?? randomSeed(),
    timeoutMs: options.timeoutMs ?? DEFAULT_CONFORM_TIMEOUT_MS,
    concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxResponseTimeMs: options.maxResponseTimeMs ?? DEFAULT_MAX_RESPONSE_TIME_MS,
    capacityTarget,
    capacityBudgetMs: options.capacityBudgetMs ?? DEFAULT_CAPACITY_BUDGET_MS,
    canaryIntervalMs: options.canaryIntervalMs ?? DEFAULT_CANARY_INTERVAL_MS,
    shrinkTimeMs: options.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS,
    maxTimeouts: options.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS,
    phases: PHASES.filter((phase) => (options.phases ?? PHASES).includes(phase) && (phase !== 'capacity' || (capacityTarget > 0 && hasCapacityOperation(contract))) && (phase !== 'stateful' || statefulRuns(contract, profile, options.phases))),
    kinds: options.kinds,
    onProgress: options.onProgress,
  };
}
