/**
 * The record of a run (fast-check's RunDetails, in spirit): what was sent, what each check made of
 * it, and each check's first finding shrunk to a minimal request. Plain data: JSON.stringify(report)
 * is the JSON report; reports/ formats it for people and CI systems.
 */
import type { CanaryReading, CanaryTrend, CheckName, GrowthMeasure, GrowthReading, Phase, Profile, RequestCase, Severity, TimedExchange } from '../../oracle/index.js';
import type { LatencySummary } from './timeline.js';
import type { SecuritySummary } from './credentials.js';

export interface ReportedRequest {
  readonly method: string;
  readonly url: string;
  readonly kind: string;
  readonly variant: string;
  readonly content: RequestCase['content'];
  readonly credentials: RequestCase['credentials'];
  /** Header values with the token replaced by `<token>` (and text made from it by its placeholder). */
  readonly headers: Readonly<Record<string, string>>;
  /** Field lines sent after `headers` (a second Authorization field), redacted the same way. */
  readonly extraLines?: readonly (readonly [string, string])[];
  /** The body as text, or in base64 when it is not valid UTF-8. */
  readonly body: string;
  readonly bodyEncoding: 'utf8' | 'base64';
  readonly bodyBytes: number;
}

export type ReportedOutcome =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly bodyBytes: number; readonly durationMs: number }
  | { readonly kind: 'failure'; readonly failure: string; readonly message: string; readonly durationMs: number };

export interface CheckSummary {
  /** Exchanges the check had something to say about (e.g. `echo`: valid requests that succeeded; `degradation`: canary readings). */
  readonly requests: number;
  /** Exchanges (or, for a run check, verdicts) with a failure of this check. */
  readonly failures: number;
  /** Exchanges (or verdicts) with a warning of this check. */
  readonly warnings: number;
  /**
   * Why the check does not apply to the run, whatever the target answers: the profile it is not
   * held to under (a mock stores nothing to echo), or what the contract does not declare (no read
   * linked from a create for the stateful checks). Absent where it applies: one that applies and
   * judged no request is not exercised.
   */
  readonly notApplicable?: string;
}

/** Checks of an operation that judged none of its exchanges, and why: the run's reason, where one does not apply to the run. */
export interface ChecksNotApplicable {
  readonly checks: readonly CheckName[];
  readonly reason: string;
}

/**
 * One operation of the contract as the run saw it (issue 29, item 9): the row every report (text,
 * JSON, JUnit, HTML) shows for it.
 */
export interface OperationRow {
  /** `operationId (METHOD /path)`. */
  readonly operation: string;
  /** Exchanges of the run sent to it (setup requests and canaries included). */
  readonly requests: number;
  /** The exchange checks that judged its exchanges, each with how many it judged. */
  readonly checks: Readonly<Partial<Record<CheckName, number>>>;
  /** The exchange checks that judged none of them, grouped by why. */
  readonly notApplicable: readonly ChecksNotApplicable[];
  /** What of it the kit cannot check: each declared media type no codec reads or writes. */
  readonly notChecked: readonly string[];
  /** Why the run could not reach it (no credentials for its security), where it could not: not tested, never passed. */
  readonly notTested?: string;
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
  /** The reported request replayed alone after shrinking: how many of the replays showed the finding (absent for a finding about the run as a whole). */
  readonly replays?: ReplayCount;
  readonly seed: number;
  /** For a random-phase finding, fast-check's counterexample path: with the seed, `fc.check(..., { seed, path })` replays it. */
  readonly path?: string;
}

/** Replays of a finding's request: `reproduced` of `of` showed it again. */
export interface ReplayCount {
  readonly reproduced: number;
  readonly of: number;
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
  /** Stored plants read back through the contract's read of what the create stores (resource-available judges each); absent where none was. */
  readonly readBack?: number;
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
  /** Why there is no trend (too few readings): `degradation` was not exercised. */
  readonly notJudged?: string;
  /** The growth probes taken in the canary's rounds (run/canary.ts): one per measure that has readings. */
  readonly growth?: readonly GrowthSummary[];
}

/** A growth probe's readings against what the target held, and their trend (absent with too few readings to judge). */
export interface GrowthSummary {
  readonly measure: GrowthMeasure;
  readonly readings: readonly GrowthReading[];
  readonly trend?: CanaryTrend;
}

/** The contract a run was judged against, as reports name it. */
export interface ReportedContract {
  readonly title: string;
  readonly version: string;
  /** The file it was read from (a name in angle brackets for one compiled in memory). */
  readonly file: string;
  /** Whether it is the kit's own openapi.yaml, which needs no `--contract` to replay the run. */
  readonly bundled: boolean;
}

export interface Report {
  readonly target: string;
  readonly contract: ReportedContract;
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
  /** The security schemes the run sent credentials of, and the operations it could not reach for lack of credentials: not tested, never passed. */
  readonly security?: SecuritySummary;
  /** One per check that failed, shrunk, in check order. */
  readonly failures: readonly ReportedFinding[];
  /** One per check that warned (and did not fail), in check order: hazards the contract allows. */
  readonly warnings: readonly ReportedFinding[];
  /** Per operation, each declared media type the kit cannot read or write (XML, images): not checked, never passed. Absent when there is none. */
  readonly notChecked?: readonly string[];
  /** A row per operation of the contract, in the contract's order (absent in reports written before issue 29). */
  readonly operations?: readonly OperationRow[];
  /** Why the run ended before every request was sent, if it did. */
  readonly stoppedEarly?: string;
  /** No failure and every request sent. Warnings do not count (the CLI's `--strict` makes them). */
  readonly passed: boolean;
}
