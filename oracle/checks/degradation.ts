/**
 * `degradation`: the target does not get steadily slower during the run, nor as it holds more. The runner sends a
 * canary - the same valid request, alone, the fastest of a few sends - at intervals through every
 * phase; a server that leaks work per request (a listener added on every request that every later
 * request runs, a list scanned in full on every write) answers it a little later each time.
 *
 * Against a control: each send of the canary is followed by one to a bare node:http server the
 * runner starts in a child process (run/control.ts), for an answer of the same size. Whatever
 * slows the machine - other processes, busy loops that come and go, the engine's own work - slows
 * the control too. How much of the canary's rise is the machine's is read on the quarters of each
 * (not on the ratio of each pair of readings: dividing by the control's own noise, as large as a
 * leak's rise on a loaded machine, hid the leak in most runs). Without a control (it could not
 * start) the canary is judged alone, by the same rules and one more: a line must fit it as well as
 * a step, since another process starting partway through is a step.
 *
 * Judged with rank statistics and effect-size floors, so that neither the noise of a loaded
 * machine nor a warm-up is taken for a trend. The canary's readings must:
 * - rise overall: Mann–Kendall z ≥ 3.09 (one-sided p ≤ 0.001 under no trend, whatever the noise's distribution);
 * - rise in each half of the run on its own: z ≥ 1 without a control; with one, fall clearly in neither (z ≥ −1; a leak
 *   is a slope, while a single change of level leaves one half flat);
 * - (without a control) rise like a line, not like a step - a straight line (Theil–Sen) fits the
 *   readings within 5 % as closely as the best single step (a change of level at one point, each
 *   side at its median), by the sum of absolute deviations;
 * - rise by enough to matter: the last quarter at least 1.5 times the first, and at least 0.5 ms above
 *   it (each quarter read at its lower quartile: quarterFloors);
 * - (with a control) rise by more than the machine: the last quarter over the first at least 1.5
 *   times the control's (a load that multiplies every time), and the last minus the first at
 *   least 1.5 times the control's and 0.5 ms more (a load that adds to every time: the delays of
 *   a busy scheduler are such, and slow a target faster than the control more, in proportion).
 * The same statistics and control judge the growth probes of the canary's rounds
 * (fuzz/run/canary.ts), each against what the target held when it was read rather than against
 * the requests served: the plant stored last (`entries`: a lookup that walks the entries in
 * order reaches the canary's plant, stored before all others, at once) and the canary on a
 * connection of its own (`connections`: a cost per connection that grows with the connections
 * served). Clients the target never saw (distinct credentials, sent in each round) are what it is
 * made to hold; the canary's own readings show what holding them costs.
 * A warm-up (JIT compilation makes the first requests slower) is a fall, never a rise; the
 * readings of the coverage phase, whose odd bodies slow the target most, are not judged. Medians
 * and ranks, because a loaded machine's noise is a heavy tail of delays: one reading in three may
 * be several times the others.
 */
import { bestStep, lineDeviation, mannKendall, quantile, theilSen } from '../statistics.js';
import { failure, runCheck, type CanaryReading, type GrowthMeasure, type GrowthReading, type RunJudgement, type RunRecord } from '../check.js';

/** Fewer readings than this say nothing about a trend (a run of a few hundred requests). */
export const MIN_READINGS = 12;
/** z of the whole series: one-sided p ≤ 0.001. */
export const TREND_Z = 3.09;
/** z of each half, without a control: the rise shows in each (one-sided p ≤ 0.16; with the line against the step, not on its own). */
export const HALF_Z = 1;
/**
 * z of each half, with a control: the canary falls clearly in neither half. A change of the
 * machine's load is the control's to judge (BEYOND_CONTROL); this keeps a single change of the
 * target's own level, and a rise that a fall in one half undoes, from reading as a slope. Not
 * z ≥ 0: a leak's canary rises with the requests served, and on a loaded machine they come ever
 * more slowly as each costs more, so its second half flattens while bursts of load slow the
 * target's longer work more than the control's; with z ≥ 0, under two busy loops and more, 2 of
 * 23 runs of a leaked listener or a scan of every row were passed by one half's z of −0.7 and
 * −0.5, each rising × 2.5 to × 4 beyond the control (issue 22).
 */
export const CONTROLLED_HALF_Z = -1;
/** The canary's rise over the control's, at least: the last quarter over the first of each, and (beyond RISE_FLOOR_MS) the last minus the first. */
export const BEYOND_CONTROL = 1.5;
/** The line's deviation over the best step's, at most. */
export const LINE_OVER_STEP = 1.05;
/** The quantile of each quarter's readings that stands for the quarter (quarterFloors). */
export const QUARTER_QUANTILE = 0.25;
/** The canary's last quarter over its first quarter, at least. */
export const RATIO_FLOOR = 1.5;
/** The last quarter minus the first, at least (sub-millisecond drifts are below what a loaded machine measures). */
export const RISE_FLOOR_MS = 0.5;

/** What the canary's readings say, for the check and for the report. */
export interface CanaryTrend {
  readonly readings: number;
  /** The lower quartile of each quarter of the readings, in order (quarterFloors). */
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
  /** Theil–Sen slope: milliseconds the canary gained per 1000 exchanges of the run (a growth probe: per 1000 of its measure). */
  readonly msPer1000: number;
  /** Whether a control was read beside the canary (run/control.ts) and judged the machine's share of the rise. */
  readonly controlled: boolean;
  /** The lower quartile of each quarter of the control's readings (with a control). */
  readonly controlQuartersMs?: readonly number[];
  /** The control's last quarter over its first (with a control). */
  readonly controlRatio?: number;
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

/**
 * The quarters of a series: the lower quartile of each, in order. Each reading is already the
 * fastest of a few sends; a loaded machine only ever adds time, in a heavy tail, so the low end of
 * a quarter is the target's own speed and a quarter's median is not: a few delayed readings in a
 * row can move it.
 */
function quarterFloors(values: readonly number[]): number[] {
  const n = values.length;
  const quarter = Math.floor(n / 4);
  return [0, 1, 2, 3].map((k) => quantile(values.slice(k * quarter, k === 3 ? n : (k + 1) * quarter), QUARTER_QUANTILE));
}

/** A reading as the trend sees it: where it was taken (exchanges served, or what the target held), its time, and its control's. */
interface Point {
  readonly x: number;
  readonly durationMs: number;
  readonly controlMs?: number;
}

/**
 * The readings judged: those that have their control, when there are enough of them (the control
 * starts beside the run: on a loaded machine the first readings may come before it is up), else
 * every reading, the canary alone.
 */
function judgedSeries(judged: readonly Point[]): { readonly readings: readonly Point[]; readonly controls?: readonly number[] } {
  const controlled = judged.filter((r) => (r.controlMs ?? 0) > 0);
  if (controlled.length < MIN_READINGS) return { readings: judged };
  return { readings: controlled, controls: controlled.map((r) => r.controlMs ?? 1) };
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

/** Whether the canary's rise is more than the machine's, as the control's quarters read it (always, without a control). */
function beyondControl(firstMs: number, lastMs: number, controlQuartersMs: readonly number[] | undefined): { readonly controlRatio?: number; readonly beyond: boolean } {
  if (controlQuartersMs === undefined) return { beyond: true };
  const [first, last] = [controlQuartersMs[0] as number, controlQuartersMs[3] as number];
  const controlRatio = first > 0 ? last / first : Number.POSITIVE_INFINITY;
  const canaryRatio = firstMs > 0 ? lastMs / firstMs : Number.POSITIVE_INFINITY;
  // A load that multiplies every time, and a load that adds to every time: neither explains the rise.
  const beyond = canaryRatio >= BEYOND_CONTROL * controlRatio && lastMs - firstMs >= BEYOND_CONTROL * Math.max(0, last - first) + RISE_FLOOR_MS;
  return { controlRatio, beyond };
}

/** The trend of the canary's judged readings; undefined with fewer than MIN_READINGS of them. */
export function canaryTrend(all: readonly CanaryReading[]): CanaryTrend | undefined {
  return trendOf(judgedReadings(all).map((r) => ({ x: r.afterExchanges, durationMs: r.durationMs, ...(r.controlMs === undefined ? {} : { controlMs: r.controlMs }) })));
}

/**
 * The trend of a growth probe's readings (after the coverage phase, as the canary's), against
 * what the target held of the measure at each: the same statistics and control as the canary's;
 * undefined with fewer than MIN_READINGS of them.
 */
export function growthTrend(all: readonly GrowthReading[], measure: GrowthMeasure): CanaryTrend | undefined {
  return trendOf(growthReadings(all, measure).map((r) => ({ x: r.holds, durationMs: r.durationMs, ...(r.controlMs === undefined ? {} : { controlMs: r.controlMs }) })));
}

/** A growth probe's judged readings: those of its measure after the coverage phase. */
export function growthReadings(all: readonly GrowthReading[], measure: GrowthMeasure): readonly GrowthReading[] {
  return all.filter((r) => r.measure === measure && r.phase !== 'coverage');
}

/** The trend of a series of readings in order; undefined with fewer than MIN_READINGS. */
function trendOf(judged: readonly Point[]): CanaryTrend | undefined {
  if (judged.length < MIN_READINGS) return undefined;
  const { readings, controls } = judgedSeries(judged);
  const n = readings.length;
  const values = readings.map((r) => r.durationMs);
  const quartersMs = quarterFloors(values);
  const firstMs = quartersMs[0] as number;
  const lastMs = quartersMs[3] as number;
  const overall = mannKendall(values);
  const half = Math.floor(n / 2);
  const firstHalfZ = mannKendall(values.slice(0, half)).z;
  const secondHalfZ = mannKendall(values.slice(n - half)).z;
  const lineDeviationMs = lineDeviation(values);
  const step = bestStep(values);
  const msPer1000 = theilSen(readings.map((r) => ({ x: r.x, y: r.durationMs }))) * 1000;
  const ratio = firstMs > 0 ? lastMs / firstMs : Number.POSITIVE_INFINITY;
  const controlQuartersMs = controls === undefined ? undefined : quarterFloors(controls);
  const { controlRatio, beyond } = beyondControl(firstMs, lastMs, controlQuartersMs);
  // With a control, a change of the machine's load shows in the control and is judged by
  // beyondControl; without, a step is taken for one, and the rise must show as a line.
  const halfZ = controls === undefined ? HALF_Z : CONTROLLED_HALF_Z;
  const lineLike = controls !== undefined || lineDeviationMs <= LINE_OVER_STEP * step.deviation;
  const steady = firstHalfZ >= halfZ && secondHalfZ >= halfZ && lineLike;
  const degraded = overall.z >= TREND_Z && steady && ratio >= RATIO_FLOOR && lastMs - firstMs >= RISE_FLOOR_MS && beyond;
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
    ...(controlQuartersMs === undefined ? {} : { controlQuartersMs, controlRatio }),
    degraded,
  };
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

/** What the control said, for the message: its quarters beside the canary's, or that there was none. */
function controlSaid(trend: CanaryTrend): string {
  const quarters = trend.controlQuartersMs;
  if (quarters === undefined) return 'no control (the canary judged alone; a line fits it as well as a step, deviations ' + `${fixed(trend.lineDeviationMs, 1)} and ${fixed(trend.stepDeviationMs, 1)} ms)`;
  return `a bare node:http control read in the same rounds took ${quarters.map((m) => `${fixed(m)} ms`).join(', then ')}: the canary rose × ${fixed(trend.ratio, 1)}, the control × ${fixed(trend.controlRatio ?? 1, 1)}`;
}

/** What a growth probe sends and what its measure counts, for the message. */
const GROWTH_WORDS: Readonly<Record<GrowthMeasure, { readonly probe: string; readonly holds: string }>> = {
  entries: { probe: 'a valid request about the plant stored last (its read, else its create again)', holds: 'plants stored' },
  connections: { probe: 'the canary on a connection of its own', holds: 'connections opened and closed' },
};

export const GROWTH_MEASURES: readonly GrowthMeasure[] = ['entries', 'connections'];

/** The canary's finding, if it degraded. */
function canaryJudgement(run: RunRecord): RunJudgement[] {
  const trend = canaryTrend(run.canary);
  if (!trend?.degraded) return [];
  const judged = judgedReadings(run.canary);
  const first = judged[0];
  const last = judged[judged.length - 1];
  return [
    failure(
      `the target got steadily slower: the canary (a valid request sent alone, the fastest of ${first?.samples ?? 1} sends) took ${trend.quartersMs.map((m) => `${fixed(m)} ms`).join(', then ')} (the lower quartiles of the quarters of its ${trend.readings} readings), from exchange ${first?.afterExchanges ?? 0} to ${last?.afterExchanges ?? 0}; ` +
        `${controlSaid(trend)}; Mann–Kendall z = ${fixed(trend.z)} (τ = ${fixed(trend.tau)}), ${fixed(trend.firstHalfZ)} and ${fixed(trend.secondHalfZ)} in each half; +${fixed(trend.msPer1000, 3)} ms per 1000 requests (Theil–Sen)`,
    ),
  ];
}

/** A growth probe's finding, if its time rose with what the target held. */
function growthJudgement(run: RunRecord, measure: GrowthMeasure): RunJudgement[] {
  const all = run.growth ?? [];
  const trend = growthTrend(all, measure);
  if (!trend?.degraded) return [];
  const judged = growthReadings(all, measure);
  const words = GROWTH_WORDS[measure];
  return [
    failure(
      `the target got steadily slower as it held more ${words.holds}: ${words.probe}, the fastest of ${judged[0]?.samples ?? 1} sends, took ${trend.quartersMs.map((m) => `${fixed(m)} ms`).join(', then ')} (the lower quartiles of the quarters of its ${trend.readings} readings), from ${judged[0]?.holds ?? 0} to ${judged[judged.length - 1]?.holds ?? 0} ${words.holds}; ` +
        `${controlSaid(trend)}; Mann–Kendall z = ${fixed(trend.z)} (τ = ${fixed(trend.tau)}), ${fixed(trend.firstHalfZ)} and ${fixed(trend.secondHalfZ)} in each half; +${fixed(trend.msPer1000, 3)} ms per 1000 ${words.holds} (Theil–Sen)`,
    ),
  ];
}

/** Readings judged: the canary's and each growth probe's that have a trend. */
function lookedAt(run: RunRecord): number {
  const canary = canaryTrend(run.canary) === undefined ? 0 : judgedReadings(run.canary).length;
  return GROWTH_MEASURES.reduce((sum, measure) => sum + (growthTrend(run.growth ?? [], measure) === undefined ? 0 : growthReadings(run.growth ?? [], measure).length), canary);
}

export const degradation = runCheck({
  name: 'degradation',
  description: `the target does not get steadily slower, with the requests it serves or with what it holds: a canary request sent alone at intervals through the run, and growth probes beside it (the plant stored last, the canary on a connection of its own), do not rise (Mann–Kendall z ≥ ${TREND_Z} overall and falling clearly in neither half, the last quarter at least ${RATIO_FLOOR} × the first and ${RISE_FLOOR_MS} ms above it, and beyond ${BEYOND_CONTROL} × the rise of a bare control server read in the same rounds)`,
  // Too few readings say nothing: then the check was not exercised (the report says why: summaries.ts).
  looksAt: lookedAt,
  judge: (run) => [...canaryJudgement(run), ...GROWTH_MEASURES.flatMap((measure) => growthJudgement(run, measure))],
});
