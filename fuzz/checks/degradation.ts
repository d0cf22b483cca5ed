/**
 * `degradation`: the target does not get steadily slower during the run. The runner sends a
 * canary - the same valid request, alone, the fastest of a few sends - at intervals through every
 * phase; a server that leaks work per request (a listener added on every request that every later
 * request runs, a list scanned in full on every write) answers it a little later each time.
 *
 * Judged with rank statistics and effect-size floors, so that neither the noise of a loaded
 * machine nor a warm-up is taken for a trend. The canary's readings must:
 * - rise overall: Mann–Kendall z ≥ 3.09 (one-sided p ≤ 0.001 under no trend, whatever the noise's distribution);
 * - rise steadily: z ≥ 1.645 in each half of the run on its own (p ≤ 0.05), and the median of
 *   each quarter of the readings above the previous quarter's, so that one step (another
 *   process starting partway through) is not a trend;
 * - rise by enough to matter: the last quarter's median at least twice the first quarter's, and
 *   at least 0.5 ms above it.
 * A warm-up (JIT compilation makes the first requests slower) is a fall, never a rise. Medians
 * and ranks, because a loaded machine's noise is a heavy tail of delays: one reading in three may
 * be several times the others.
 */
import { mannKendall, median, theilSen } from '../statistics.js';
import { failure, runCheck, type CanaryReading } from './check.js';

/** Fewer readings than this say nothing about a trend (a run of a few hundred requests). */
export const MIN_READINGS = 12;
/** z of the whole series: one-sided p ≤ 0.001. */
export const TREND_Z = 3.09;
/** z of each half: one-sided p ≤ 0.05. */
export const HALF_Z = 1.645;
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
  /** Theil–Sen slope: milliseconds the canary gained per 1000 exchanges of the run. */
  readonly msPer1000: number;
  /** Whether all of the conditions above hold. */
  readonly degraded: boolean;
}

/** The trend of the canary's readings; undefined with fewer than MIN_READINGS. */
export function canaryTrend(readings: readonly CanaryReading[]): CanaryTrend | undefined {
  const n = readings.length;
  if (n < MIN_READINGS) return undefined;
  const values = readings.map((r) => r.durationMs);
  const quarter = Math.floor(n / 4);
  const quartersMs = [0, 1, 2, 3].map((k) => median(values.slice(k * quarter, k === 3 ? n : (k + 1) * quarter)));
  const firstMs = quartersMs[0] as number;
  const lastMs = quartersMs[3] as number;
  const rising = quartersMs.every((m, k) => k === 0 || m > (quartersMs[k - 1] as number));
  const all = mannKendall(values);
  const half = Math.floor(n / 2);
  const firstHalfZ = mannKendall(values.slice(0, half)).z;
  const secondHalfZ = mannKendall(values.slice(n - half)).z;
  const msPer1000 = theilSen(readings.map((r) => ({ x: r.afterExchanges, y: r.durationMs }))) * 1000;
  const ratio = firstMs > 0 ? lastMs / firstMs : Number.POSITIVE_INFINITY;
  const degraded = all.z >= TREND_Z && firstHalfZ >= HALF_Z && secondHalfZ >= HALF_Z && rising && ratio >= RATIO_FLOOR && lastMs - firstMs >= RISE_FLOOR_MS;
  return { readings: n, quartersMs, firstMs, lastMs, ratio, z: all.z, tau: all.tau, firstHalfZ, secondHalfZ, msPer1000: Number.isFinite(msPer1000) ? msPer1000 : 0, degraded };
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

export const degradation = runCheck({
  name: 'degradation',
  description: `the target does not get steadily slower: a canary request sent alone at intervals through the run does not rise (Mann–Kendall z ≥ ${TREND_Z} overall and ≥ ${HALF_Z} in each half, each quarter's median above the last, the last quarter at least ${RATIO_FLOOR} × and ${RISE_FLOOR_MS} ms above the first)`,
  // Too few readings say nothing: then the check was not exercised.
  looksAt: (run) => (run.canary.length >= MIN_READINGS ? run.canary.length : 0),
  judge: (run) => {
    const trend = canaryTrend(run.canary);
    if (!trend?.degraded) return [];
    const first = run.canary[0];
    const last = run.canary[run.canary.length - 1];
    return [
      failure(
        `the target got steadily slower: the canary (a valid request sent alone, the fastest of ${first?.samples ?? 1} sends) took ${trend.quartersMs.map((m) => `${fixed(m)} ms`).join(', then ')} (medians of the quarters of its ${trend.readings} readings, × ${fixed(trend.ratio, 1)}), from exchange ${first?.afterExchanges ?? 0} to ${last?.afterExchanges ?? 0}; ` +
          `Mann–Kendall z = ${fixed(trend.z)} (τ = ${fixed(trend.tau)}), ${fixed(trend.firstHalfZ)} and ${fixed(trend.secondHalfZ)} in each half; +${fixed(trend.msPer1000, 3)} ms per 1000 requests (Theil–Sen)`,
      ),
    ];
  },
});
