/**
 * Every faulty implementation under test/faulty/ must be caught by a default conformance run, by
 * the check its defect belongs to, under two of the suite's seeds each (they rotate, so together
 * they cover every seed). The runs are deterministic for a seed: no flakiness allowed.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../../fuzz/index.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

describe('the collection of faulty implementations', () => {
  it('has at least 25, with distinct names, that together cover all seven checks', () => {
    expect(FAULTY_IMPLEMENTATIONS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(FAULTY_IMPLEMENTATIONS.map((f) => f.name)).size).toBe(FAULTY_IMPLEMENTATIONS.length);
    expect(new Set(FAULTY_IMPLEMENTATIONS.map((f) => f.caughtBy))).toEqual(new Set(CHECK_NAMES));
  });
});

FAULTY_IMPLEMENTATIONS.forEach((implementation, i) => {
  const seeds = [SUITE_SEEDS[i % SUITE_SEEDS.length], SUITE_SEEDS[(i + 1) % SUITE_SEEDS.length]].filter((s): s is number => s !== undefined);
  describeConformance(implementation, [...new Set(seeds)]);
});
