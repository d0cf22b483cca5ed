/** The run as a whole, judged by the run checks: they see the bounded record of the timeline. */
import { RUN_CHECKS, type CheckContext, type CheckName, type Phase, type RunRecord, type Severity } from '../../oracle/index.js';
import { SLOWEST_KEPT } from './timeline.js';
import { findingKey, type Tally } from './tally.js';

/**
 * A run check's findings about single exchanges: this many candidates (all the slowest the
 * timeline keeps) are replayed, slowest first, to find one that shows it again. At the default
 * concurrency the requests queued behind a slow one can each be slower still, so the slow one may
 * rank below its victims; their replays are quick, so trying them all costs little.
 */
const RUN_FINDING_CANDIDATES = SLOWEST_KEPT;

/** An exchange a run check's verdict points at, to replay. */
export interface Candidate {
  readonly phase: Phase;
  readonly index: number;
  readonly message: string;
  readonly fresh: boolean;
}

/** The first verdict of a run check and severity, with the exchanges its verdicts point at. */
export interface RunFinding {
  readonly check: CheckName;
  readonly severity: Severity;
  readonly message: string;
  readonly candidates: Candidate[];
}

/** Every run check (that runs under the profile) on the run, counted in the tally: their findings by check and severity. */
export function judgeRun(run: RunRecord, context: CheckContext, tally: Tally): Map<string, RunFinding> {
  const findings = new Map<string, RunFinding>();
  for (const check of RUN_CHECKS) {
    if (check.skippedUnder?.[context.profile] !== undefined) continue;
    tally.countLookedAt(check.name, check.looksAt(run));
    for (const verdict of check.judge(run, context)) {
      tally.countRunVerdict(check.name, verdict.severity);
      const key = findingKey(check.name, verdict.severity);
      const finding = findings.get(key) ?? { check: check.name, severity: verdict.severity, message: verdict.message, candidates: [] };
      findings.set(key, finding);
      const at = verdict.exchange;
      if (at && finding.candidates.length < RUN_FINDING_CANDIDATES) {
        const fresh = run.slowest.find((e) => e.phase === at.phase && e.index === at.index)?.fresh === true;
        finding.candidates.push({ phase: at.phase, index: at.index, message: verdict.message, fresh });
      }
    }
  }
  return findings;
}
