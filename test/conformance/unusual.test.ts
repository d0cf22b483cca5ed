/**
 * Correct but unusual implementations keep the contract under a default run: slow but steady
 * answers, and a connection closed after every answer. Neither is a defect: the contract says
 * nothing of time, and HTTP lets a server close any connection after its answer (RFC 9112,
 * section 9.6). The checks of time and capacity must not take them for one.
 */
import { answerAfter } from '../faulty/resources.js';
import { startFaulty } from '../support/servers.js';
import { describeConformance, useEnginePool } from './common.js';

useEnginePool();

describeConformance({
  name: 'an implementation that takes 50 ms for every answer',
  start: () => startFaulty((_request, correct) => answerAfter(new Promise((resolve) => setTimeout(resolve, 50)), correct())),
});

describeConformance({
  name: 'an implementation that closes the connection after every answer (Connection: close)',
  start: () =>
    startFaulty((_request, correct) => {
      const answer = correct();
      return { ...answer, headers: { ...answer.headers, connection: 'close' } };
    }),
});
