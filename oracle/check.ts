/**
 * What a check is. Every check is one file in this folder, registered by one line in index.ts;
 * the CLI summary, the JSON and JUnit reports and the docs' table all read the registry.
 *
 * - An **exchange check** is a pure function of one request, what came back and the contract:
 *   `applies` says whether it has anything to say about the exchange (the requests a report counts
 *   for it), `judge` returns its judgements as data, never throwing.
 * - A **run check** judges the run as a whole (response times, their trend): a pure function of
 *   the run's record. A judgement may point at the exchange it is about, so the runner can replay
 *   and shrink it.
 */
import type { Contract } from '../src/openapi/index.js';
import type { HttpOutcome, Phase, Profile, RequestCase, Severity, TransportFailure } from './types.js';

export interface CheckContext {
  readonly contract: Contract;
  readonly profile: Profile;
}

/** A check's judgement of one exchange or run: the registry adds the check's name to make a Finding. */
export interface Judgement {
  readonly severity: Severity;
  readonly message: string;
}

interface CheckBase<N extends string> {
  readonly name: N;
  /** One line, for the docs' table, `--help` and reports: when the check holds. */
  readonly description: string;
  /** Profiles it does not run under, each with the reason (e.g. a mock stores nothing to echo). */
  readonly skippedUnder?: Partial<Record<Profile, string>>;
}

export interface ExchangeCheck<N extends string = string> extends CheckBase<N> {
  readonly scope: 'exchange';
  applies(request: RequestCase, outcome: HttpOutcome, context: CheckContext): boolean;
  /** Called only where `applies` holds. */
  judge(request: RequestCase, outcome: HttpOutcome, context: CheckContext): readonly Judgement[];
}

/** One exchange of a run as a run check sees it: where and when it happened, what it was, how it went. */
export interface TimedExchange {
  readonly phase: Phase;
  /** Its case's position in the phase (for the random phase, fast-check's run index). */
  readonly index: number;
  readonly kind: string;
  /** What is special about the request, for people (see RequestCase). */
  readonly variant?: string;
  readonly content: RequestCase['content'];
  readonly credentials: RequestCase['credentials'];
  /** Since the run began. */
  readonly startedMs: number;
  readonly durationMs: number;
  readonly status: number | TransportFailure;
  /** Sent on a connection of its own, opened for it and closed after it (`Connection: close`). */
  readonly fresh?: boolean;
  /** A request the runner sent to measure the target, not to test it (see runner.ts). */
  readonly probe?: 'canary';
}

/**
 * One reading of the canary: the same valid request sent a few times, alone (no other request in
 * flight), at intervals through the run; the reading is the fastest of those sends, so that a
 * moment's noise (a garbage collection, another process) does not count.
 */
export interface CanaryReading {
  /** Exchanges of the run completed before it. */
  readonly afterExchanges: number;
  /** Since the run began. */
  readonly startedMs: number;
  readonly phase: Phase;
  /** The fastest answered send. */
  readonly durationMs: number;
  /** Sends it is the fastest of (more than a reading's own when a long run's readings were merged). */
  readonly samples: number;
  /** The fastest of the control's answers read in the same round, send for send in turn (run/control.ts); absent without a control. */
  readonly controlMs?: number;
}

/**
 * What a server holds that a cost may grow with (checks/degradation.ts): the entries it stores
 * (the capacity phase's plants), the connections it has served (opened and closed), the clients
 * it has seen (distinct credentials presented).
 */
export type GrowthMeasure = 'entries' | 'connections';

/**
 * One reading of a growth probe, taken in the canary's round (run/canary.ts): a valid request the
 * measure's growth would slow, sent a few times alone, its fastest answer against how much the
 * target holds of the measure by then.
 */
export interface GrowthReading {
  readonly measure: GrowthMeasure;
  /** How much the target held of the measure when it was taken: plants stored, connections closed. */
  readonly holds: number;
  /** Since the run began. */
  readonly startedMs: number;
  readonly phase: Phase;
  /** The fastest answered send. */
  readonly durationMs: number;
  readonly samples: number;
  /** The fastest of the control's answers read in the same round, sent the same way (a fresh connection for `connections`). */
  readonly controlMs?: number;
}

/** The response times of a run, summarised in constant memory (see statistics.ts). */
export interface ResponseTimes {
  /** Answered exchanges (transport failures and canaries aside). */
  readonly count: number;
  /** Their median, to ±4.5 %. */
  readonly medianMs: number;
  /** How many took longer than `ms` (to within a histogram bucket). */
  countAbove(ms: number): number;
}

/**
 * What run checks see of a run. Bounded whatever the run's length: summaries, the slowest
 * exchanges and the canary's readings, never every exchange (a `--duration` run sends millions).
 */
export interface RunRecord {
  readonly responseTimes: ResponseTimes;
  /** The slowest answered exchanges (canaries aside), slowest first; a few dozen at most. */
  readonly slowest: readonly TimedExchange[];
  /** The canary's readings, in order. */
  readonly canary: readonly CanaryReading[];
  /** The growth probes' readings, in order (absent from records made before they were taken). */
  readonly growth?: readonly GrowthReading[];
  /** The absolute part of the response-time bound, in milliseconds (`--max-response-time`). */
  readonly maxResponseTimeMs: number;
}

/** A run check's judgement, with the exchange it is about where there is one. */
export interface RunJudgement extends Judgement {
  readonly exchange?: Pick<TimedExchange, 'phase' | 'index'>;
}

export interface RunCheck<N extends string = string> extends CheckBase<N> {
  readonly scope: 'run';
  judge(run: RunRecord, context: CheckContext): readonly RunJudgement[];
  /** What it had to judge: answers, canary readings... (0 when the run gave it too little to say anything). */
  looksAt(run: RunRecord): number;
  /**
   * For a judgement about one exchange: whether a replay of it (or of a smaller request while
   * shrinking) still shows the problem. Without it the exchange is reported as first seen.
   */
  reproduces?(request: RequestCase, outcome: HttpOutcome, run: RunRecord, context: CheckContext): boolean;
  /** The finding's message for the exchange that reproduced it (shrunk, it is not the one the run saw). */
  explain?(request: RequestCase, outcome: HttpOutcome, run: RunRecord, context: CheckContext): string;
  /**
   * Judgements about single exchanges stand only when replays alone show the problem again, twice in
   * a row: what a moment of the run caused (another process, a request queued behind a slow one)
   * is no finding.
   */
  readonly confirmedByReplay?: boolean;
}

export type Check<N extends string = string> = ExchangeCheck<N> | RunCheck<N>;

/** Identity helpers that keep a check's name a literal type, so the registry's names are a union. */
export function exchangeCheck<const N extends string>(check: Omit<ExchangeCheck<N>, 'scope'>): ExchangeCheck<N> {
  return { ...check, scope: 'exchange' };
}

export function runCheck<const N extends string>(check: Omit<RunCheck<N>, 'scope'>): RunCheck<N> {
  return { ...check, scope: 'run' };
}

export const failure = (message: string): Judgement => ({ severity: 'failure', message });
export const warning = (message: string): Judgement => ({ severity: 'warning', message });
