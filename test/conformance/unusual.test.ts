/**
 * Correct but unusual implementations keep the contract under a default run: slow but steady
 * answers, and a connection closed after every answer. Neither is a defect: the contract says
 * nothing of time, and HTTP lets a server close any connection after its answer (RFC 9112,
 * section 9.6). The checks of time and capacity must not take them for one. Each runs under one
 * of the suite's seeds, as the faulty implementations do (PLANT_STORE_CONFORM_MATRIX=full: all).
 */
import { answerAfter } from '../faulty/resources.js';
import { startFaulty } from '../support/servers.js';
import { describeConformance, SUITE_SEEDS, useEnginePool, type Implementation } from './common.js';

useEnginePool();

const UNUSUAL: readonly Implementation[] = [
  {
    name: 'an implementation that takes 50 ms for every answer',
    start: () => startFaulty((_request, correct) => answerAfter(new Promise((resolve) => setTimeout(resolve, 50)), correct())),
  },
  {
    name: 'an implementation that closes the connection after every answer (Connection: close)',
    start: () =>
      startFaulty((_request, correct) => {
        const answer = correct();
        return { ...answer, headers: { ...answer.headers, connection: 'close' } };
      }),
  },
];

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

UNUSUAL.forEach((implementation, i) => {
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance(implementation, fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
