/**
 * The rows of oracle/requirements/targets.ts proven: each faulty implementation of
 * test/faulty/map-targets.ts is caught by its check in a focused run (the coverage phase of the
 * kinds that provoke it), and by no check its defect does not touch; the reference (the bundled
 * contract and every example one) and the framework stores pass the same focused runs, warning
 * only by what each framework's defaults are listed for. In process, not on the engine's workers:
 * each run is a few dozen requests.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, type Report } from '../../fuzz/index.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { loadContract, openContract, type Contract } from '../../src/openapi/index.js';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { isTested } from '../../oracle/requirements/index.js';
import { TARGET_REQUIREMENTS } from '../../oracle/requirements/targets.js';
import { MAP_TARGET_FAULTS } from '../faulty/map-targets.js';
import { OPERATION_FAULTS } from '../faulty/operations.js';
import { WIRE_FAULTS } from '../faulty/wire-faults.js';
import { pythonVersion } from '../frameworks/python-store.js';
import { FRAMEWORK_STORES } from '../frameworks/stores.js';
import { exampleContractFiles } from '../support/contracts.js';
import { seedsFrom } from '../support/seed.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

const [SEED = 30] = seedsFrom('PLANT_STORE_MAP_SEED', [30], 'map-targets');
const FOCUS = ['other-method', 'target-spellings', 'framing'];

/**
 * The test token as the credential of every API key and HTTP basic scheme of the contract: the
 * reference given no credentials of its own takes its tokens as a key and as any user's password
 * (docs/contracts.md, "Security schemes"), so that every operation is tested, not only the open ones.
 */
function tokenCredentials(contract: Contract): Record<string, string> {
  const credentials: Record<string, string> = {};
  for (const use of contract.operations.flatMap((operation) => operation.securedBy.flat())) {
    if (use.type.name === 'apiKey') credentials[use.name] = TEST_TOKEN;
    if (use.type.name === 'http basic') credentials[use.name] = `conform:${TEST_TOKEN}`;
  }
  return credentials;
}

async function focused(url: string, kinds: readonly string[], contract: Contract = loadContract()): Promise<Report> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, credentials: tokenCredentials(contract), contract, seed: SEED, runs: 1, phases: ['coverage'], kinds, timeoutMs: 2500 });
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

describe('each faulty implementation of methods and targets is caught by its check', () => {
  for (const fault of MAP_TARGET_FAULTS) {
    const as = fault.caughtAs ?? 'failure';
    it(`${fault.name}: ${fault.caughtBy}${as === 'warning' ? ' (a warning)' : ''}, kinds ${fault.kinds.join(', ')}, seed ${SEED}`, { timeout: 60_000 }, async () => {
      const server = await fault.start();
      closers.push(() => server.close());
      const report = await focused(server.url, fault.kinds, fault.contract);
      const text = formatReport(report);
      const found = (as === 'warning' ? report.warnings : report.failures).filter((f) => f.check === fault.caughtBy);
      expect(found.length, text).toBeGreaterThan(0);
      expect(report.passed, text).toBe(as === 'warning');
      const allowed = new Set<string>([fault.caughtBy, ...fault.touches]);
      expect(report.failures.map((f) => f.check).filter((check) => !allowed.has(check)), text).toEqual([]);
    });
  }

  it('HEAD of an item stored just before is what shows a body written only where the GET found something', { timeout: 60_000 }, async () => {
    const fault = MAP_TARGET_FAULTS.find((f) => f.name === 'head-body-where-found');
    if (fault === undefined) throw new Error('no head-body-where-found');
    const server = await fault.start();
    closers.push(() => server.close());
    const report = await focused(server.url, fault.kinds, fault.contract);
    const finding = report.failures.find((f) => f.check === 'method-semantics');
    expect(finding?.request?.variant, formatReport(report)).toMatch(/^HEAD of an item its create stored just before/);
  });
});

describe('correct implementations pass the same focused runs', () => {
  for (const file of [undefined, ...exampleContractFiles()]) {
    it(`the reference, ${file?.replace(/.*examples\//, '') ?? 'the bundled contract'}: no failure, no warning`, { timeout: 60_000 }, async () => {
      const contract = file === undefined ? loadContract() : await openContract(file);
      const server = await startReference({ contract });
      closers.push(() => server.close());
      const report = await focused(server.url, FOCUS, contract);
      const text = formatReport(report);
      expect(report.failures.filter((f) => !/the canary/.test(f.message)), text).toEqual([]);
      expect(report.warnings, text).toEqual([]);
    });
  }

  const python = pythonVersion();
  for (const store of FRAMEWORK_STORES) {
    const skip = store.framework === 'Python http.server' && python === undefined;
    it.skipIf(skip)(`${store.name} (${store.framework}): no failure, warnings only by its framework's listed defaults`, { timeout: 60_000 }, async () => {
      const server = await store.start();
      closers.push(() => server.close());
      const report = await focused(server.url, FOCUS);
      const text = formatReport(report);
      expect(report.failures, text).toEqual([]);
      expect(report.warnings.map((w) => w.check).filter((check) => store.warns[check] === undefined), text).toEqual([]);
    });
  }
});

describe('the rows of oracle/requirements/targets.ts', () => {
  it('each tested row names faults its check catches, and tags the coverage requests of the bundled or an example contract carry', async () => {
    const caughtBy = new Map<string, string>([...MAP_TARGET_FAULTS, ...WIRE_FAULTS, ...OPERATION_FAULTS].map((fault) => [fault.name, fault.caughtBy ?? '']));
    const files = exampleContractFiles();
    const all = [loadContract(), ...(await Promise.all(files.map((file) => openContract(file))))];
    const tags = new Set(all.flatMap((contract) => coverageCases(contract, { token: TEST_TOKEN, kinds: FOCUS })).flatMap((c) => c.tags ?? []));
    const ids = new Set<string>();
    for (const row of TARGET_REQUIREMENTS) {
      expect(row.id, 'ids are <rfc>-<section>-<name>, once each').toMatch(/^\d{4}-[\d.]+-[a-z0-9-]+$/);
      expect(ids.has(row.id), row.id).toBe(false);
      ids.add(row.id);
      if (!isTested(row)) continue;
      expect(row.faults.length, row.id).toBeGreaterThan(0);
      for (const fault of row.faults) expect(caughtBy.get(fault), `${row.id}: ${fault}`).toBe(row.judge.check);
      for (const tag of row.provoke.tags) expect([...tags].some((t) => (tag.endsWith(':') ? t.startsWith(tag) : t === tag)), `${row.id}: ${tag}`).toBe(true);
      expect(row.judge.severity === 'warning', `${row.id}: a warning says why`).toBe(row.judge.why !== undefined);
    }
  });

  it('every fault of map-targets.ts proves a row', () => {
    const named = new Set(TARGET_REQUIREMENTS.filter(isTested).flatMap((row) => row.faults));
    expect(MAP_TARGET_FAULTS.map((fault) => fault.name).filter((name) => !named.has(name))).toEqual([]);
  });
});
