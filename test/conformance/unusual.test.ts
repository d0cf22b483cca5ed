/**
 * Correct but unusual implementations keep the contract, without a warning (or with only the ones
 * they name, for a demand whose breach costs a client nothing): the engine flags only what the
 * contract and the RFCs demand. Each runs under one of the suite's seeds, rotated (every seed with
 * PLANT_STORE_CONFORM_MATRIX=full).
 */
import { UNUSUAL_IMPLEMENTATIONS } from './unusual.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

UNUSUAL_IMPLEMENTATIONS.forEach((implementation, i) => {
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance({ name: `${implementation.name}: ${implementation.trait}`, start: () => implementation.start(), ...(implementation.warns === undefined ? { quiet: true } : { warns: implementation.warns }) }, fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
