/**
 * The stateful phase along the resource patterns (fuzz/generation/resource-sequences.ts) against
 * implementations of the example garden journal (keys the server assigns, a nested collection,
 * PATCH, envelope lists): the reference passes every check of the phase, each exercised; each
 * faulty implementation of test/faulty/resource-patterns.ts is caught by the check that names it
 * and by no other but those it names. In process, the phase alone, the suite's seeds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { formatReport, runConformance, type CheckName, type Report } from '../../fuzz/index.js';
import { loadContract } from '../../src/openapi/index.js';
import { PATTERN_IMPLEMENTATIONS } from '../faulty/resource-patterns.js';
import { expectCaughtByItsCheck } from '../support/caught.js';
import { seedsFrom } from '../support/seed.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const SEEDS = seedsFrom('PLANT_STORE_CONFORM_SEEDS', [1, 20260], 'the resource-pattern runs');
const PHASE_CHECKS: readonly CheckName[] = ['resource-available', 'deleted-stays-deleted', 'replacement-visible', 'update-visible', 'listed-after-create', 'server-assigns-key'];
const contract = loadContract(fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url)));
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

async function statefulRun(url: string, seed: number): Promise<Report> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, contract, seed, phases: ['stateful'], shrinkTimeMs: 5_000 });
}

describe.each(SEEDS)('resource patterns, seed %i', (seed) => {
  it('the reference serving the garden journal passes the phase, every check of it exercised', async () => {
    const server = await startReference({ contract });
    closing.push(() => server.close());
    const report = await statefulRun(server.url, seed);
    expect([...report.failures, ...report.warnings].map((f) => `${f.check}: ${f.message}`), formatReport(report)).toEqual([]);
    for (const check of PHASE_CHECKS) expect(report.checks[check].requests, check).toBeGreaterThan(0);
  });

  it.each(PATTERN_IMPLEMENTATIONS.map((i) => [i.name, i] as const))('%s is caught by its check', async (_name, implementation) => {
    const server = await startFaulty(implementation.fault(contract), { contract });
    closing.push(() => server.close());
    const { finding, text } = expectCaughtByItsCheck(await statefulRun(server.url, seed), implementation);
    // The finding replays: its sequence as curl commands, the key the server gave filled in.
    expect(finding?.curl ?? '', text).not.toContain('__key');
  });
});

/**
 * A PATCH that replaces is visible only where the patch leaves out a member the garden holds: the
 * walk's patch names a strict subset of them wherever the schema allows (resource-sequences.ts),
 * so update-visible catches it under every seed - among them 4, whose drawn patch named them all.
 */
describe('patch-replaces, under more seeds', () => {
  const implementation = PATTERN_IMPLEMENTATIONS.find((i) => i.name === 'patch-replaces');
  it.each([3, 4, 5, 6])('is caught by update-visible, seed %i', async (seed) => {
    if (implementation === undefined) throw new Error('patch-replaces is missing from the collection');
    const server = await startFaulty(implementation.fault(contract), { contract });
    closing.push(() => server.close());
    expectCaughtByItsCheck(await statefulRun(server.url, seed), implementation);
  });
});
