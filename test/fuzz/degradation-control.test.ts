/**
 * `degradation` against a control (judging/checks/degradation.ts, run/control.ts): a rise the
 * control shares is the machine's, so a load that grows or comes and goes is no trend and a leak
 * is one at any load; a run without enough readings says so.
 */
import { describe, expect, it } from 'vitest';
import { canaryTrend, notJudgedReason, MIN_READINGS, type CanaryReading } from '../../oracle/index.js';
import { Control } from '../../fuzz/run/control.js';

/** A deterministic uniform generator in [0, 1) (mulberry32), so that every share below is the same each run. */
function uniform(from: number): () => number {
  let state = from >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A reading's time on a machine with `busy` busy loops beside the run, in the two ways load slows
 * a request: its CPU work stretched (the process gets a smaller share of a core) and a delay added
 * (waiting to be scheduled). The delays have a heavy tail: one reading in seven is 1 to 10 times
 * the usual delay - twice as often as the control's readings were over twice their median in
 * default runs with two busy loops (7 %; 5 % quiet). Canary and control are read send for send in
 * turn, so they see the same number of busy loops; their delays are their own.
 */
function slowed(cpuMs: number, busy: number, random: () => number): number {
  const delay = (0.05 + busy * 0.15) * (random() < 0.15 ? 1 + 9 * random() : random());
  return cpuMs * (1 + 0.5 * busy) * (1 + 0.2 * random()) + delay;
}

/** Busy loops at reading i of 40: a machine getting busier in stages, or busy loops that come and go. */
const LOADS: Readonly<Record<string, (i: number) => number>> = {
  quiet: () => 0,
  'two busy loops': () => 2,
  'busier in stages': (i) => Math.floor(i / 10),
  'loops that come and go': (i) => [0, 2, 3, 1][Math.floor(i / 10)] ?? 0,
};

/** 40 readings: the canary's CPU work at reading i is floor(i); the control's is 0.25 ms. */
function series(floor: (i: number) => number, busy: (i: number) => number, from: number): CanaryReading[] {
  const random = uniform(from);
  return Array.from({ length: 40 }, (_, i) => {
    const b = busy(i);
    return { afterExchanges: i * 150, startedMs: i * 150, phase: 'random', durationMs: slowed(floor(i), b, random), controlMs: slowed(0.25, b, random), samples: 5 };
  });
}

/** The share of 1000 such runs (seeds 0 to 999) judged degraded. */
const share = (floor: (i: number) => number, busy: (i: number) => number): number => {
  let count = 0;
  for (let from = 0; from < 1000; from++) if (canaryTrend(series(floor, busy, from))?.degraded === true) count++;
  return count / 1000;
};

describe('degradation against a control', () => {
  for (const [name, busy] of Object.entries(LOADS)) {
    it(`never takes a correct target for a leak: ${name}`, () => {
      // A fast target (faster than the control), a usual one, a slow one.
      for (const cpuMs of [0.15, 1, 3]) expect(share(() => cpuMs, busy), `${cpuMs} ms`).toBe(0);
    });
  }

  for (const busy of [0, 1, 2]) {
    it(`finds a leak that doubles the canary or more with ${busy} busy loops`, () => {
      // 0.4 ms to 4.3 ms (a listener leaked per request); 1 ms to 4.9 ms.
      expect(share((i) => 0.4 + i * 0.1, () => busy)).toBeGreaterThan(0.99);
      expect(share((i) => 1 + i * 0.1, () => busy)).toBeGreaterThan(0.99);
    });
  }

  it('takes a rise as large as the control\'s for the machine\'s', () => {
    // The canary triples, and so does the control: the machine got slower, not the target.
    const random = uniform(7);
    const readings = Array.from({ length: 40 }, (_, i) => ({ afterExchanges: i * 150, startedMs: i * 150, phase: 'random' as const, durationMs: (1 + i * 0.05) * (1 + 0.1 * random()), controlMs: 0.25 * (1 + i * 0.05) * (1 + 0.1 * random()), samples: 5 }));
    expect(canaryTrend(readings)).toMatchObject({ controlled: true, degraded: false });
    expect(canaryTrend(readings.map((r) => ({ afterExchanges: r.afterExchanges, startedMs: r.startedMs, phase: r.phase, durationMs: r.durationMs, samples: r.samples })))).toMatchObject({ controlled: false, degraded: true });
  });

  it('says why it cannot judge too few readings', () => {
    expect(notJudgedReason(series(() => 1, () => 0, 0).slice(0, MIN_READINGS - 1))).toMatch(/^not enough readings: 11 of the canary/);
    expect(notJudgedReason(series(() => 1, () => 0, 0))).toBeUndefined();
  });

  it('starts a bare node:http server in a child process, answers the size asked, and stops', async () => {
    const control = await Control.start();
    expect(control).toBeDefined();
    if (control === undefined) return;
    try {
      const ms = await control.send(300);
      expect(ms).toBeGreaterThan(0);
    } finally {
      control.close();
    }
  });
});
