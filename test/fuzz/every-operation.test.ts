/**
 * conform tests every operation of a contract: the reference started with the example full store
 * (examples/contracts/plant-store-full.yaml: list, read, replace, delete) passes a run whose
 * requests reach every operation - parameters from their schemas, bad parameters, bad
 * credentials on secured operations without a body, undeclared methods and HEAD on every path.
 * The faulty and the correct-but-unusual implementations of these operations (test/faulty/operations.ts)
 * are in the shared suite: test/conformance/operations.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { CREATE_HEADER, fullStore, fullStoreWithHeader, trees } from '../support/contracts.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

const contract = fullStore();

describe('conform --contract with the full store', () => {
  let server: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    server = await startReference({ contract });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the coverage phase sends every operation, and an undeclared method and HEAD on every path', () => {
    const cases = coverageCases(contract, { token: TEST_TOKEN });
    const sent = new Set(cases.map((c) => `${c.method} ${c.path.split('?', 1)[0] ?? ''}`.replace(/\/[^/]+$/, (tail) => (tail === '/plants' ? tail : '/{item}'))));
    for (const operation of contract.operations) expect(cases.some((c) => contract.findOperation(c.method, c.path.split('?', 1)[0] ?? '') === operation)).toBe(true);
    expect(sent).toContain('HEAD /plants/{item}');
    expect(sent).toContain('PATCH /plants/{item}');
    // An int64 path parameter is written digit for digit: its bounds are probed exactly.
    expect(cases.some((c) => c.kind === 'invalid-parameter' && c.path.endsWith('/9223372036854775808'))).toBe(true);
    expect(cases.some((c) => c.kind === 'valid-parameters' && c.path.endsWith('/9223372036854775807'))).toBe(true);
  });

  it('an operation the contract opens (security: []) is not attacked with credentials; the secured ones are', () => {
    const orchard = trees();
    const cases = coverageCases(orchard, { token: TEST_TOKEN });
    const open = orchard.operations.filter((o) => o.security.length === 0);
    expect(open.length).toBeGreaterThan(0);
    const attacked = cases.filter((c) => c.credentials !== 'valid').map((c) => orchard.findOperation(c.method, c.path.split('?', 1)[0] ?? ''));
    for (const operation of open) expect(attacked).not.toContain(operation);
    for (const operation of orchard.operations.filter((o) => o.security.length > 0)) expect(attacked).toContain(operation);
  });

  it('the reference passes coverage and random phases (seed 5)', async () => {
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract, seed: 5, runs: 200, phases: ['coverage', 'random'] });
    console.log(`seed 5: ${report.requests} requests`, report.kinds, report.warnings.map((w) => w.message));
    expect(report.failures.map((f) => f.message)).toEqual([]);
    for (const kind of ['valid-parameters', 'invalid-parameter', 'bad-auth-no-body', 'other-method']) expect(report.kinds[kind] ?? 0).toBeGreaterThan(0);
    expect(report.checks['method-semantics'].requests).toBeGreaterThan(0);
  }, 120_000);
});

describe('a required header parameter on an operation with a body (the create of the full store)', () => {
  const withHeader = fullStoreWithHeader();
  const header = CREATE_HEADER.toLowerCase();
  const create = withHeader.findOperation('POST', '/plants');

  it('every request of the body\'s kinds carries a valid header; the coverage phase drops it and breaks it', () => {
    const cases = coverageCases(withHeader, { token: TEST_TOKEN }).filter((c) => withHeader.findOperation(c.method, c.path.split('?', 1)[0] ?? '') === create);
    const ofBody = cases.filter((c) => !['valid-parameters', 'invalid-parameter', 'bad-auth-no-body', 'other-method'].includes(c.kind));
    expect(ofBody.length).toBeGreaterThan(100);
    for (const c of ofBody) expect(c.headers[header], `${c.kind}: ${c.variant}`).toMatch(/^[1-9]\d*$/);
    const probes = cases.filter((c) => c.kind === 'invalid-parameter').map((c) => c.variant);
    expect(probes).toContain(`header parameter ${CREATE_HEADER} is missing`);
    expect(probes.filter((v) => v.startsWith(`header parameter ${CREATE_HEADER} `)).length).toBeGreaterThan(3);
  });

  it('the reference serving it passes every phase, the create tested (seed 11)', async () => {
    const server = await startReference({ contract: withHeader });
    try {
      const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: withHeader, seed: 11, runs: 300, capacity: 300 });
      expect(report.failures.map((f) => f.message)).toEqual([]);
      expect(report.phases.capacity?.requests).toBeGreaterThanOrEqual(300);
      for (const check of ['accepts-valid', 'echo', 'rejects-invalid', 'resource-available'] as const) expect(report.checks[check].requests, check).toBeGreaterThan(0);
      for (const kind of ['valid', 'invalid-body', 'malformed-json', 'invalid-parameter']) expect(report.kinds[kind] ?? 0, kind).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
