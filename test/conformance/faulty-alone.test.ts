/**
 * The faulty implementations whose defect shows in time (FaultyImplementation.alone): caught by
 * a default run like the others (faulty.test.ts), one at a time in this process of their own, so
 * that no other implementation answering from the same thread blurs their times.
 */
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool(1);

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

FAULTY_IMPLEMENTATIONS.forEach((implementation, i) => {
  if (implementation.alone === undefined) return;
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance(implementation, fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
