/**
 * Every faulty implementation under test/faulty/ must be caught by a conformance run (the suite's
 * budget under `npm test`, a default run under `npm run test:slow`: common.ts), by the check its defect belongs to (those whose defect shows in time in faulty-alone.test.ts). Runs are deterministic for a seed, so a pass is not luck
 * that may change: each implementation runs under one of the suite's seeds (they rotate, so the
 * suite covers all of them); PLANT_STORE_CONFORM_MATRIX=full runs every implementation under
 * every seed (about three times as long).
 */
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../../fuzz/index.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { LINK_IMPLEMENTATIONS } from '../faulty/links.js';
import { OPERATION_FAULTS } from '../faulty/operations.js';
import { PATTERN_IMPLEMENTATIONS } from '../faulty/resource-patterns.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

describe('the collection of faulty implementations', () => {
  it('has at least 25, with distinct names, that together cover every check', () => {
    expect(FAULTY_IMPLEMENTATIONS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(FAULTY_IMPLEMENTATIONS.map((f) => f.name)).size).toBe(FAULTY_IMPLEMENTATIONS.length);
    // The checks of operations the bundled contract does not declare are caught against the example
    // full store: its faulty operations (operations.test.ts) and links (stateful.test.ts); those of
    // the resource patterns against the garden journal (resource-patterns.test.ts).
    const caught = [...FAULTY_IMPLEMENTATIONS, ...OPERATION_FAULTS, ...LINK_IMPLEMENTATIONS, ...PATTERN_IMPLEMENTATIONS].flatMap((f) => (f.caughtBy === undefined ? [] : [f.caughtBy]));
    expect(new Set(caught)).toEqual(new Set(CHECK_NAMES));
  });
});

FAULTY_IMPLEMENTATIONS.forEach((implementation, i) => {
  if (implementation.alone !== undefined) return;
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance(implementation, fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
