/**
 * The plots of the HTML report as inline SVG, drawn here and not in the browser: the page needs
 * no script and no library, prints as it shows, and a test can count what was drawn. Times span
 * orders of magnitude (a 0.3 ms answer beside a 2 s one), so time axes are logarithmic.
 */
import { BUCKET_RATIO, PHASES, type CanaryReading, type Phase } from '../../oracle/index.js';
import { html, type Html } from './html.js';
import type { LatencySummary } from '../run/timeline.js';

const WIDTH = 720;
const HEIGHT = 280;
const LEFT = 64;
const RIGHT = 32;
const TOP = 40;
const BOTTOM = 44;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

/** Coordinates to a tenth of a pixel: enough for a screen, short in the page. */
function px(value: number): string {
  return value.toFixed(1);
}

/** 1, 2 and 5 times a power of ten: the values axis ticks fall on. */
function niceValue(mantissa: number, exponent: number): number {
  return Number((mantissa * 10 ** exponent).toPrecision(6));
}

interface Step {
  readonly value: number;
  /** 1, 2 or 5. */
  readonly mantissa: number;
}

/** The 1-2-5 values from the largest at most `lo` to the smallest at least `hi` (at least two). */
function logSteps(lo: number, hi: number): Step[] {
  const steps: Step[] = [];
  for (let exponent = Math.floor(Math.log10(lo)); steps.length === 0 || (steps[steps.length - 1]?.value ?? 0) < hi; exponent++) {
    for (const mantissa of [1, 2, 5]) steps.push({ value: niceValue(mantissa, exponent), mantissa });
  }
  const first = steps.findLastIndex((step) => step.value <= lo);
  const last = steps.findIndex((step) => step.value >= hi);
  return steps.slice(Math.max(0, first), Math.max(last, first + 1) + 1);
}

interface Axis {
  readonly lo: number;
  readonly hi: number;
  readonly ticks: readonly number[];
  /** A value's position along the axis, from 0 to 1. */
  at(value: number): number;
}

/** A logarithmic axis over nice bounds around [lo, hi]; ticks at 1-2-5, or at powers of ten when those would be too many. */
function logAxis(lo: number, hi: number): Axis {
  const steps = logSteps(lo, hi);
  const min = steps[0]?.value ?? lo;
  const max = steps[steps.length - 1]?.value ?? hi;
  const ticks = (steps.length > 10 ? steps.filter((step) => step.mantissa === 1) : steps).map((step) => step.value);
  const span = Math.log(max) - Math.log(min);
  return { lo: min, hi: max, ticks, at: (value) => (Math.log(Math.min(max, Math.max(min, value))) - Math.log(min)) / span };
}

/** A linear axis from 0 over a nice bound at least `hi`, with about five ticks. */
function linearAxis(hi: number): Axis {
  const rough = Math.max(hi, Number.MIN_VALUE) / 5;
  const exponent = Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => niceValue(m, exponent)).find((v) => v >= rough) ?? niceValue(1, exponent + 1);
  const max = Math.max(step, Math.ceil(hi / step) * step);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => niceValue(i * step, 0));
  return { lo: 0, hi: max, ticks, at: (value) => value / max };
}

/** A time for a tick: milliseconds below a second, seconds from one. */
export function timeLabel(ms: number): string {
  return ms >= 1000 ? `${niceValue(ms / 1000, 0)} s` : `${ms} ms`;
}

/** A run-time for the x axis of the run: seconds, minutes from two of them. */
function runTimeLabel(ms: number): string {
  return ms >= 120_000 ? `${niceValue(ms / 60_000, 0)} min` : `${niceValue(ms / 1000, 0)} s`;
}

/** A measured time for a tooltip: three significant digits. */
function measured(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toPrecision(3)} s` : `${ms.toPrecision(3)} ms`;
}

const xOf = (axis: Axis, value: number): number => LEFT + axis.at(value) * PLOT_WIDTH;
const yOf = (axis: Axis, value: number): number => TOP + PLOT_HEIGHT - axis.at(value) * PLOT_HEIGHT;

function xAxis(axis: Axis, label: (value: number) => string, title: string): Html {
  const bottom = TOP + PLOT_HEIGHT;
  return html`<g class="axis x-axis"><line x1="${px(LEFT)}" y1="${px(bottom)}" x2="${px(LEFT + PLOT_WIDTH)}" y2="${px(bottom)}"/>${axis.ticks.map(
    (tick) => html`<line x1="${px(xOf(axis, tick))}" y1="${px(bottom)}" x2="${px(xOf(axis, tick))}" y2="${px(bottom + 5)}"/><text x="${px(xOf(axis, tick))}" y="${px(bottom + 18)}" text-anchor="middle">${label(tick)}</text>`,
  )}<text class="axis-title" x="${px(LEFT + PLOT_WIDTH / 2)}" y="${px(HEIGHT - 4)}" text-anchor="middle">${title}</text></g>`;
}

function yAxis(axis: Axis, label: (value: number) => string, title: string): Html {
  return html`<g class="axis y-axis"><line x1="${px(LEFT)}" y1="${px(TOP)}" x2="${px(LEFT)}" y2="${px(TOP + PLOT_HEIGHT)}"/>${axis.ticks.map(
    (tick) =>
      html`<line class="grid" x1="${px(LEFT)}" y1="${px(yOf(axis, tick))}" x2="${px(LEFT + PLOT_WIDTH)}" y2="${px(yOf(axis, tick))}"/><text x="${px(LEFT - 6)}" y="${px(yOf(axis, tick) + 4)}" text-anchor="end">${label(tick)}</text>`,
  )}<text class="axis-title" transform="translate(14 ${px(TOP + PLOT_HEIGHT / 2)}) rotate(-90)" text-anchor="middle">${title}</text></g>`;
}

/** An SVG image with its accessible name and description (WAI-ARIA: role img, labelled by its own title). */
function svg(id: string, title: string, description: string, body: Html): Html {
  return html`<svg class="plot" id="${id}" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}"><title id="${id}-title">${title}</title><desc id="${id}-desc">${description}</desc>${body}</svg>`;
}

/** A legend entry at the top of a plot: its sample mark and its name. */
function legend(entries: readonly { readonly mark: Html; readonly name: string }[]): Html {
  return html`<g class="legend">${entries.map((entry, i) => html`<g transform="translate(${px(LEFT + i * 150)} 14)">${entry.mark}<text x="14" y="4">${entry.name}</text></g>`)}</g>`;
}

export interface Marker {
  readonly name: string;
  readonly ms: number;
}

/**
 * The response-time histogram: one bar per bucket that holds any answer, on a logarithmic time
 * axis (each bucket is BUCKET_RATIO wide, so bars are equally wide), with the median, the p99 and
 * the bound marked. Undefined for a run without answers.
 */
export function histogramPlot(summary: LatencySummary, given: readonly Marker[]): Html | undefined {
  const markers = given.filter((m) => m.ms > 0 && Number.isFinite(m.ms));
  const buckets = summary.histogram;
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const lo = Math.min(first.upToMs / BUCKET_RATIO, ...markers.map((m) => m.ms));
  const x = logAxis(lo, Math.max(last.upToMs, ...markers.map((m) => m.ms)));
  const y = linearAxis(Math.max(...buckets.map((b) => b.count)));
  const bottom = TOP + PLOT_HEIGHT;
  const bars = buckets.map((bucket) => {
    const from = xOf(x, bucket.upToMs / BUCKET_RATIO);
    // At least a pixel tall: the one slow answer in ten thousand is the bar that matters.
    const height = Math.max(1, bottom - yOf(y, bucket.count));
    return html`<rect class="bar" x="${px(from)}" y="${px(bottom - height)}" width="${px(Math.max(1, xOf(x, bucket.upToMs) - from - 0.5))}" height="${px(height)}"><title>${measured(bucket.upToMs / BUCKET_RATIO)} to ${measured(bucket.upToMs)}: ${bucket.count} response${bucket.count === 1 ? '' : 's'}</title></rect>`;
  });
  const marks = markers.map((marker, i) => {
    const at = xOf(x, marker.ms);
    return html`<g class="marker marker-${i}"><line x1="${px(at)}" y1="${px(TOP)}" x2="${px(at)}" y2="${px(bottom)}"/><text x="${px(at + 3)}" y="${px(TOP + 10 + 12 * i)}">${marker.name} ${measured(marker.ms)}</text></g>`;
  });
  const description = `${summary.responses} responses in ${buckets.length} buckets from ${measured(first.upToMs / BUCKET_RATIO)} to ${measured(last.upToMs)}; ${markers.map((m) => `${m.name} ${measured(m.ms)}`).join(', ')}.`;
  return svg('histogram', 'Response times: how many answers took how long', description, html`${yAxis(y, String, 'responses')}${xAxis(x, timeLabel, 'response time (logarithmic)')}<g class="bars">${bars}</g>${marks}`);
}

export interface RunPhase {
  readonly phase: Phase;
  readonly startedMs: number;
  readonly durationMs: number;
}

/** Consecutive points as polylines, broken where a window had no answer. */
function lines(points: readonly ({ x: number; y: number } | undefined)[], className: string): Html[] {
  const runs: { x: number; y: number }[][] = [[]];
  for (const point of points) {
    if (point === undefined) runs.push([]);
    else runs[runs.length - 1]?.push(point);
  }
  return runs.filter((run) => run.length > 1).map((run) => html`<polyline class="${className}" points="${run.map((p) => `${px(p.x)},${px(p.y)}`).join(' ')}"/>`);
}

/** The mark of each series, with its tooltip (a title, read by screen readers too): a shape apiece, not only a colour. */
const MARKS = {
  median: (x: number, y: number, title?: string) => html`<circle class="point median" cx="${px(x)}" cy="${px(y)}" r="2.5">${title === undefined ? undefined : html`<title>${title}</title>`}</circle>`,
  p99: (x: number, y: number, title?: string) => html`<rect class="point p99" x="${px(x - 2.5)}" y="${px(y - 2.5)}" width="5" height="5">${title === undefined ? undefined : html`<title>${title}</title>`}</rect>`,
  canary: (x: number, y: number, title?: string) => html`<path class="point canary" d="M${px(x)} ${px(y - 3.5)}l3.5 3.5l-3.5 3.5l-3.5 -3.5z">${title === undefined ? undefined : html`<title>${title}</title>`}</path>`,
};

/**
 * Latency over the course of the run: the median and p99 of each window of the run (by when the
 * answers completed), the canary's readings, the phases as bands behind them and the bound as a
 * line when it is in range. Undefined for a run without answers.
 */
export function latencyPlot(summary: LatencySummary, phases: readonly RunPhase[], readings: readonly CanaryReading[], bound?: Marker): Html | undefined {
  const windows = summary.windows.map((w) => ({ ...w, midMs: w.startMs + summary.windowMs / 2 }));
  const answered = windows.filter((w) => w.medianMs !== undefined && w.p99Ms !== undefined);
  const times = [...answered.flatMap((w) => [w.medianMs ?? 0, w.p99Ms ?? 0]), ...readings.map((r) => r.durationMs)].filter((ms) => ms > 0 && Number.isFinite(ms));
  if (answered.length === 0 || times.length === 0) return undefined;
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const y = logAxis(lo, bound !== undefined && bound.ms > 0 && bound.ms <= hi * 10 ? Math.max(hi, bound.ms) : hi);
  const endMs = Math.max(windows.length * summary.windowMs, ...phases.map((p) => p.startedMs + p.durationMs), ...readings.map((r) => r.startedMs));
  const x = linearAxis(endMs);
  // Bands first, then their names: a narrow phase's name runs over the next band, not under it.
  const spans = phases.map((phase) => {
    const from = xOf(x, phase.startedMs);
    return { phase, from, to: Math.max(from + 1, xOf(x, phase.startedMs + phase.durationMs)) };
  });
  const bands = [
    ...spans.map(
      ({ phase, from, to }, i) =>
        html`<rect class="phase phase-${i % 2 === 0 ? 'even' : 'odd'}" data-phase="${phase.phase}" x="${px(from)}" y="${px(TOP)}" width="${px(to - from)}" height="${px(PLOT_HEIGHT)}"><title>${phase.phase} phase: ${runTimeLabel(phase.startedMs)} to ${runTimeLabel(phase.startedMs + phase.durationMs)}</title></rect>`,
    ),
    ...spans.map(({ phase, from }, i) => html`<text class="phase-name" x="${px(from + 3)}" y="${px(TOP + 12 + (i % 2) * 12)}">${phase.phase}</text>`),
  ];
  const series = (key: 'medianMs' | 'p99Ms') => windows.map((w) => (w[key] === undefined ? undefined : { x: xOf(x, w.midMs), y: yOf(y, w[key]) }));
  const window = (w: (typeof answered)[number]): string => `${runTimeLabel(w.startMs)} to ${runTimeLabel(w.startMs + summary.windowMs)}${w.phase === undefined ? '' : ` (${w.phase})`}, ${w.responses} responses`;
  const points = [
    ...answered.map((w) => MARKS.p99(xOf(x, w.midMs), yOf(y, w.p99Ms ?? 0), `p99 ${measured(w.p99Ms ?? 0)}: ${window(w)}`)),
    ...answered.map((w) => MARKS.median(xOf(x, w.midMs), yOf(y, w.medianMs ?? 0), `median ${measured(w.medianMs ?? 0)}: ${window(w)}`)),
    ...readings.map((r) => MARKS.canary(xOf(x, r.startedMs), yOf(y, r.durationMs), `canary ${measured(r.durationMs)} at ${runTimeLabel(r.startedMs)} (${r.phase}), fastest of ${r.samples}`)),
  ];
  const boundLine =
    bound !== undefined && bound.ms > 0 && bound.ms <= y.hi
      ? html`<g class="marker bound"><line x1="${px(LEFT)}" y1="${px(yOf(y, bound.ms))}" x2="${px(LEFT + PLOT_WIDTH)}" y2="${px(yOf(y, bound.ms))}"/><text x="${px(LEFT + PLOT_WIDTH - 4)}" y="${px(yOf(y, bound.ms) - 4)}" text-anchor="end">${bound.name} ${measured(bound.ms)}</text></g>`
      : undefined;
  const entries = [
    { mark: MARKS.median(4, 0), name: 'median per window' },
    { mark: MARKS.p99(4, 0), name: 'p99 per window' },
    ...(readings.length > 0 ? [{ mark: MARKS.canary(4, 0), name: 'canary reading' }] : []),
  ];
  const description = `${answered.length} windows of ${runTimeLabel(summary.windowMs)} over ${runTimeLabel(endMs)}${phases.length > 0 ? `, phases ${phases.map((p) => p.phase).join(', ')}` : ''}${readings.length > 0 ? `, ${readings.length} canary readings` : ''}.`;
  return svg(
    'latency',
    'Response times over the course of the run',
    description,
    html`<g class="phases">${bands}</g>${yAxis(y, timeLabel, 'response time (logarithmic)')}${xAxis(x, runTimeLabel, 'time since the run began')}${boundLine}${lines(series('p99Ms'), 'line p99')}${lines(series('medianMs'), 'line median')}<g class="points">${points}</g>${legend(entries)}`,
  );
}

/** The phases a report ran, in the order they ran. */
export function phasesRun(phases: Readonly<Partial<Record<Phase, { readonly startedMs: number; readonly durationMs: number }>>>): RunPhase[] {
  return PHASES.flatMap((phase) => {
    const summary = phases[phase];
    return summary === undefined ? [] : [{ phase, startedMs: summary.startedMs, durationMs: summary.durationMs }];
  }).sort((a, b) => a.startedMs - b.startedMs);
}
