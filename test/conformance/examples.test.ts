/**
 * Every example contract of the repository (examples/contracts/) against the kit's own reference
 * of it: a default run, as `plant-store conform --contract` sends it, finds no failure (issue 29).
 * Each run is given credentials for every security scheme the contract declares, the reference
 * the same. Default runs take seconds each: this file runs under `npm run test:slow` only
 * (SLOW_ONLY in vitest.config.ts); `npm test` proves the rules such a run relies on with
 * focused runs (patch-results.test.ts, resource-patterns.test.ts, schemes.test.ts).
 */
import { basename, dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, runConformance } from '../../fuzz/index.js';
import { asRecord, openContract, type Contract } from '../../src/openapi/index.js';
import { exampleContractFiles } from '../support/contracts.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';
import { SUITE_SEEDS } from './common.js';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

/** A value for every scheme the contract declares but HTTP bearer (the run's token): as `--auth <scheme>=<value>`. */
function credentialsFor(contract: Contract): Record<string, string> {
  const schemes = asRecord(asRecord(contract.document.components).securitySchemes);
  const given: Record<string, string> = {};
  for (const [name, raw] of Object.entries(schemes)) {
    const scheme = contract.resolve(asRecord(raw));
    const http = scheme.type === 'http' ? String(scheme.scheme).toLowerCase() : undefined;
    if (http === 'bearer') continue;
    given[name] = http === 'basic' ? `ann:pw-${name}` : `secret-${name}`;
  }
  return given;
}

const named = (file: string): string => (basename(file) === 'openapi.yaml' ? `${basename(dirname(file))}/openapi.yaml` : basename(file));

describe('every example contract against its reference: a default run, no failure', () => {
  it.each(exampleContractFiles().map((file, i) => [named(file), SUITE_SEEDS[i % SUITE_SEEDS.length] ?? 7, file] as const))('%s, seed %i', { timeout: 180_000 }, async (_name, seed, file) => {
    const contract = await openContract(file);
    const credentials = credentialsFor(contract);
    const server = await startReference({ contract, credentials });
    closing.push(() => server.close());
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, credentials, contract, seed });
    expect(report.failures.map((f) => `${f.check}: ${f.message}`), formatReport(report)).toEqual([]);
    expect(report.checks['accepts-valid'].requests).toBeGreaterThan(0);
  });
});
