/**
 * A finished run as text, for people: a line per check, then each finding with its minimal request
 * as a `curl` command (with `$TOKEN` for the token), failures first. The words and lines here are
 * shared by the JUnit and HTML reports.
 */
import { CHECK_NAMES, type CheckName } from '../../oracle/index.js';
import type { CheckSummary, GrowthSummary, Report, ReportedContract, ReportedFinding, ReportedOutcome } from '../run/record.js';
import { replayCommand } from '../run/reported.js';
import { operationLine } from '../run/operation-rows.js';
import { replayLabel } from './replay-label.js';

/** The contract as a report names it: title and version, and the file where it is not the kit's own openapi.yaml. */
export function contractName(contract: ReportedContract): string {
  return `${contract.title} ${contract.version}${contract.bundled ? '' : ` (${contract.file})`}`;
}

/** A wall time for people, in seconds. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters; the full command is in the --json report)` : text;
}

function describeOutcome(outcome: ReportedOutcome, maxChars: number): string {
  if (outcome.kind === 'failure') return `no response: ${outcome.failure} - ${outcome.message}`;
  const headers = ['content-type', 'www-authenticate', 'allow'].flatMap((h) => (outcome.headers[h] === undefined ? [] : [`${h}: ${outcome.headers[h]}`]));
  return `HTTP ${outcome.status}${headers.length > 0 ? `  ${headers.join('  ')}` : ''}\n${shorten(outcome.body || '(empty body)', maxChars)}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => by + line)
    .join('\n');
}


const SEVERITY_WORD = { failure: 'FAILED', warning: 'WARNING' } as const;

/** How a finding's request was found: shrunk, minimal already, sent in every run, or not shown again. */
export function howFound(finding: ReportedFinding): string {
  return !finding.reproduced
    ? 'did not show it again when replayed alone (intermittent, or it depends on earlier requests); shown as first seen'
    : finding.shrinks > 0
      ? `shrunk in ${finding.shrinks} steps`
      : finding.phase === 'random' || finding.phase === 'stateful'
        ? 'already minimal'
        : `a ${finding.phase} request, sent in every run`;
}

/** `; reproduced 3 of 3` after a finding's count, where its request was replayed. */
function withLabel(finding: ReportedFinding): string {
  const label = replayLabel(finding);
  return label === undefined ? '' : `; ${label}`;
}

export function describeFinding(finding: ReportedFinding, report: Report, maxChars: number): string {
  const head = `${SEVERITY_WORD[finding.severity]} ${finding.check}: ${finding.message}`;
  const times = `${finding.occurrences} of ${report.requests} requests`;
  if (finding.request === undefined || finding.curl === undefined || finding.response === undefined) {
    return [head, `  found in the run as a whole (${times} were looked at together); replay with: ${replayCommand(report)}`].join('\n');
  }
  const how = howFound(finding);
  return [
    head,
    `  request (${finding.request.kind}${finding.request.variant ? `: ${finding.request.variant}` : ''}), ${how}:`,
    indent(shorten(finding.curl, maxChars), '    '),
    '  response:',
    indent(describeOutcome(finding.response, maxChars), '    '),
    `  ${times} ${finding.severity === 'failure' ? 'broke' : 'warned of'} ${finding.check}${withLabel(finding)}; replay with: ${replayCommand(report)}`,
  ].join('\n');
}

/** A time for people: whole milliseconds from 100 ms, two significant digits below. */
export function humanMs(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toPrecision(2)} ms`;
}

/** Capacity, connections, response times and the canary, a line each. */
export function timeAndCapacity(report: Report): string[] {
  const lines: string[] = [];
  const capacity = report.capacity;
  if (capacity) {
    const what = capacity.stores ? 'plants stored' : 'plants answered (a mock stores nothing)';
    const budget =
      capacity.gaveUp !== undefined
        ? `stopped after ${capacity.sent} of ${capacity.target}: ${capacity.gaveUp}`
        : capacity.budgetHit
          ? `the ${seconds(capacity.budgetMs)} budget ran out after ${capacity.sent} of ${capacity.target}`
          : `all ${capacity.target} sent within the ${seconds(capacity.budgetMs)} budget`;
    const replaced = capacity.replacementsSent > 0 ? `; then ${capacity.replaced} of ${capacity.replacementsSent} replaced` : '';
    const readBack = capacity.readBack === undefined ? '' : `; ${capacity.readBack} stored plants read back (resource-available)`;
    lines.push(`capacity: ${capacity.stored} ${what}, ${capacity.refused} refused (${budget})${replaced}${readBack}`);
  }
  lines.push(`connections: ${report.freshConnections} opened for one request each (Connection: close), besides the kept-alive ones`);
  const times = report.responseTimes;
  if (times.responses > 0) {
    const unconfirmed = times.unconfirmed > 0 ? `; ${times.unconfirmed} over it during the run but not when replayed alone` : '';
    lines.push(`response times: median ${humanMs(times.medianMs)}, p99 ${humanMs(times.p99Ms)}, slowest ${humanMs(times.maxMs)} (bound ${humanMs(times.boundMs)}${unconfirmed})`);
  }
  const trend = report.degradation.trend;
  if (trend) {
    const control = trend.controlQuartersMs === undefined ? '' : `; control ${humanMs(trend.controlQuartersMs[0] ?? 0)} then ${humanMs(trend.controlQuartersMs[3] ?? 0)}: canary × ${trend.ratio.toFixed(2)}, control × ${(trend.controlRatio ?? 1).toFixed(2)}`;
    lines.push(`canary: ${humanMs(trend.firstMs)} at first, ${humanMs(trend.lastMs)} at last (${trend.readings} readings, Mann–Kendall z = ${trend.z.toFixed(2)}${control})`);
  } else if (report.degradation.notJudged !== undefined) {
    lines.push(`canary: degradation not exercised: ${report.degradation.notJudged}`);
  }
  for (const growth of report.degradation.growth ?? []) lines.push(growthLine(growth));
  return lines;
}

/** A growth probe's line: its time at first and at last against what the target held, or how many readings it had. */
function growthLine(growth: GrowthSummary): string {
  const { trend, readings } = growth;
  const held = `${readings[0]?.holds ?? 0} to ${readings[readings.length - 1]?.holds ?? 0} ${GROWTH_HELD[growth.measure]}`;
  if (trend === undefined) return `growth (${growth.measure}): ${readings.length} readings, too few to judge (${held})`;
  const control = trend.controlQuartersMs === undefined ? '' : `; control × ${(trend.controlRatio ?? 1).toFixed(2)}`;
  return `growth (${growth.measure}): ${humanMs(trend.firstMs)} at first, ${humanMs(trend.lastMs)} at last, over ${held} (${trend.readings} readings, Mann–Kendall z = ${trend.z.toFixed(2)}, × ${trend.ratio.toFixed(2)}${control})`;
}

const GROWTH_HELD: Readonly<Record<GrowthSummary['measure'], string>> = { entries: 'plants stored', connections: 'connections closed' };

/** A check's verdict in a run, from its summary. */
export function checkStatus({ failures, warnings, requests, notApplicable }: CheckSummary): string {
  if (failures > 0) return 'FAILED';
  if (warnings > 0) return 'warning';
  if (requests > 0) return 'ok';
  return notApplicable === undefined ? 'not exercised' : 'does not apply';
}

/** The checks that do not apply to the run, a line per reason: `deleted-stays-deleted, replacement-visible do not apply: …`. */
export function notApplicableLines(report: Report): string[] {
  const byReason = new Map<string, CheckName[]>();
  for (const name of CHECK_NAMES) {
    const reason = report.checks[name].notApplicable;
    if (reason !== undefined) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  return [...byReason].map(([reason, names]) => `${names.join(', ')} ${names.length === 1 ? 'does' : 'do'} not apply: ${reason}`);
}

/** The run as text: a line per check, then each finding with its minimal request, failures first. */
export function formatReport(report: Report, options: { maxChars?: number; strict?: boolean } = {}): string {
  const maxChars = options.maxChars ?? 2000;
  const width = Math.max(...CHECK_NAMES.map((n) => n.length));
  const phases = Object.entries(report.phases).map(([phase, summary]) => `${phase} ${summary.requests}`);
  const lines = [
    `${contractName(report.contract)} at ${report.target} (profile ${report.profile}, seed ${report.seed})`,
    `${report.requests} requests checked in ${seconds(report.checkingMs)} (${Math.round(report.requestsPerSecond)} requests/s; ${phases.join(', ')}); ${CHECK_NAMES.length} checks`,
    ...timeAndCapacity(report),
    '',
    `${'check'.padEnd(width)}  requests  failures  warnings`,
    ...CHECK_NAMES.map((name) => {
      const { requests, failures, warnings } = report.checks[name];
      return `${name.padEnd(width)}  ${String(requests).padStart(8)}  ${String(failures).padStart(8)}  ${String(warnings).padStart(8)}  ${checkStatus(report.checks[name])}`;
    }),
  ];
  const notApplicable = notApplicableLines(report);
  if (notApplicable.length > 0) lines.push('', ...notApplicable);
  if (report.notChecked !== undefined) lines.push('', 'Not checked:', ...report.notChecked.map((line) => `  ${line}`));
  if (report.operations !== undefined && report.operations.length > 0) lines.push('', 'Per operation:', ...report.operations.map((row) => `  ${operationLine(row)}`));
  lines.push(...securityLines(report));
  if (report.stoppedEarly) lines.push('', `Stopped early: ${report.stoppedEarly}.`);
  const hint = tokenHint(report);
  if (hint !== undefined) lines.push('', hint);
  for (const finding of [...report.failures, ...report.warnings]) lines.push('', describeFinding(finding, report, maxChars));
  const verdict = runStatus(report, options.strict === true);
  const warned = verdict.warned;
  const warningNote = warned.length === 0 ? '' : ` ${warned.length} warning${warned.length === 1 ? '' : 's'} (${warned.join(', ')}): hazards the contract allows${options.strict === true ? ', failing the run under --strict' : ''}.`;
  const untested = report.security?.notTested.length ?? 0;
  const untestedNote = untested === 0 ? '' : ` ${untested} operation${untested === 1 ? '' : 's'} not tested (no credentials; see above).`;
  lines.push(
    '',
    verdict.kept
      ? `The target kept the contract (seed ${report.seed}; ${seconds(report.durationMs)}).${warningNote}${untestedNote}`
      : `The target broke the contract: ${verdict.broken.join(', ') || 'see above'} (seed ${report.seed}; ${seconds(report.durationMs)}).${warningNote} Commands use $TOKEN for your token.`,
  );
  return lines.join('\n');
}

/** The schemes the run sent credentials of, and each operation not tested for lack of credentials (never counted as passed). */
export function securityLines(report: Report): string[] {
  const security = report.security;
  if (security === undefined || (security.exercised.length === 0 && security.notTested.length === 0)) return [];
  return [
    '',
    `security schemes exercised: ${security.exercised.length === 0 ? 'none' : security.exercised.join(', ')}`,
    ...security.notTested.map(({ operation, reason }) => `not tested: ${operation}: ${reason}`),
  ];
}

/** Every valid request refused with 401 is most likely the wrong --token, not a broken target. */
export function tokenHint(report: Report): string | undefined {
  const accepts = report.checks['accepts-valid'];
  const refused = report.failures.find((f) => f.check === 'accepts-valid')?.response;
  const allRefused = accepts.requests > 0 && accepts.failures === accepts.requests && refused?.kind === 'response' && refused.status === 401;
  return allRefused ? 'Every valid request got 401: is --token a token the implementation accepts?' : undefined;
}

/**
 * The run's verdict: kept when no check failed and every request was sent (`report.passed`) and,
 * under `--strict`, no check warned. `broken` names the checks that broke it.
 */
export function runStatus(report: Report, strict: boolean): { readonly kept: boolean; readonly broken: readonly CheckName[]; readonly warned: readonly CheckName[] } {
  const warned = report.warnings.map((w) => w.check);
  return {
    kept: report.passed && !(strict && warned.length > 0),
    broken: [...report.failures.map((f) => f.check), ...(strict ? warned : [])],
    warned,
  };
}
