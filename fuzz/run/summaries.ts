/** The record of a finished run (record.ts), made from the tally, the run checks' record and the reported findings. */
import { performance } from 'node:perf_hooks';
import { defaultContractFile, type Contract } from '../../src/openapi/index.js';
import { canaryTrend, GROWTH_MEASURES, growthTrend, CHECK_NAMES, mediaTypesNotChecked, checkNamed, notJudgedReason, responseTimeBound, round, type CheckName, type RunRecord } from '../../oracle/index.js';
import { CANARY_SENDS } from './canary.js';
import type { Findings } from './findings.js';
import type { QualifiedOptions } from './options.js';
import { planOf, type PhasePlan } from './plan.js';
import type { CapacitySummary, CheckSummary, GrowthSummary, Report, ReportedContract } from './record.js';
import { statefulNotApplicable } from './stateful-plan.js';
import type { Tally } from './tally.js';
import { securitySummary } from './credentials.js';
import { operationRows } from './operation-rows.js';

/** Slowest responses in a report. */
const SLOWEST_REPORTED = 10;

/** Wall times of the run, from performance.now(). */
export interface RunTimes {
  /** When the run began. */
  readonly started: number;
  /** How long its phases took. */
  readonly checkingMs: number;
}

/** The contract as reports name it; the kit's own openapi.yaml is the one a replay needs no `--contract` for. */
function reportedContract(contract: Contract): ReportedContract {
  return { title: contract.title, version: contract.version, file: contract.file, bundled: contract.file === defaultContractFile() };
}

/** Each check's counts, with why it does not apply where it judged nothing and the profile or the contract gives it nothing to judge. */
function checkSummaries(options: QualifiedOptions, counts: Readonly<Record<CheckName, CheckSummary>>): Record<CheckName, CheckSummary> {
  const byContract = statefulNotApplicable(options.contract);
  return Object.fromEntries(
    CHECK_NAMES.map((name) => {
      const reason = checkNamed(name).skippedUnder?.[options.profile] ?? byContract[name];
      return [name, counts[name].requests === 0 && reason !== undefined ? { ...counts[name], notApplicable: reason } : counts[name]];
    }),
  ) as Record<CheckName, CheckSummary>;
}

function capacitySummary(options: QualifiedOptions, tally: Tally, target: number): CapacitySummary {
  const counts = tally.capacity;
  return {
    target,
    sent: counts.sent,
    stored: counts.stored,
    refused: counts.refused,
    replacementsSent: counts.replacementsSent,
    replaced: counts.replaced,
    ...(counts.readsSent > 0 ? { readBack: counts.readsSent } : {}),
    budgetMs: options.capacityBudgetMs,
    budgetHit: counts.budgetHit,
    ...(counts.gaveUp === undefined ? {} : { gaveUp: counts.gaveUp }),
    stores: options.profile !== 'mock',
  };
}

/** The media types the run could not check, where there are any (mediaTypesNotChecked). */
function notCheckedOf(options: QualifiedOptions): { notChecked?: readonly string[] } {
  const notChecked = mediaTypesNotChecked(options.contract.operations);
  return notChecked.length === 0 ? {} : { notChecked };
}

/** Each growth probe's readings and, with enough of them, their trend. */
function growthSummaries(run: RunRecord): GrowthSummary[] {
  return GROWTH_MEASURES.map((measure) => {
    const readings = (run.growth ?? []).filter((r) => r.measure === measure);
    const trend = growthTrend(readings, measure);
    return { measure, readings, ...(trend === undefined ? {} : { trend }) };
  }).filter((g) => g.readings.length > 0);
}

export function reportOf(options: QualifiedOptions, tally: Tally, plans: readonly PhasePlan[], run: RunRecord, findings: Findings, times: RunTimes & { readonly capacityTarget: number }): Report {
  const failures = findings.reported.filter((f) => f.severity === 'failure');
  const failed = new Set(failures.map((f) => f.check));
  const bound = responseTimeBound(run);
  const trend = canaryTrend(run.canary);
  const { checkingMs } = times;
  const stoppedEarly = tally.stoppedEarly;
  const checks = checkSummaries(options, tally.checks);
  const security = securitySummary(options.contract, options);
  return {
    target: options.base.href,
    contract: reportedContract(options.contract),
    profile: options.profile,
    seed: options.seed,
    runs: planOf(plans, 'random')?.total() ?? options.runs,
    requests: tally.requests,
    kinds: tally.kinds,
    phases: tally.phases,
    checkingMs,
    durationMs: performance.now() - times.started,
    requestsPerSecond: checkingMs > 0 ? (tally.requests * 1000) / checkingMs : 0,
    freshConnections: tally.freshConnections,
    ...(options.phases.includes('capacity') ? { capacity: capacitySummary(options, tally, times.capacityTarget) } : {}),
    responseTimes: {
      ...tally.timeline.summary(),
      boundMs: round(bound.boundMs),
      maxResponseTimeMs: bound.maxResponseTimeMs,
      factor: bound.factor,
      unconfirmed: findings.unconfirmed['response-time'] ?? 0,
      slowest: tally.timeline.slowest(SLOWEST_REPORTED),
    },
    degradation: { intervalMs: options.canaryIntervalMs, sends: CANARY_SENDS, readings: run.canary, ...(trend === undefined ? { notJudged: notJudgedReason(run.canary) ?? '' } : { trend }), growth: growthSummaries(run) },
    checks,
    security,
    failures,
    warnings: findings.reported.filter((f) => f.severity === 'warning' && !failed.has(f.check)),
    ...notCheckedOf(options),
    operations: operationRows(options.contract, tally.operations, checks, security.notTested),
    ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
    passed: failures.length === 0 && stoppedEarly === undefined,
  };
}
