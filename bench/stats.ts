/**
 * Pure arithmetic of the benchmarks: percentiles, medians, ratios, and the summary of rounds.
 * No I/O here, so test/bench-stats.test.ts can pin it down.
 */
import { median } from '../oracle/index.js';

/** The middle value (the oracle's, which its checks on time use too). */
export { median };

/**
 * The p-th percentile (0..100) of `values` by the nearest-rank method: the smallest value such
 * that at least p% of the values are at or below it. NaN for no values.
 */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}


/** a / b, or NaN when b is not a positive number (a ratio against nothing means nothing). */
export function ratio(a: number, b: number): number {
  return b > 0 && Number.isFinite(b) && Number.isFinite(a) ? a / b : Number.NaN;
}

/** One measured round of one target. */
export interface RoundFigures {
  readonly round: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time (user + system) the server process used per response, in microseconds. */
  readonly cpuUsPerRequest?: number;
}

export interface TargetSummary {
  readonly target: string;
  readonly rounds: number;
  /** Medians over the rounds: one slow round (another process woke up) does not decide the figure. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuUsPerRequest: number;
  readonly minRequestsPerSecond: number;
  readonly maxRequestsPerSecond: number;
}

export function summarize(target: string, rounds: readonly RoundFigures[]): TargetSummary {
  const rps = rounds.map((r) => r.requestsPerSecond);
  return {
    target,
    rounds: rounds.length,
    requestsPerSecond: median(rps),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    cpuUsPerRequest: median(rounds.flatMap((r) => (r.cpuUsPerRequest === undefined ? [] : [r.cpuUsPerRequest]))),
    minRequestsPerSecond: rps.length === 0 ? Number.NaN : Math.min(...rps),
    maxRequestsPerSecond: rps.length === 0 ? Number.NaN : Math.max(...rps),
  };
}

/** a − b within each round, then the median over rounds (what one target adds to another, in the figure's unit). */
export function pairedDifference(a: readonly RoundFigures[], b: readonly RoundFigures[], figure: (r: RoundFigures) => number | undefined): number {
  const byRound = new Map(b.map((r) => [r.round, r]));
  const differences = a.flatMap((round) => {
    const other = byRound.get(round.round);
    const difference = other === undefined ? Number.NaN : (figure(round) ?? Number.NaN) - (figure(other) ?? Number.NaN);
    return Number.isFinite(difference) ? [difference] : [];
  });
  return median(differences);
}

/**
 * The ratio of two targets within each round, then the median over rounds. Targets measured
 * back to back in the same round saw the same machine load, so their per-round ratio is steadier
 * than a ratio of overall medians on a shared machine.
 */
export function pairedRatio(a: readonly RoundFigures[], b: readonly RoundFigures[], figure: (r: RoundFigures) => number | undefined): number {
  const byRound = new Map(b.map((r) => [r.round, r]));
  const ratios: number[] = [];
  for (const round of a) {
    const other = byRound.get(round.round);
    if (other) ratios.push(ratio(figure(round) ?? Number.NaN, figure(other) ?? Number.NaN));
  }
  return median(ratios.filter((r) => !Number.isNaN(r)));
}

/** An expected relation between two figures, e.g. reference rps >= 0.75 x baseline rps. */
export interface Target {
  readonly name: string;
  readonly value: number;
  /** The ratio must be at least `min` (throughput) or at most `max` (latency). */
  readonly min?: number;
  readonly max?: number;
}

export function meets(target: Target): boolean {
  if (Number.isNaN(target.value)) return false;
  if (target.min !== undefined && target.value < target.min) return false;
  if (target.max !== undefined && target.value > target.max) return false;
  return true;
}

/** One line on the targets that have a bound: how many hold, and which are missed. */
export function goalsLine(targets: readonly Target[]): string {
  const goals = targets.filter((t) => t.min !== undefined || t.max !== undefined);
  const missed = goals.filter((t) => !meets(t));
  return `goals: ${goals.length - missed.length} of ${goals.length} hold${missed.length === 0 ? '' : `; MISSED: ${missed.map((t) => t.name).join('; ')}`}`;
}

/** A plain-text table with right-aligned columns after the first. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A growable list of latencies in milliseconds, kept as doubles without boxing. */
export class Samples {
  #values = new Float64Array(1024);
  #length = 0;

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  values(): Float64Array {
    return this.#values.subarray(0, this.#length);
  }
}

/**
 * Least-squares slope of y over x (units of y per unit of x); 0 for fewer than two points.
 * Used for the soak's memory trend.
 */
export function slope(points: readonly { readonly x: number; readonly y: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - meanX) * (p.y - meanY);
    den += (p.x - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
