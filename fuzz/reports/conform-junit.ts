/** A finished conform run as JUnit XML: one test case per check, and one per operation (the writer is junit.ts). */
import { CHECKS, junitXml, type JUnitCase, type JUnitGroup } from '../../oracle/index.js';
import { operationDetails } from '../run/operation-rows.js';
import type { OperationRow, Report } from '../run/record.js';
import { contractName, describeFinding } from './text.js';

/**
 * JUnit XML (the format Jenkins, GitLab and GitHub test reporters read): one test case per check.
 * A failure is a <failure>; a warning is printed in the case's <system-out> and, under `strict`,
 * is a <failure> too. A second suite holds a case per operation (report.operations): skipped
 * where the run could not reach it, else passed with its row printed - the checks' cases judge.
 */
export function toJUnit(report: Report, options: { strict?: boolean } = {}): string {
  const strict = options.strict === true;
  const failed = new Map(report.failures.map((f) => [f.check, f]));
  const warned = new Map(report.warnings.map((f) => [f.check, f]));
  const cases: JUnitCase[] = CHECKS.map(({ name }): JUnitCase => {
    const failure = failed.get(name) ?? (strict ? warned.get(name) : undefined);
    const warning = warned.get(name);
    if (failure) return { name, outcome: { kind: 'failure', message: failure.message, type: failure.severity === 'failure' ? name : `${name} (warning, --strict)`, text: describeFinding(failure, report, 100_000) } };
    if (warning) return { name, outcome: { kind: 'output', text: describeFinding(warning, report, 100_000) } };
    const { requests, notApplicable } = report.checks[name];
    if (notApplicable !== undefined) return { name, outcome: { kind: 'skipped', message: `does not apply: ${notApplicable}` } };
    if (requests === 0) return { name, outcome: { kind: 'skipped', message: 'no request exercised this check' } };
    return { name, outcome: { kind: 'passed' } };
  });
  if (report.stoppedEarly !== undefined) cases.push({ name: 'run completed', outcome: { kind: 'error', message: report.stoppedEarly } });
  return junitXml({
    tool: 'conform',
    name: `${contractName(report.contract)} at ${report.target}`,
    durationMs: report.durationMs,
    properties: [
      ['seed', report.seed],
      ['runs', report.runs],
      ['profile', report.profile],
      ['requests', report.requests],
      ['warnings', report.warnings.length],
      ['strict', strict],
    ],
    cases,
    groups: report.operations === undefined ? [] : [operationsGroup(report.operations)],
  });
}

/** The operations' suite: a case per operation, its row in its <system-out>, skipped where no request reached it. */
function operationsGroup(rows: readonly OperationRow[]): JUnitGroup {
  const cases = rows.map((row): JUnitCase => {
    if (row.notTested !== undefined) return { name: row.operation, outcome: { kind: 'skipped', message: `not tested: ${row.notTested}` } };
    if (row.requests === 0) return { name: row.operation, outcome: { kind: 'skipped', message: 'no request was sent to it' } };
    return { name: row.operation, outcome: { kind: 'output', text: operationDetails(row).join('\n') } };
  });
  return { name: 'operations', word: 'operation', cases };
}
