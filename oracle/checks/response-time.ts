/**
 * `response-time`: no answer takes longer than the run's bound, the larger of an absolute time
 * (`--max-response-time`, 1 s by default) and ten times the run's median response time.
 *
 * Both parts, because each alone misleads. An absolute bound alone flags a server that is slow
 * throughout by design (a remote database, 300 ms for every answer) on its ordinary spread; a
 * relative one alone flags a fast server's garbage collection (10 × a 0.5 ms median is 5 ms). A
 * response over both is slow for *this* server and slow for anyone: a regular expression that
 * backtracks catastrophically on one name, a query without an index, a lock held too long.
 *
 * A slow answer is a finding only when its request, replayed alone after the phases, is slower
 * than the bound again, twice in a row (and a random-phase request is then shrunk, re-timing each
 * candidate): a stall of a loaded machine, or a request queued behind the slow one, is not. The defaults were
 * measured (docs/conform.md, "Time and capacity"): correct servers on a loaded 2-core machine stay
 * well below them. A timeout is no answer at all: `no-server-error` reports it, not this check.
 */
import type { HttpOutcome } from '../types.js';
import { failure, runCheck, type RunRecord } from '../check.js';
import { describeRequest } from '../messages.js';

/** The absolute part of the bound, in milliseconds, unless `--max-response-time` says otherwise. */
export const DEFAULT_MAX_RESPONSE_TIME_MS = 1000;
/**
 * Answers to bodies larger than this are not held to the bound: only the nesting sized to body
 * limits (generation/kinds/open-texts.ts) is, and reading and parsing a megabyte takes its time.
 */
export const TIMED_BODY_BYTES = 100 * 1024;
/** The relative part: this many times the run's median response time. */
export const MEDIAN_FACTOR = 10;

export interface ResponseTimeBound {
  /** The larger of the two parts: an answer slower than this is a finding. */
  readonly boundMs: number;
  readonly maxResponseTimeMs: number;
  readonly medianMs: number;
  readonly factor: number;
}

export function responseTimeBound(run: Pick<RunRecord, 'responseTimes' | 'maxResponseTimeMs'>): ResponseTimeBound {
  const medianMs = run.responseTimes.medianMs;
  const relative = Number.isFinite(medianMs) ? MEDIAN_FACTOR * medianMs : 0;
  return { boundMs: Math.max(run.maxResponseTimeMs, relative), maxResponseTimeMs: run.maxResponseTimeMs, medianMs, factor: MEDIAN_FACTOR };
}

function ms(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toPrecision(2)} ms`;
}

function slower(outcome: HttpOutcome, bound: ResponseTimeBound): boolean {
  return outcome.kind === 'response' && outcome.durationMs > bound.boundMs;
}

/** What was slow, by how much, against what bound, and how often in the run. */
function message(what: string, status: number | string, durationMs: number, run: RunRecord): string {
  const bound = responseTimeBound(run);
  const count = Math.max(run.slowest.filter((e) => e.durationMs > bound.boundMs).length, run.responseTimes.countAbove(bound.boundMs));
  return (
    `${what} was answered ${String(status)} after ${ms(durationMs)}; the bound is ${ms(bound.boundMs)}: the larger of --max-response-time ${ms(bound.maxResponseTimeMs)} and ${bound.factor} × the run's median of ${ms(bound.medianMs)}; ` +
    `${count} of ${run.responseTimes.count} answers of the run took longer than that`
  );
}

export const responseTime = runCheck({
  name: 'response-time',
  description: `no answer takes longer than the larger of --max-response-time (${DEFAULT_MAX_RESPONSE_TIME_MS} ms by default) and ${MEDIAN_FACTOR} times the run's median response time`,
  looksAt: (run) => run.responseTimes.count,
  judge: (run) => {
    if (run.responseTimes.count === 0) return [];
    const bound = responseTimeBound(run);
    // Slowest first: the slowest is likeliest the cause, the others may have waited behind it.
    return run.slowest
      .filter((e) => e.durationMs > bound.boundMs)
      .map((e) => ({ ...failure(message(`${e.kind} request${e.variant ? ` (${e.variant})` : ''}`, e.status, e.durationMs, run)), exchange: { phase: e.phase, index: e.index } }));
  },
  // Re-timed alone (a replay, or a smaller request while shrinking): still slower than the run's bound.
  // Not a body past TIMED_BODY_BYTES: sized to a server's body limit on purpose (open-texts), it takes the time its size takes.
  reproduces: (request, outcome, run) => request.body.length <= TIMED_BODY_BYTES && slower(outcome, responseTimeBound(run)),
  explain: (request, outcome, run) => message(describeRequest(request), outcome.kind === 'response' ? outcome.status : outcome.failure, outcome.durationMs, run),
  // A loaded machine stalls an answer now and then; an input that is slow is slow again alone.
  confirmedByReplay: true,
});
