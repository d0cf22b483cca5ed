/**
 * conform against the reference serving a contract of readOnly, writeOnly, a discriminator,
 * recursion and integers beyond 2^53 (test/reference/fixtures/schemas-3.1.yaml): the reference
 * passes: a readOnly property left out is no missing property, a readOnly one sent and a writeOnly
 * one not answered are no echo failure.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probesOf } from '../../fuzz/generation/schema-probes.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compileContract, loadContract, type Schema } from '../../src/openapi/index.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

// Without /members: its create has no client-chosen key (its id is readOnly), so the reference
// answers it with a generated value rather than what was sent - server-assigned keys are not this
// file's subject (docs/reference-server.md).
const FIXTURE = fileURLToPath(new URL('../reference/fixtures/schemas-3.1.yaml', import.meta.url));
const document = parse(readFileSync(FIXTURE, 'utf8')) as Schema & { paths: Record<string, unknown> };
delete document.paths['/members'];
delete document.paths['/members/current'];
const contract = compileContract(document);

describe('conform --contract with readOnly, writeOnly, a discriminator and recursion', () => {
  let server: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    server = await startReference({ contract });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the reference passes coverage and random phases (seed 7)', async () => {
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract, seed: 7, runs: 150, phases: ['coverage', 'random'] });
    console.log(`seed 7: ${report.requests} requests`, report.kinds);
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
  }, 120_000);
});

describe('the probes of a request body', () => {
  it('leave out a readOnly property as no probe, at the top and nested; the rest are still probed', () => {
    const full = loadContract(FIXTURE);
    const names = probesOf(full, full.operationById('enrolMember')?.requestBody?.schema ?? {}).map((probe) => probe.name);
    expect(names).toContain('name/missing');
    expect(names.some((name) => name.endsWith('serial/missing'))).toBe(true);
    expect(names.filter((name) => /(^|\/)(id|issuedBy)\/(missing|other-case)/.test(name))).toEqual([]);
  });
});
