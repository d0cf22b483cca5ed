/**
 * A row per operation of the contract (issue 29, item 9): the exchanges sent to it, the checks
 * that judged them, the ones that judged none and why, and what of it the kit cannot check. One
 * structure for every report: the JSON report holds it, text, JUnit and HTML show it.
 */
import type { Contract } from '../../src/openapi/index.js';
import { operationLabel } from './credentials.js';
import { EXCHANGE_CHECKS, operationMediaNotChecked, type CheckName } from '../../oracle/index.js';
import type { CheckSummary, ChecksNotApplicable, OperationRow } from './record.js';

/** An operation's exchanges, and how many of them each exchange check judged (counted by the tally). */
export interface OperationCounts {
  requests: number;
  readonly checks: Map<CheckName, number>;
}

/** Why a check judged none of an operation's exchanges though it applies to the run. */
export const NOT_EXERCISED_HERE = 'no exchange of this operation was one it judges';

/** The checks that judged none of the operation's exchanges, grouped by the run's reason, else NOT_EXERCISED_HERE. */
function notApplicableOf(counts: OperationCounts | undefined, checks: Readonly<Record<CheckName, CheckSummary>>, notTested: string | undefined): ChecksNotApplicable[] {
  const byReason = new Map<string, CheckName[]>();
  for (const { name } of EXCHANGE_CHECKS) {
    if ((counts?.checks.get(name) ?? 0) > 0) continue;
    const reason = checks[name].notApplicable ?? notTested ?? NOT_EXERCISED_HERE;
    byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  return [...byReason].map(([reason, names]) => ({ checks: names, reason }));
}

/** Every operation of the contract, in its order, as the run saw it. */
export function operationRows(
  contract: Contract,
  counted: ReadonlyMap<string, OperationCounts>,
  checks: Readonly<Record<CheckName, CheckSummary>>,
  notTested: readonly { readonly operation: string; readonly reason: string }[],
): OperationRow[] {
  const unreachable = new Map(notTested.map(({ operation, reason }) => [operation, reason]));
  return contract.operations.map((operation): OperationRow => {
    const label = operationLabel(operation);
    const counts = counted.get(operation.operationId);
    const reason = unreachable.get(label);
    return {
      operation: label,
      requests: counts?.requests ?? 0,
      checks: Object.fromEntries(counts?.checks ?? []),
      notApplicable: notApplicableOf(counts, checks, reason === undefined ? undefined : `not tested: ${reason}`),
      notChecked: operationMediaNotChecked(operation),
      ...(reason === undefined ? {} : { notTested: reason }),
    };
  });
}

/** A row as one line of text: `listSeeds (GET /seeds): 120 requests, 14 checks applied; not checked: …; not tested: …`. */
export function operationLine(row: OperationRow): string {
  const applied = Object.keys(row.checks).length;
  const parts = [`${row.requests} request${row.requests === 1 ? '' : 's'}, ${applied} check${applied === 1 ? '' : 's'} applied`];
  if (row.notChecked.length > 0) parts.push(`not checked: ${row.notChecked.join('; ')}`);
  if (row.notTested !== undefined) parts.push(`not tested: ${row.notTested}`);
  return `${row.operation}: ${parts.join('; ')}`;
}

/** A row in full, a line a part: what JUnit prints for the operation's case. */
export function operationDetails(row: OperationRow): string[] {
  const applied = Object.entries(row.checks).map(([name, judged]) => `${name} ${judged}`);
  return [
    `${row.requests} request${row.requests === 1 ? '' : 's'} sent`,
    `checks applied (requests judged): ${applied.length === 0 ? 'none' : applied.join(', ')}`,
    ...row.notApplicable.map(({ checks, reason }) => `${checks.join(', ')} ${checks.length === 1 ? 'does' : 'do'} not apply: ${reason}`),
    ...row.notChecked.map((line) => `not checked: ${line}`),
    ...(row.notTested === undefined ? [] : [`not tested: ${row.notTested}`]),
  ];
}
