/**
 * The map's rows on answers, proven: each faulty implementation of test/faulty/map-answers.ts is
 * caught by the check its row names, as a failure or as the warning the row decides, in a focused
 * run (the coverage phase, the request kinds that provoke it), and breaks no check its defect does
 * not touch; the reference and a store written in Express pass the same focused runs.
 */
import { describe, expect, it } from 'vitest';
import { formatReport, runConformance, type Report } from '../../fuzz/index.js';
import { loadContract, type Contract } from '../../src/openapi/index.js';
import { startExpressStore } from '../frameworks/express-store.js';
import { MAP_ANSWER_FAULTS, type MapAnswerFault } from '../faulty/map-answers.js';
import { startOperationImplementation } from '../faulty/operations.js';
import { fullStore } from '../support/contracts.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

const SEED = 20240611;
const CONTRACTS: Readonly<Record<MapAnswerFault['contract'], Contract>> = { bundled: loadContract(), full: fullStore() };

type Focus = Pick<MapAnswerFault, 'kinds' | 'phases' | 'contract'>;

async function focusedRun(server: { readonly url: string; close(): Promise<void> }, focus: Focus): Promise<Report> {
  try {
    // At the engine's own timeout: none of these hangs, and runs side by side in one process on a loaded machine answer slowly.
    return await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed: SEED, phases: focus.phases, kinds: focus.kinds, contract: CONTRACTS[focus.contract] });
  } finally {
    await server.close();
  }
}

describe('the faulty implementations of the answers\' rows', () => {
  it('have distinct names', () => {
    expect(new Set(MAP_ANSWER_FAULTS.map((f) => f.name)).size).toBe(MAP_ANSWER_FAULTS.length);
  });

  it.concurrent.each(MAP_ANSWER_FAULTS.map((fault) => [fault.name, fault] as const))('%s is caught by its check', { timeout: 60_000 }, async (_name, fault) => {
    const report = await focusedRun(await fault.start(), fault);
    const text = formatReport(report);
    const caughtAs = fault.caughtAs ?? 'failure';
    expect(report.passed, text).toBe(caughtAs === 'warning');
    expect((caughtAs === 'warning' ? report.warnings : report.failures).map((f) => f.check), text).toContain(fault.caughtBy);
    const allowed = new Set<string>([fault.caughtBy, ...fault.touches]);
    expect(report.failures.map((f) => f.check).filter((check) => !allowed.has(check)), text).toEqual([]);
  });
});

describe('the same focused runs', () => {
  const focuses = [...new Map(MAP_ANSWER_FAULTS.map((f): [string, Focus] => [`${f.contract} contract, ${f.phases.join(' and ')}, kinds ${f.kinds.join(', ')}`, { kinds: f.kinds, phases: f.phases, contract: f.contract }])).entries()];

  it.concurrent.each(focuses)('pass against the reference (%s)', { timeout: 60_000 }, async (_name, focus) => {
    const server = focus.contract === 'full' ? await startOperationImplementation({ name: 'reference', fault: (_request, correct) => correct() }) : await startReference();
    const report = await focusedRun(server, focus);
    expect(report.failures, formatReport(report)).toEqual([]);
    expect(report.warnings.filter((w) => w.check === 'message-framing'), formatReport(report)).toEqual([]);
  });

  it.concurrent.each(focuses.filter(([, focus]) => focus.contract === 'bundled'))('pass against a store written in Express (%s)', { timeout: 60_000 }, async (_name, focus) => {
    const report = await focusedRun(await startExpressStore({ token: TEST_TOKEN }), focus);
    expect(report.failures, formatReport(report)).toEqual([]);
    // node:http answers a message it cannot parse itself, with a 400 and no Date: a warning (RFC 9110, section 6.6.1), the framework's default.
    expect(report.warnings.filter((w) => w.check === 'message-framing' && !/^no Date field in a 400/.test(w.message)), formatReport(report)).toEqual([]);
  });
});
