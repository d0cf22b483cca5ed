/** Exchanges as data for the run's parts: real requests of the contract, answers written out, judged by the real checks. */
import { loadContract } from '../../../src/openapi/index.js';
import { capacityCases } from '../../../fuzz/generation/capacity.js';
import { runChecks } from '../../../oracle/index.js';
import type { RunExchange } from '../../../fuzz/run/tally.js';
import type { HttpOutcome, RequestCase } from '../../../oracle/types.js';

export const contract = loadContract();
export const token = 'test-token';
export const plants = capacityCases(contract, { token, target: 100 });

/** An answer with a JSON body (no wire facts: the checks of the wire have nothing to say). */
export function answer(status: number, body: unknown, durationMs = 1): HttpOutcome {
  return { kind: 'response', status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)), durationMs };
}

export function judged(request: RequestCase, outcome: HttpOutcome, startedMs = 0): RunExchange {
  return { request, outcome, findings: runChecks(request, outcome, contract, { profile: 'reference' }), startedMs, fresh: false };
}

/** A valid plant answered with a 500: fails no-server-error (and more). */
export const broken = (i: number): RunExchange => judged(plants.fill(i), answer(500, { error: 500, message: 'boom' }));
/** A valid plant answered as it should be: the plant itself. */
export const kept = (i: number): RunExchange => judged(plants.fill(i), answer(200, JSON.parse(Buffer.from(plants.fill(i).body).toString('utf8'))));
