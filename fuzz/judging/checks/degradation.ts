/**
 * `degradation`: the target does not get steadily slower during the run. The runner sends a
 * canary - the same valid request, alone, the fastest of a few sends - at intervals through every
 * phase; a server that leaks work per request (a listener added on every request that every later
 * request runs, a list scanned in full on every write) answers it a little later each time.
 *
 * Against a control: each send of the canary is followed by one to a bare node:http server the
 * runner starts in a child process (run/control.ts), for an answer of the same size. Whatever
 * slows the machine - other processes, busy loops that come and go - slows both, so the ratio
 * canary / control is the target's own speed: the rise overall is read on the canary (a ratio
 * would add the control's noise to the canary's), its steadiness (each half) and its size on the
 * ratio. Without a control (it could not
 * start) the canary is judged alone, by the rules below and one more: a line must fit it as well
 * as a step, since another process starting partway through is a step.
 *
 * Judged with rank statistics and effect-size floors, so that neither the noise of a loaded
 * machine nor a warm-up is taken for a trend. The canary's readings must:
 * - rise overall: Mann–Kendall z ≥ 3.09 (one-sided p ≤ 0.001 under no trend, whatever the noise's distribution);
 * - rise steadily: in each half of the run on its own (z ≥ 1): a leak is a slope, while a single
 *   change of level (in the middle, or in one half) leaves one half flat;
 * - (without a control) rise like a line, not like a step - a straight line (Theil–Sen) fits the
 *   readings within 5 % as closely as the best single step (a change of level at one point, each
 *   side at its median), by the sum of absolute deviations;
 * - rise by enough to matter: the last quarter's median at least twice the first quarter's (of the
 *   ratio with a control), and the canary's own at least 0.5 ms above it.
 * A warm-up (JIT compilation makes the first requests slower) is a fall, never a rise; the
 * readings of the coverage phase, whose odd bodies slow the target most, are not judged. Medians
 * and ranks, because a loaded machine's noise is a heavy tail of delays: one reading in three may
 * be several times the others.
 */
import { bestStep, lineDeviation, mannKendall, median, theilSen } from '../statistics.js';
import { failure, runCheck, type CanaryReading } from '../check.js';

/** Fewer readings than this say nothing about a trend (a run of a few hundred requests). */
export const MIN_READINGS = 12;
/** z of the whole series: one-sided p ≤ 0.001. */
export const TREND_Z = 3.09;
/** z of each half: the rise shows in each (one-sided p ≤ 0.16; with the line against the step, not on its own). */
export const HALF_Z = 1;
/** The line's deviation over the best step's, at most. */
export const LINE_OVER_STEP = 1.05;
/** The last quarter's median over the first quarter's, at least. */
export const RATIO_FLOOR = 2;
/** The last quarter's median minus the first quarter's, at least (sub-millisecond drifts are below what a loaded machine measures). */
export const RISE_FLOOR_MS = 0.5;

/** What the canary's readings say, for the check and for the report. */
export interface CanaryTrend {
  readonly readings: number;
  /** The median of each quarter of the readings, in order. */
  readonly quartersMs: readonly number[];
  /** The first and the last of them. */
  readonly firstMs: number;
  readonly lastMs: number;
  /** lastMs / firstMs. */
  readonly ratio: number;
  /** Mann–Kendall over every reading, and over each half on its own. */
  readonly z: number;
  readonly tau: number;
  readonly firstHalfZ: number;
  readonly secondHalfZ: number;
  /** Sums of absolute deviations from the Theil–Sen line and from the best single step (which begins at reading `stepAt`). */
  readonly lineDeviationMs: number;
  readonly stepDeviationMs: number;
  readonly stepAt: number;
  /** Theil–Sen slope: milliseconds the canary gained per 1000 exchanges of the run. */
  readonly msPer1000: number;
  /** Whether the series judged is the ratio canary / control (run/control.ts), not the canary alone. */
  readonly controlled: boolean;
  /** The median of each quarter of the control's readings (with a control). */
  readonly controlQuartersMs?: readonly number[];
  /** Whether all of the conditions above hold. */
  readonly degraded: boolean;
}

/**
 * The canary's readings that are judged: those after the coverage phase. Its large, malformed
 * and first-of-their-kind bodies leave garbage to collect and code not yet compiled (JIT warm-up),
 * which slows the first readings and could hide a rise behind them.
 */
export function judgedReadings(readings: readonly CanaryReading[]): readonly CanaryReading[] {
  return readings.filter((r) => r.phase !== 'coverage');
}

/** The quarters of a series: the median of each, in order. */
function quarterMedians(values: readonly number[]): number[] {
  const n = values.length;
  const quarter = Math.floor(n / 4);
  return [0, 1, 2, 3].map((k) => median(values.slice(k * quarter, k === 3 ? n : (k + 1) * quarter)));
}

/**
 * The series judged: the ratio canary / control over the readings that have their control, when
 * there are enough of them (the control starts beside the run: on a loaded machine the first
 * readings may come before it is up), else the canary alone over every reading.
 */
function judgedSeries(judged: readonly CanaryReading[]): { readonly readings: readonly CanaryReading[]; readonly ratios: readonly number[]; readonly controls?: readonly number[] } {
  const controlled = judged.filter((r) => (r.controlMs ?? 0) > 0);
  if (controlled.length < MIN_READINGS) return { readings: judged, ratios: judged.map((r) => r.durationMs) };
  const controls = controlled.map((r) => r.controlMs ?? 1);
  return { readings: controlled, ratios: controlled.map((r, i) => r.durationMs / (controls[i] as number)), controls };
}

/**
 * Why the canary's readings cannot be judged, for the report; undefined when they can. A run too
 * short or a target too slow for MIN_READINGS readings after the coverage phase says nothing
 * about a trend: `degradation` is then not exercised, and the report says so and why.
 */
export function notJudgedReason(all: readonly CanaryReading[]): string | undefined {
  const n = judgedReadings(all).length;
  if (n >= MIN_READINGS) return undefined;
  return `not enough readings: ${n} of the canary after the coverage phase, fewer than the ${MIN_READINGS} a trend needs (a run too short, or a target too slow, for more at one reading per interval)`;
}

/** The trend of the canary's judged readings; undefined with fewer than MIN_READINGS of them. */
export function canaryTrend(all: readonly CanaryReading[]): CanaryTrend | undefined {
  if (judgedReadings(all).length < MIN_READINGS) return undefined;
  const { readings, ratios, controls } = judgedSeries(judgedReadings(all));
  const n = readings.length;
  // The rise overall is read on the canary itself (a ratio adds the control's noise to the
  // canary's); its steadiness and size on the ratio, where a load that came and went is divided out.
  const values = readings.map((r) => r.durationMs);
  const quartersMs = quarterMedians(values);
  const judgedQuarters = quarterMedians(ratios);
  const firstMs = quartersMs[0] as number;
  const lastMs = quartersMs[3] as number;
  const overall = mannKendall(values);
  const half = Math.floor(n / 2);
  const firstHalfZ = mannKendall(ratios.slice(0, half)).z;
  const secondHalfZ = mannKendall(ratios.slice(n - half)).z;
  const lineDeviationMs = lineDeviation(values);
  const step = bestStep(values);
  const msPer1000 = theilSen(readings.map((r) => ({ x: r.afterExchanges, y: r.durationMs }))) * 1000;
  const [firstJudged, lastJudged] = [judgedQuarters[0] as number, judgedQuarters[3] as number];
  const ratio = firstJudged > 0 ? lastJudged / firstJudged : Number.POSITIVE_INFINITY;
  // With a control, a change of the machine's load is divided out; without, a step is taken for one.
  const lineLike = controls !== undefined || lineDeviationMs <= LINE_OVER_STEP * step.deviation;
  const steady = firstHalfZ >= HALF_Z && secondHalfZ >= HALF_Z && lineLike;
  const degraded = overall.z >= TREND_Z && steady && ratio >= RATIO_FLOOR && lastMs - firstMs >= RISE_FLOOR_MS;
  return {
    readings: n,
    quartersMs,
    firstMs,
    lastMs,
    ratio,
    z: overall.z,
    tau: overall.tau,
    firstHalfZ,
    secondHalfZ,
    lineDeviationMs,
    stepDeviationMs: step.deviation,
    stepAt: step.at,
    msPer1000: Number.isFinite(msPer1000) ? msPer1000 : 0,
    controlled: controls !== undefined,
    ...(controls === undefined ? {} : { controlQuartersMs: quarterMedians(controls) }),
    degraded,
  };
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

/** What the control said, for the message: its quarters beside the canary's, or that there was none. */
function controlSaid(trend: CanaryTrend): string {
  const quarters = trend.controlQuartersMs;
  if (quarters === undefined) return 'no control (the canary judged alone; a line fits it as well as a step, deviations ' + `${fixed(trend.lineDeviationMs, 1)} and ${fixed(trend.stepDeviationMs, 1)} ms)`;
  return `a bare node:http control read in the same rounds took ${quarters.map((m) => `${fixed(m)} ms`).join(', then ')}: the ratio canary / control rose × ${fixed(trend.ratio, 1)}`;
}

export const degradation = runCheck({
  name: 'degradation',
  description: `the target does not get steadily slower: a canary request sent alone at intervals through the run, over a bare control server read in the same rounds, does not rise (Mann–Kendall z ≥ ${TREND_Z} overall and ≥ ${HALF_Z} in each half, the last quarter at least ${RATIO_FLOOR} × the first and the canary ${RISE_FLOOR_MS} ms above it)`,
  // Too few readings say nothing: then the check was not exercised (the report says why: summaries.ts).
  looksAt: (run) => (canaryTrend(run.canary) === undefined ? 0 : judgedReadings(run.canary).length),
  judge: (run) => {
    const trend = canaryTrend(run.canary);
    if (!trend?.degraded) return [];
    const judged = judgedReadings(run.canary);
    const first = judged[0];
    const last = judged[judged.length - 1];
    return [
      failure(
        `the target got steadily slower: the canary (a valid request sent alone, the fastest of ${first?.samples ?? 1} sends) took ${trend.quartersMs.map((m) => `${fixed(m)} ms`).join(', then ')} (medians of the quarters of its ${trend.readings} readings), from exchange ${first?.afterExchanges ?? 0} to ${last?.afterExchanges ?? 0}; ` +
          `${controlSaid(trend)}; Mann–Kendall z = ${fixed(trend.z)} (τ = ${fixed(trend.tau)}), ${fixed(trend.firstHalfZ)} and ${fixed(trend.secondHalfZ)} in each half; +${fixed(trend.msPer1000, 3)} ms per 1000 requests (Theil–Sen)`,
      ),
    ];
  },
});
