/**
 * `degradation` against a control (judging/checks/degradation.ts, run/control.ts): the ratio
 * canary / control divides out what slows the whole machine, so a load that comes and goes is no
 * trend and a leak is one at any load; a run without enough readings says so.
 */
import { describe, expect, it } from 'vitest';
import { canaryTrend, notJudgedReason, MIN_READINGS, type CanaryReading } from '../../fuzz/judging/index.js';
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
 * The machine's load at reading i: busy loops starting and stopping (a staircase up to 6 × and
 * back), and a moment's delay one reading in three, shared by canary and control: they are read
 * send for send in turn.
 */
function load(i: number, random: () => number): number {
  const stage = i < 10 ? 1 : i < 20 ? 3 : i < 30 ? 6 : 2;
  return stage * (random() < 0.3 ? 1 + 4 * random() : 1);
}

/** 40 readings: the canary's (its floor at reading i) and the control's (0.2 ms), each with a little noise of its own. */
function series(floor: (i: number) => number, from: number): CanaryReading[] {
  const random = uniform(from);
  return Array.from({ length: 40 }, (_, i) => {
    const l = load(i, random);
    return { afterExchanges: i * 150, startedMs: i * 150, phase: 'random', durationMs: floor(i) * l * (1 + 0.3 * random()), controlMs: 0.2 * l * (1 + 0.3 * random()), samples: 5 };
  });
}

const share = (floor: (i: number) => number): number => {
  let count = 0;
  for (let from = 0; from < 1000; from++) if (canaryTrend(series(floor, from))?.degraded === true) count++;
  return count / 1000;
};

describe('degradation against a control', () => {
  it('never takes a machine getting busier (and quieter again) for a leak', () => {
    expect(share(() => 0.3)).toBe(0);
    expect(canaryTrend(series(() => 0.3, 1))).toMatchObject({ controlled: true, degraded: false });
  });

  it('finds a leak that doubles the canary whatever the load', () => {
    // 0.4 ms to 4.3 ms (a listener leaked per request); 1 ms to 2.95 ms (the last quarter's median just over twice the first's).
    expect(share((i) => 0.4 + i * 0.1)).toBeGreaterThan(0.99);
    expect(share((i) => 1 + i * 0.05)).toBeGreaterThan(0.6);
  });

  it('says why it cannot judge too few readings', () => {
    expect(notJudgedReason(series(() => 1, 0).slice(0, MIN_READINGS - 1))).toMatch(/^not enough readings: 11 of the canary/);
    expect(notJudgedReason(series(() => 1, 0))).toBeUndefined();
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
