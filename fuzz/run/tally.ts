/**
 * The tally (fast-check's execution record, in spirit): the one place a run's counts are written -
 * exchanges, kinds, each check's requests, failures and warnings, the first finding of each check
 * and severity, the timeline, the capacity phase's counts, timeouts. Only counts, the bounded
 * timeline and those first findings are kept: memory stays flat for any length of run.
 */
import { applicableChecks, CHECK_NAMES, operationOf, type CheckName, type Finding, type JudgedExchange, type Phase, type Severity, type TimedExchange } from '../../oracle/index.js';
import { KIND_NAMES } from '../generation/kinds/index.js';
import { RunTimeline } from './timeline.js';
import type { Writable } from '../writable.js';
import { countCapacityAnswer, newCapacityCounts, type CapacityCounts } from './capacity-plan.js';
import type { QualifiedOptions } from './options.js';
import type { PlanItem } from './plan.js';
import type { PhaseSummary } from './record.js';
import type { OperationCounts } from './operation-rows.js';

/** One exchange of the run: the oracle's judged exchange (the request, what came back, the exchange checks' findings), when and how it was sent. */
export interface RunExchange extends JudgedExchange {
  /** Since the run began. */
  readonly startedMs: number;
  readonly fresh: boolean;
}

/** Where a case's exchanges sit in the run: its phase (in the order of the run) and its case. */
export interface Place {
  readonly phase: Phase;
  readonly order: number;
  readonly item: PlanItem;
}

/** The first case of the run that showed a finding of a check and severity. */
export interface First extends Place {
  readonly exchanges: readonly RunExchange[];
}

type Counts = { requests: number; failures: number; warnings: number };

export function findingKey(check: CheckName, severity: Severity): string {
  return `${check} ${severity}`;
}

const SEVERITIES = ['failure', 'warning'] as const;
const countOf = (severity: Severity): 'failures' | 'warnings' => (severity === 'failure' ? 'failures' : 'warnings');

export class Tally {
  readonly checks = Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 0, failures: 0, warnings: 0 }])) as Record<CheckName, Counts>;
  readonly kinds: Record<string, number> = Object.fromEntries(KIND_NAMES.map((name) => [name, 0]));
  readonly phases: Partial<Record<Phase, PhaseSummary>> = {};
  readonly timeline = new RunTimeline();
  readonly capacity: CapacityCounts = newCapacityCounts();
  readonly firsts = new Map<string, First>();
  /** Per operationId (report.operations). */
  readonly operations = new Map<string, OperationCounts>();
  requests = 0;
  freshConnections = 0;
  /** Findings so far, failures and warnings together (for progress). */
  findings = 0;
  stoppedEarly: string | undefined;
  private timeouts = 0;

  constructor(
    private readonly options: Pick<QualifiedOptions, 'contract' | 'profile' | 'maxTimeouts' | 'timeoutMs'>,
    /** The capacity phase's target: its cases from this index on are replacements. */
    private readonly capacityTarget: number,
  ) {}

  /** A case's exchanges, done: counted, each into the timeline; `probe` for the canary's, counted apart from the kinds. */
  record(place: Place, exchanges: readonly RunExchange[], probe?: 'canary'): void {
    for (const exchange of exchanges) {
      this.requests++;
      if (exchange.fresh) this.freshConnections++;
      // The canary is counted apart (report.degradation): how often it is read depends on time, not on the seed.
      if (probe === undefined) this.kinds[exchange.request.kind] = (this.kinds[exchange.request.kind] ?? 0) + 1;
      const applied = applicableChecks(exchange.request, exchange.outcome, this.options.contract, { profile: this.options.profile });
      for (const name of applied) this.checks[name].requests++;
      this.countOperation(exchange, applied);
      if (exchange.findings.length > 0) this.countFindings(exchange.findings, { ...place, exchanges });
      if (exchange.outcome.kind === 'failure' && exchange.outcome.failure === 'timeout') this.timeouts++;
      const status = this.addToTimeline(place, exchange, probe);
      if (place.phase === 'capacity' && probe === undefined) countCapacityAnswer(this.capacity, place.item.index, this.capacityTarget, typeof status === 'number' && status >= 200 && status < 300);
    }
    if (this.timeouts >= this.options.maxTimeouts) this.stoppedEarly ??= `the target timed out on ${this.timeouts} requests (${this.options.timeoutMs} ms each); no further requests were started`;
  }

  /**
   * Findings of one exchange of a case: counted per request and check (one response can break a
   * check in more than one way), and noted where they are the first of their check and severity.
   */
  countFindings(findings: readonly Finding[], at: First): void {
    for (const severity of SEVERITIES) {
      for (const check of new Set(findings.filter((f) => f.severity === severity).map((f) => f.check as CheckName))) {
        this.checks[check][countOf(severity)]++;
        this.noteFirst(check, severity, at);
      }
    }
    this.findings += findings.length;
  }

  /** An exchange of an operation of the contract, and the checks that judged it; one for no operation (a wrong target) is not an operation's. */
  private countOperation(exchange: RunExchange, applied: readonly CheckName[]): void {
    const operation = operationOf(this.options.contract, exchange.request);
    if (operation === undefined) return;
    let counts = this.operations.get(operation.operationId);
    if (counts === undefined) this.operations.set(operation.operationId, (counts = { requests: 0, checks: new Map() }));
    counts.requests++;
    for (const name of applied) counts.checks.set(name, (counts.checks.get(name) ?? 0) + 1);
  }

  /** A run check's verdict. */
  countRunVerdict(check: CheckName, severity: Severity): void {
    this.checks[check][countOf(severity)]++;
    this.findings++;
  }

  /** What a run check looked at. */
  countLookedAt(check: CheckName, requests: number): void {
    this.checks[check].requests = requests;
  }

  /** A check's verdicts no replay confirmed: they are no finding; returns how many there were. */
  dropUnconfirmed(check: CheckName, severity: Severity): number {
    const counted = this.checks[check][countOf(severity)];
    this.checks[check][countOf(severity)] = 0;
    this.findings -= counted;
    return counted;
  }

  /** Exchanges with a finding of this check and severity. */
  occurrences(check: CheckName, severity: Severity): number {
    return this.checks[check][countOf(severity)];
  }

  private noteFirst(check: CheckName, severity: Severity, candidate: First): void {
    const known = this.firsts.get(findingKey(check, severity));
    if (!known || known.order > candidate.order || (known.order === candidate.order && known.item.index > candidate.item.index)) this.firsts.set(findingKey(check, severity), candidate);
  }

  private addToTimeline(place: Place, exchange: RunExchange, probe: 'canary' | undefined): number | string {
    const status = exchange.outcome.kind === 'response' ? exchange.outcome.status : exchange.outcome.failure;
    const request = exchange.request;
    const timed: Writable<TimedExchange> = {
      phase: place.phase,
      index: place.item.index,
      kind: request.kind,
      variant: request.variant,
      content: request.content,
      credentials: request.credentials,
      startedMs: exchange.startedMs,
      durationMs: exchange.outcome.durationMs,
      status,
    };
    if (exchange.fresh) timed.fresh = true;
    if (probe !== undefined) timed.probe = probe;
    this.timeline.add(timed);
    return status;
  }
}
