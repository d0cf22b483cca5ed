/**
 * The stateful phase (fuzz/run/stateful-plan.ts) against implementations of the example full
 * store: the reference passes it; each faulty implementation of test/faulty/links.ts is caught by
 * its check and by no other of the phase's; the correct-but-unusual ones pass the phase's checks.
 * The runs are in process, the stateful phase alone, with the suite's seeds (printed in the names).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, runConformance, type CheckName, type Report } from '../../fuzz/index.js';
import { LINK_IMPLEMENTATIONS } from '../faulty/links.js';
import { FULL_STORE_FILE, fullStore } from '../support/contracts.js';
import { expectCaughtByItsCheck } from '../support/caught.js';
import { seedsFrom } from '../support/seed.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const SEEDS = seedsFrom('PLANT_STORE_CONFORM_SEEDS', [1, 20260], 'the stateful runs');
const PHASE_CHECKS: readonly CheckName[] = ['resource-available', 'deleted-stays-deleted', 'replacement-visible'];
const contract = fullStore();
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

async function statefulRun(url: string, seed: number): Promise<Report> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, contract, seed, phases: ['stateful'], shrinkTimeMs: 5_000 });
}

/** The checks that failed or warned in a run. */
function broken(report: Report): CheckName[] {
  return [...report.failures, ...report.warnings].map((finding) => finding.check);
}

describe.each(SEEDS)('stateful phase, seed %i', (seed) => {
  it('the reference serving the example full store passes it, every sequence exercised', async () => {
    const server = await startReference({ contract });
    closing.push(() => server.close());
    const report = await statefulRun(server.url, seed);
    expect(broken(report), formatReport(report)).toEqual([]);
    for (const check of PHASE_CHECKS) expect(report.checks[check].requests, check).toBeGreaterThan(0);
    expect(report.phases.stateful?.requests).toBeGreaterThan(0);
  });

  it.each(LINK_IMPLEMENTATIONS.filter((i) => i.caughtBy !== undefined).map((i) => [i.name, i] as const))('%s is caught by its check alone', async (_name, implementation) => {
    const server = await startFaulty(implementation.fault(contract), { contract });
    closing.push(() => server.close());
    const { caughtBy } = implementation;
    if (caughtBy === undefined) throw new Error(`${implementation.name} names no check`);
    const report = await statefulRun(server.url, seed);
    const { finding, text } = expectCaughtByItsCheck(report, { ...implementation, caughtBy });
    // The finding replays: its sequence as curl commands, the create first.
    expect(finding?.setup.length, text).toBeGreaterThan(0);
    expect(finding?.curl?.split('\n').length, text).toBe((finding?.setup.length ?? 0) + 1);
    expect(finding?.seed).toBe(seed);
    // The run replays with the contract it used.
    expect(text).toContain(`replay with: plant-store conform --base-url ${server.url} --token "$TOKEN" --contract ${FULL_STORE_FILE} `);
  });

  it.each(LINK_IMPLEMENTATIONS.filter((i) => i.caughtBy === undefined).map((i) => [i.name, i] as const))('%s (correct but unusual) passes the phase\'s checks', async (_name, implementation) => {
    const server = await startFaulty(implementation.fault(contract), { contract });
    closing.push(() => server.close());
    const report = await statefulRun(server.url, seed);
    const text = formatReport(report);
    expect(broken(report).filter((check) => implementation.touches?.[check] === undefined), text).toEqual([]);
    for (const check of PHASE_CHECKS) expect(report.checks[check].failures + report.checks[check].warnings, check).toBe(0);
  });
});
