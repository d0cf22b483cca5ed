/**
 * The arithmetic behind the run checks on time (checks/response-time.ts, checks/degradation.ts):
 * a latency histogram of bounded size, medians, and a rank-based trend test. Pure, no I/O.
 *
 * Rank-based on purpose: response times are skewed and a shared machine adds outliers, so a mean
 * or a least-squares slope is pulled by one slow reading; a median or a count of pairs is not.
 */

/** Buckets per doubling of the time: a bucket is 2^(1/8) ≈ 9 % wide, so a quantile is known to ±4.5 %. */
const PER_OCTAVE = 8;
/** The smallest bucket starts at 2^-7 ms (8 µs) and the largest at 2^20 ms (17 minutes); anything beyond is clamped. */
const FIRST_OCTAVE = -7;
const LAST_OCTAVE = 20;
const BUCKETS = (LAST_OCTAVE - FIRST_OCTAVE) * PER_OCTAVE;
/** How many times longer a bucket's end is than its start: a bucket holds (upToMs / BUCKET_RATIO, upToMs]. */
export const BUCKET_RATIO = 2 ** (1 / PER_OCTAVE);

/** The bucket of a time in milliseconds. */
function bucketOf(ms: number): number {
  if (!(ms > 0)) return 0;
  const at = Math.floor(Math.log2(ms) * PER_OCTAVE) - FIRST_OCTAVE * PER_OCTAVE;
  return Math.min(BUCKETS - 1, Math.max(0, at));
}

/** Where a bucket ends, in milliseconds. */
function bucketEnd(bucket: number): number {
  return 2 ** ((bucket + 1) / PER_OCTAVE + FIRST_OCTAVE);
}

/** The middle of a bucket on a log scale: the estimate a quantile falling into it is given. */
function bucketMiddle(bucket: number): number {
  return 2 ** ((bucket + 0.5) / PER_OCTAVE + FIRST_OCTAVE);
}

/** One bucket of a histogram as reported: the times up to `upToMs` (and above the previous bucket's). */
export interface HistogramBucket {
  readonly upToMs: number;
  readonly count: number;
}

/**
 * Response times counted in log-spaced buckets: constant memory for any number of responses, any
 * quantile to ±4.5 %, and two histograms add up (the windows of a long run merge).
 */
export class LatencyHistogram {
  readonly #counts = new Uint32Array(BUCKETS);
  #count = 0;
  #max = 0;

  add(ms: number): void {
    const at = bucketOf(ms);
    this.#counts[at] = (this.#counts[at] ?? 0) + 1;
    this.#count++;
    if (ms > this.#max) this.#max = ms;
  }

  merge(other: LatencyHistogram): void {
    for (let i = 0; i < BUCKETS; i++) this.#counts[i] = (this.#counts[i] ?? 0) + (other.#counts[i] ?? 0);
    this.#count += other.#count;
    this.#max = Math.max(this.#max, other.#max);
  }

  get count(): number {
    return this.#count;
  }

  /** The slowest time added, exactly. */
  get max(): number {
    return this.#max;
  }

  /** The q-quantile (0..1), to ±4.5 %; NaN when empty. The largest quantile is the exact maximum. */
  quantile(q: number): number {
    if (this.#count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(q * this.#count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.#counts[i] ?? 0;
      if (seen >= rank) return Math.min(bucketMiddle(i), this.#max);
    }
    return this.#max;
  }

  /** How many times were above `ms`, counting whole buckets (an estimate within a bucket's width). */
  countAbove(ms: number): number {
    let above = 0;
    for (let i = bucketOf(ms) + 1; i < BUCKETS; i++) above += this.#counts[i] ?? 0;
    return above;
  }

  /** The buckets that hold anything, in order. */
  buckets(): HistogramBucket[] {
    const out: HistogramBucket[] = [];
    this.#counts.forEach((count, i) => {
      if (count > 0) out.push({ upToMs: round(bucketEnd(i)), count });
    });
    return out;
  }
}

/** Milliseconds with three significant decimals: enough for reports, short in JSON. */
export function round(ms: number): number {
  return Number.isFinite(ms) ? Math.round(ms * 1000) / 1000 : ms;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value below which a share `q` (0 to 1) of the values lie, interpolated between neighbours; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return (sorted[below] as number) + ((sorted[above] as number) - (sorted[below] as number)) * (at - below);
}

/** The Mann–Kendall test of a series for a monotonic trend. */
export interface MannKendall {
  readonly n: number;
  /** Σ sign(y_j − y_i) over the pairs i < j: positive when later values tend to be larger. */
  readonly s: number;
  /** S normalised (with the continuity correction and the tie correction): standard normal when there is no trend. */
  readonly z: number;
  /** Kendall's tau: S over the number of pairs, from −1 (always falling) to 1 (always rising). */
  readonly tau: number;
}

/**
 * Mann–Kendall: counts, over every pair of readings, whether the later one is larger. It asks
 * only for order, so one slow reading moves S by at most n − 1 whatever its size, and a series
 * without a trend gives z ≈ N(0, 1) whatever the distribution of its noise (Kendall, Rank
 * Correlation Methods, 1975; Hirsch & Slack 1984 for the tie correction).
 */
export function mannKendall(values: readonly number[]): MannKendall {
  const n = values.length;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const vi = values[i] as number;
    for (let j = i + 1; j < n; j++) s += Math.sign((values[j] as number) - vi);
  }
  const ties = new Map<number, number>();
  for (const v of values) ties.set(v, (ties.get(v) ?? 0) + 1);
  let tieTerm = 0;
  for (const t of ties.values()) tieTerm += t * (t - 1) * (2 * t + 5);
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm) / 18;
  const z = variance <= 0 || s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance);
  const pairs = (n * (n - 1)) / 2;
  return { n, s, z, tau: pairs > 0 ? s / pairs : 0 };
}

/** The Theil–Sen slope: the median of the slopes between every pair of points (robust to outliers). NaN for fewer than two distinct x. */
export function theilSen(points: readonly { readonly x: number; readonly y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i] as { x: number; y: number };
    for (let j = i + 1; j < points.length; j++) {
      const b = points[j] as { x: number; y: number };
      if (b.x !== a.x) slopes.push((b.y - a.y) / (b.x - a.x));
    }
  }
  return median(slopes);
}

/** The sum of absolute deviations of a series from its Theil–Sen line (over positions 0, 1, 2…). */
export function lineDeviation(values: readonly number[]): number {
  const slope = theilSen(values.map((y, x) => ({ x, y })));
  const b = Number.isFinite(slope) ? slope : 0;
  const a = median(values.map((y, x) => y - b * x));
  return values.reduce((sum, y, x) => sum + Math.abs(y - (a + b * x)), 0);
}

/**
 * The single step that fits a series best: a change of level at one position (leaving at least
 * `margin` of the series on each side), each side at its median, by the sum of absolute deviations.
 */
export function bestStep(values: readonly number[], margin = 0.15): { readonly at: number; readonly deviation: number } {
  const deviation = (part: readonly number[]): number => {
    const m = median(part);
    return part.reduce((sum, y) => sum + Math.abs(y - m), 0);
  };
  let best = { at: 0, deviation: Number.POSITIVE_INFINITY };
  const n = values.length;
  for (let at = Math.max(1, Math.floor(n * margin)); at <= Math.min(n - 1, Math.ceil(n * (1 - margin))); at++) {
    const d = deviation(values.slice(0, at)) + deviation(values.slice(at));
    if (d < best.deviation) best = { at, deviation: d };
  }
  return best;
}
