/**
 * The one assertion the conformance tests make of a faulty implementation: the run failed the
 * check that names its defect, and no other but those the implementation says it touches.
 */
import { expect } from 'vitest';
import { formatReport, type CheckName, type Report, type ReportedFinding } from '../../fuzz/index.js';

/** What a faulty implementation promises of a run against it. */
export interface Caught {
  readonly caughtBy: CheckName;
  /** Other checks its defect breaks, each with its reason. */
  readonly touches?: Partial<Record<CheckName, string>>;
}

/** Asserts the run was caught by the implementation's check alone (but those it touches); its finding, and the report as text for further messages. */
export function expectCaughtByItsCheck(report: Report, implementation: Caught): { readonly finding: ReportedFinding | undefined; readonly text: string } {
  const text = formatReport(report);
  const failed = report.failures.map((f) => f.check);
  expect(failed, text).toContain(implementation.caughtBy);
  expect(failed.filter((check) => check !== implementation.caughtBy && implementation.touches?.[check] === undefined), text).toEqual([]);
  return { finding: report.failures.find((f) => f.check === implementation.caughtBy), text };
}
