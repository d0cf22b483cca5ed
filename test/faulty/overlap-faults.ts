/**
 * Faulty implementations that break only when requests overlap at the server: caught by the
 * overlap phase (fuzz/run/overlap.ts), since the other phases seldom have two requests in flight
 * at a fast target at once.
 */
import type { Server } from 'node:http';
import type { CheckName } from '../../fuzz/index.js';
import { errorResponse } from './helpers.js';
import { startFaulty } from '../support/servers.js';

/** Requests the server has begun (their head read) and not yet answered. */
function countOpen(server: Server, open: { count: number }): void {
  server.on('request', (_request, response) => {
    open.count++;
    response.on('close', () => {
      open.count--;
    });
  });
}

/** As faults.ts's FaultyImplementation (not imported from there: faults.ts imports this file). */
interface OverlapFault {
  readonly name: string;
  readonly caughtBy: CheckName;
  readonly defect: string;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

export const OVERLAP_FAULTS: readonly OverlapFault[] = [
  {
    name: 'busy-when-overlapped',
    caughtBy: 'no-server-error',
    defect: 'a store guarding its single database handle answers 503 "busy" to any request that arrives while another is in flight, instead of queueing it',
    start: () => {
      const open = { count: 0 };
      return startFaulty(
        (_request, correct) => (open.count > 1 ? errorResponse(503, 'busy: another request is in flight') : correct()),
        {},
        (server) => {
          countOpen(server, open);
        },
      );
    },
  },
];
