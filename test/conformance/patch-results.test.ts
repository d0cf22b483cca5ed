/**
 * A PATCH whose result the contract leaves to the server is open (oracle/patch-results.ts): the
 * example garden journal's BedPatch allows `{"crop": null}`, but a bed's crop is a string, so a
 * partial JSON object that stores the null would leave a bed the item schema refuses, and the
 * reference refuses it with a declared 400. The engine no longer demands a 2xx for it, and still
 * demands one where it can prove every result valid: a store that refuses such a PATCH is caught.
 * Focused runs: the valid kind only, the coverage phase.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { classifyRequest, coverageCases, formatReport, judgeObserved, runConformance, type Report } from '../../fuzz/index.js';
import { openPatchResult, PATCH_RESULT_OPENNESS, type HttpRequest } from '../../oracle/index.js';
import { isJsonObject, loadContract, parseJson, type OperationContract } from '../../src/openapi/index.js';
import { PATCH_IMPLEMENTATIONS } from '../faulty/resource-patterns.js';
import { expectCaughtByItsCheck } from '../support/caught.js';
import { seedsFrom } from '../support/seed.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const contract = loadContract(fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url)));
const [seed = 1] = seedsFrom('PLANT_STORE_CONFORM_SEEDS', [20260], 'the PATCH-result runs');
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

function operation(id: string): OperationContract {
  const found = contract.operationById(id);
  if (found === undefined) throw new Error(`the garden journal has no ${id}`);
  return found;
}

const updateBed = operation('updateBed');
const patchOf = (body: string, contentType = 'application/json'): HttpRequest => ({ method: 'PATCH', path: '/gardens/00000000-0000-4000-8000-000000000000/beds/1', headers: { 'content-type': contentType }, body: Buffer.from(body) });

describe('which PATCH results the engine can prove valid (openPatchResult)', () => {
  it.each([
    ['{"crop":null}', 'application/json', 'stores or deletes the null: stored, crop is no string'],
    ['{"lengthCm":null}', 'application/json', 'stores or deletes the null: stored, lengthCm is no integer'],
    ['{"label":null}', 'application/merge-patch+json', 'deletes the label the bed requires'],
  ])('%s as %s is open: it %s', (body, type) => {
    expect(openPatchResult(contract, updateBed, patchOf(body, type))).toBe(PATCH_RESULT_OPENNESS);
  });

  it.each([
    ['{"crop":null}', 'application/merge-patch+json', 'deletes an optional member'],
    ['{"label":"North","lengthCm":3}', 'application/json', 'replaces members with values the bed allows'],
    ['{}', 'application/json', 'changes nothing'],
  ])('%s as %s is provably valid: it %s', (body, type) => {
    expect(openPatchResult(contract, updateBed, patchOf(body, type))).toBeUndefined();
  });

  it('judges the result on the stored item where the engine knows it, the members the server fills aside', () => {
    const stored = parseJson('{"label":"North","crop":"beans"}');
    if (!isJsonObject(stored)) throw new Error('not an object');
    expect(openPatchResult(contract, updateBed, patchOf('{"crop":"peas"}'), stored)).toBeUndefined();
    expect(openPatchResult(contract, updateBed, patchOf('{"crop":null}'), stored)).toBe(PATCH_RESULT_OPENNESS);
  });

  it('an observed PATCH (the proxy) is open the same way: its refusal passes, and a provable one is valid', () => {
    const nulled = patchOf('{"crop":null}');
    const classified = classifyRequest(contract, nulled);
    expect([classified.content, classified.contentReason]).toEqual(['open', PATCH_RESULT_OPENNESS]);
    const refused = { kind: 'response', status: 400, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":400,"message":"crop: must be a string"}'), durationMs: 1 } as const;
    expect(judgeObserved(contract, nulled, classified, refused).findings).toEqual([]);
    expect(classifyRequest(contract, patchOf('{"crop":"peas"}')).content).toBe('valid');
  });

  it('the coverage phase sends the null crop as open, and keeps demanding a 2xx of the PATCHes it can prove', () => {
    const patches = coverageCases(contract, { token: TEST_TOKEN, kinds: ['valid'], operation: updateBed });
    const open = patches.filter((c) => c.open?.reason === PATCH_RESULT_OPENNESS);
    expect(open.map((c) => c.variant)).toContain('crop is null');
    expect(patches.filter((c) => c.open === undefined).length).toBeGreaterThan(open.length);
  });
});

async function focusedRun(url: string): Promise<Report> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, contract, seed, kinds: ['valid'], phases: ['coverage'], shrinkTimeMs: 2_000 });
}

describe(`focused runs of the valid kind on the garden journal, seed ${seed}`, () => {
  it('the reference passes: it refuses the PATCH that would leave a bed without a string crop, and that is allowed', async () => {
    const server = await startReference({ contract });
    closing.push(() => server.close());
    const report = await focusedRun(server.url);
    expect(report.failures.map((f) => `${f.check}: ${f.message}`), formatReport(report)).toEqual([]);
    expect(report.checks['accepts-valid'].requests).toBeGreaterThan(0);
  });

  it.each(PATCH_IMPLEMENTATIONS.map((i) => [i.name, i] as const))('%s is caught by its check', async (_name, implementation) => {
    const server = await startFaulty(implementation.fault(contract), { contract });
    closing.push(() => server.close());
    const { finding, text } = expectCaughtByItsCheck(await focusedRun(server.url), implementation);
    expect(finding?.curl ?? '', text).toContain('-X PATCH');
  });
});
