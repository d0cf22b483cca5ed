/**
 * The run's timeline, kept in bounded memory whatever the run's length: what the run checks judge
 * (oracle/checks/response-time.ts, oracle/checks/degradation.ts) and what a report plots.
 *
 * - every answered exchange's time goes into one log histogram (the median, the histogram of a
 *   report) and into the window of the run it completed in (latency over the run);
 * - the slowest exchanges are kept whole, so that a slow one can be replayed and shrunk;
 * - the canary's readings, and each growth probe's, are kept in order.
 * Windows and readings merge pairwise when there are too many (a `--duration` run of hours), so
 * they stay evenly spread over the run at a coarser grain.
 */
import { LatencyHistogram, round, type CanaryReading, type GrowthMeasure, type GrowthReading, type HistogramBucket, type Phase, type RunRecord, type TimedExchange } from '../../oracle/index.js';

/** Slowest exchanges kept whole: enough to find the one that reproduces among requests queued behind it. */
export const SLOWEST_KEPT = 32;
/** Windows of the latency series at most; then neighbours merge and windows are twice as long. */
export const MAX_WINDOWS = 200;
/** The first windows' length. */
export const FIRST_WINDOW_MS = 100;
/** Canary readings kept at most; then neighbours merge (the faster of the two: both were quiet moments). */
export const MAX_READINGS = 240;

interface Window {
  readonly histogram: LatencyHistogram;
  /** The phase of the first exchange that completed in it. */
  phase: Phase | undefined;
}

/** One window of the latency series, as reported. */
export interface LatencyWindow {
  readonly startMs: number;
  readonly phase?: Phase;
  readonly responses: number;
  readonly medianMs?: number;
  readonly p99Ms?: number;
  readonly maxMs?: number;
}

/** Response times of a run for people and plots: bounded in size. */
export interface LatencySummary {
  readonly responses: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Non-empty buckets of the histogram (each 9 % wide), fastest first. */
  readonly histogram: readonly HistogramBucket[];
  /** Latency over the run: windows of `windowMs` by completion time. */
  readonly windowMs: number;
  readonly windows: readonly LatencyWindow[];
}

export class RunTimeline {
  readonly #all = new LatencyHistogram();
  readonly #slowest: TimedExchange[] = [];
  #windowMs = FIRST_WINDOW_MS;
  #windows: Window[] = [];
  readonly #canary = new ReadingSeries<CanaryReading>(merged);
  readonly #growth = new Map<GrowthMeasure, ReadingSeries<GrowthReading>>();

  /** One exchange of the run (canaries too: they count for nothing here but are exchanges of the run). */
  add(exchange: TimedExchange): void {
    if (exchange.probe !== undefined || typeof exchange.status !== 'number') return;
    this.#all.add(exchange.durationMs);
    this.#keepIfSlow(exchange);
    this.#windowAt(exchange.startedMs + exchange.durationMs, exchange.phase).histogram.add(exchange.durationMs);
  }

  addCanary(reading: CanaryReading): void {
    this.#canary.add(reading);
  }

  /** One reading of a growth probe (run/canary.ts), kept in its measure's series. */
  addGrowth(reading: GrowthReading): void {
    let series = this.#growth.get(reading.measure);
    if (series === undefined) this.#growth.set(reading.measure, (series = new ReadingSeries<GrowthReading>(merged)));
    series.add(reading);
  }

  /** The readings so far, in order (a group still filling counts as one). */
  get canary(): readonly CanaryReading[] {
    return this.#canary.readings;
  }

  /** The growth probes' readings so far, each measure's in order. */
  get growth(): readonly GrowthReading[] {
    return [...this.#growth.values()].flatMap((series) => series.readings);
  }

  /** What the run checks judge. */
  record(maxResponseTimeMs: number): RunRecord {
    const all = this.#all;
    return {
      responseTimes: { count: all.count, medianMs: all.quantile(0.5), countAbove: (ms) => all.countAbove(ms) },
      slowest: [...this.#slowest],
      canary: [...this.canary],
      growth: this.growth,
      maxResponseTimeMs,
    };
  }

  /** The slowest exchanges, slowest first. */
  slowest(count = SLOWEST_KEPT): TimedExchange[] {
    return this.#slowest.slice(0, count);
  }

  summary(): LatencySummary {
    const all = this.#all;
    return {
      responses: all.count,
      medianMs: round(all.quantile(0.5)),
      p90Ms: round(all.quantile(0.9)),
      p99Ms: round(all.quantile(0.99)),
      maxMs: round(all.max),
      histogram: all.buckets(),
      windowMs: this.#windowMs,
      windows: this.#windows.map((w, i) => {
        const h = w.histogram;
        const base = { startMs: i * this.#windowMs, ...(w.phase === undefined ? {} : { phase: w.phase }), responses: h.count };
        return h.count === 0 ? base : { ...base, medianMs: round(h.quantile(0.5)), p99Ms: round(h.quantile(0.99)), maxMs: round(h.max) };
      }),
    };
  }

  #keepIfSlow(exchange: TimedExchange): void {
    const slowest = this.#slowest;
    if (slowest.length >= SLOWEST_KEPT && exchange.durationMs <= (slowest[slowest.length - 1]?.durationMs ?? 0)) return;
    let at = slowest.findIndex((e) => e.durationMs < exchange.durationMs);
    if (at === -1) at = slowest.length;
    slowest.splice(at, 0, exchange);
    if (slowest.length > SLOWEST_KEPT) slowest.pop();
  }

  #windowAt(ms: number, phase: Phase): Window {
    let at = Math.max(0, Math.floor(ms / this.#windowMs));
    while (at >= MAX_WINDOWS) {
      this.#windows = pairs(this.#windows).map(([a, b]) => {
        if (b !== undefined) a.histogram.merge(b.histogram);
        return { histogram: a.histogram, phase: a.phase ?? b?.phase };
      });
      this.#windowMs *= 2;
      at = Math.floor(ms / this.#windowMs);
    }
    while (this.#windows.length <= at) this.#windows.push({ histogram: new LatencyHistogram(), phase: undefined });
    const window = this.#windows[at] as Window;
    window.phase ??= phase;
    return window;
  }
}

/**
 * Readings in order, at most MAX_READINGS: past that, neighbours merge (the faster of the two:
 * both were quiet moments) and each kept reading stands for twice as many.
 */
class ReadingSeries<T> {
  #readings: T[] = [];
  /** Readings merged into one kept reading (doubles each time the readings are merged). */
  #group = 1;
  #pending: T | undefined;
  #pendingCount = 0;

  constructor(private readonly merge: (a: T, b: T) => T) {}

  add(reading: T): void {
    const pending = this.#pending;
    this.#pending = pending === undefined ? reading : this.merge(pending, reading);
    if (++this.#pendingCount < this.#group) return;
    this.#readings.push(this.#pending);
    this.#pending = undefined;
    this.#pendingCount = 0;
    if (this.#readings.length > MAX_READINGS) {
      this.#readings = pairs(this.#readings).map(([a, b]) => (b === undefined ? a : this.merge(a, b)));
      this.#group *= 2;
    }
  }

  /** The readings so far, in order (a group still filling counts as one). */
  get readings(): readonly T[] {
    return this.#pending === undefined ? this.#readings : [...this.#readings, this.#pending];
  }
}

/** Two neighbouring readings as one: where and when the first was taken, the faster time (and control), the sends of both. */
function merged<T extends CanaryReading | GrowthReading>(a: T, b: T): T {
  const control = a.controlMs === undefined || b.controlMs === undefined ? {} : { controlMs: Math.min(a.controlMs, b.controlMs) };
  return { ...a, durationMs: Math.min(a.durationMs, b.durationMs), samples: a.samples + b.samples, ...control };
}

/** Neighbours in pairs: [a0, a1], [a2, a3], ..., the last alone when the count is odd. */
function pairs<T>(items: readonly T[]): [T, T | undefined][] {
  const out: [T, T | undefined][] = [];
  for (let i = 0; i < items.length; i += 2) out.push([items[i] as T, items[i + 1]]);
  return out;
}

/** A run record from a list of exchanges and canary readings: for tests of the run checks, and any caller with a timeline at hand. */
export function runRecordOf(exchanges: readonly TimedExchange[], canary: readonly CanaryReading[] = [], maxResponseTimeMs = 1000, growth: readonly GrowthReading[] = []): RunRecord {
  const timeline = new RunTimeline();
  for (const exchange of exchanges) timeline.add(exchange);
  for (const reading of canary) timeline.addCanary(reading);
  for (const reading of growth) timeline.addGrowth(reading);
  return timeline.record(maxResponseTimeMs);
}
