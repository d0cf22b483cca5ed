/**
 * The reported findings: the first finding of each check and severity, shrunk or replayed to a
 * minimal request (shrink.ts), as the record shows it. A finding already shrunk for another check
 * often shows this one too (a 500 is also undeclared): it is reused.
 */
import { CHECK_NAMES, replayOf, type CheckContext, type CheckName, type Replay, type RunRecord, type Severity } from '../../oracle/index.js';
import type { Progress } from './options.js';
import { planOf, type PhasePlan } from './plan.js';
import type { ReportedFinding } from './record.js';
import { replayCount } from './replays.js';
import { reportedOutcome, reportedRequest, toCurl, type ReportedSecret } from './reported.js';
import type { RunFinding } from './run-checks.js';
import { minimise, type CaseReplay, type Found, type ShrinkParts } from './shrink.js';
import { findingKey, type RunExchange, type Tally } from './tally.js';

export interface FindingParts extends ShrinkParts {
  readonly plans: readonly PhasePlan[];
  readonly tally: Tally;
  readonly runFindings: ReadonlyMap<string, RunFinding>;
  readonly run: RunRecord;
  readonly context: CheckContext;
  readonly base: URL;
  readonly token: string;
  /** The run's credentials per scheme, hidden as the token is (credentials.ts). */
  readonly secrets?: readonly ReportedSecret[];
  readonly onProgress: ((progress: Progress) => void) | undefined;
}

export interface Findings {
  /** In check order, failures and warnings together. */
  readonly reported: readonly ReportedFinding[];
  /** Verdicts of checks confirmed by replay that no replay confirmed, per check. */
  readonly unconfirmed: Partial<Record<CheckName, number>>;
}

const SEVERITIES = ['failure', 'warning'] as const;

export async function reportFindings(parts: FindingParts): Promise<Findings> {
  const { tally, runFindings } = parts;
  const keys = CHECK_NAMES.flatMap((name) => SEVERITIES.map((severity) => ({ name, severity }))).filter(({ name, severity }) => tally.firsts.has(findingKey(name, severity)) || runFindings.has(findingKey(name, severity)));
  const reported: ReportedFinding[] = [];
  const unconfirmed: Partial<Record<CheckName, number>> = {};
  const minimal: Found[] = [];
  let shrunk = 0;
  for (const { name, severity } of keys) {
    parts.onProgress?.({ phase: 'shrinking', done: shrunk++, total: keys.length, findings: tally.findings });
    const replay = replayOf(name, severity, parts.run, parts.context);
    const caseReplay = { times: replay.times, waitsForLateBytes: replay.waitsForLateBytes, dropsUnconfirmed: replay.dropsUnconfirmed, shows: (exchanges: readonly RunExchange[]): boolean => exchanges.some((e) => replay.shows(e)) };
    const verdict = runFindings.get(findingKey(name, severity));
    const found = await findCase(name, severity, caseReplay, minimal, parts);
    if (found === 'dropped') {
      unconfirmed[name] = (unconfirmed[name] ?? 0) + tally.dropUnconfirmed(name, severity);
      continue;
    }
    if (!found || found.exchanges.length === 0) {
      // A run check's finding about the run as a whole: nothing to replay.
      if (verdict) reported.push(wholeRunFinding(verdict.check, severity, verdict.message, tally, parts.seed));
      continue;
    }
    const finding = reportedFinding(name, severity, found, replay, verdict, parts);
    const culprit = culpritOf(found, replay);
    if (finding && culprit) reported.push({ ...finding, replays: await replayCount(culprit, caseReplay.shows, parts) });
  }
  return { reported, unconfirmed };
}

/** The minimal case showing a finding: one already found, the first case shrunk, or a run check's candidate that a replay alone shows again; 'dropped' when no replay confirmed a finding that needs it. */
async function findCase(name: CheckName, severity: Severity, replay: CaseReplay & Pick<Replay, 'dropsUnconfirmed'>, minimal: Found[], parts: FindingParts): Promise<Found | undefined | 'dropped'> {
  const first = parts.tally.firsts.get(findingKey(name, severity));
  // Another check's shrunk case that shows this finding is reused - unless the finding needs
  // replays in a row to confirm it: that case was sent for another reason, and one slow answer in
  // it is a moment of the run, not a confirmation.
  let found: Found | undefined = replay.dropsUnconfirmed ? undefined : minimal.find((m) => replay.shows(m.exchanges));
  if (!found && first) {
    found = await minimise({ plan: planOf(parts.plans, first.phase), phase: first.phase, item: first.item, exchanges: first.exchanges }, replay, parts);
    minimal.push(found);
  }
  const verdict = parts.runFindings.get(findingKey(name, severity));
  if (found || !verdict || verdict.candidates.length === 0) return found;
  // A run check's finding about single exchanges (a slow answer): the first candidate that shows it
  // again when replayed alone - the others may only have waited behind it.
  for (const candidate of verdict.candidates) {
    const plan = planOf(parts.plans, candidate.phase);
    const item = plan?.caseAt(candidate.index);
    if (!item) continue;
    const attempt = await minimise({ plan, phase: candidate.phase, item: { ...item, fresh: candidate.fresh } }, replay, parts);
    found ??= { ...attempt, message: candidate.message };
    if (attempt.reproduced) {
      found = { ...attempt, message: candidate.message };
      break;
    }
  }
  if (found?.reproduced === true) minimal.push(found);
  // Not shown again by any replay alone: a moment of the run, not a finding (the report keeps the count).
  else if (replay.dropsUnconfirmed) return 'dropped';
  return found;
}

/** The exchange of a found case that shows the finding: its last when none does (any longer). */
function culpritOf(found: Found, replay: Replay): RunExchange | undefined {
  return found.exchanges.find((e) => replay.shows(e)) ?? found.exchanges[found.exchanges.length - 1];
}

/** A finding with its minimal request, the requests before it in its case, its answer. */
function reportedFinding(name: CheckName, severity: Severity, found: Found, replay: Replay, verdict: RunFinding | undefined, parts: FindingParts): ReportedFinding | undefined {
  const culprit = culpritOf(found, replay);
  if (!culprit) return undefined;
  const before = found.exchanges.slice(0, found.exchanges.indexOf(culprit));
  const { base, token, secrets } = parts;
  return {
    check: name,
    severity,
    message: culprit.findings.find((f) => f.check === name && f.severity === severity)?.message ?? (found.reproduced ? replay.explain(culprit) : undefined) ?? found.message ?? verdict?.message ?? '',
    phase: found.phase,
    request: reportedRequest(base, culprit.request, token, secrets),
    setup: before.map((e) => reportedRequest(base, e.request, token, secrets)),
    curl: [...before, culprit].map((e) => toCurl(base, e.request, token, secrets)).join('\n'),
    response: reportedOutcome(culprit.outcome),
    ...(culprit.fresh ? { fresh: true } : {}),
    occurrences: parts.tally.occurrences(name, severity),
    reproduced: found.reproduced,
    shrinks: found.shrinks,
    seed: parts.seed,
    ...(found.path === undefined ? {} : { path: found.path }),
  };
}

/** A run check's finding about the run as a whole: no request to show. */
function wholeRunFinding(check: CheckName, severity: Severity, message: string, tally: Tally, seed: number): ReportedFinding {
  return { check, severity, message, setup: [], occurrences: tally.occurrences(check, severity), reproduced: false, shrinks: 0, seed };
}
