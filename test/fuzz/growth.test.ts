/**
 * The growth probes (fuzz/run/canary.ts) and their judgement (oracle/checks/degradation.ts): each
 * probe's readings judged against what the target held, with the canary's statistics and control;
 * the other clients' credentials, distinct and in each scheme's place. Cheap and load-proof (the
 * series are given, not timed); the faults' default runs are test/conformance/map-time.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { growthTrend, MIN_READINGS, type GrowthMeasure, type GrowthReading, type Phase } from '../../oracle/index.js';
import { capacityCases } from '../../fuzz/generation/capacity.js';
import { credentialPlan, otherClientSpelling } from '../../fuzz/generation/tables/scheme-credentials.js';
import { degradation } from '../../oracle/checks/degradation.js';
import { runRecordOf } from '../../fuzz/run/timeline.js';
import { REQUIREMENTS } from '../../oracle/requirements/index.js';
import { MAP_TIME_FAULTS } from '../faulty/map-time.js';
import { seedsFrom } from '../support/seed.js';
import { TEST_TOKEN } from '../support/servers.js';

const contract = loadContract();
const context = { contract, profile: 'reference' as const };
const [seed = 1] = seedsFrom('PLANT_STORE_GROWTH_SEED', [Math.floor(Math.random() * 0x7fffffff)], 'growth');

/** A series of one measure: the target's times and the control's, with what it held at each. */
function series(measure: GrowthMeasure, times: readonly number[], controls: readonly number[] | undefined, phase: Phase = 'capacity'): GrowthReading[] {
  return times.map((durationMs, i) => ({ measure, holds: i * 100, startedMs: i * 150, phase, durationMs, samples: 3, ...(controls === undefined ? {} : { controlMs: controls[i] ?? 0.3 }) }));
}

const judge = (growth: readonly GrowthReading[]) => degradation.judge(runRecordOf([], [], 1000, growth), context);
const rising = Array.from({ length: 30 }, (_, i) => 0.4 + i * 0.08);
const flat = Array.from({ length: 30 }, () => 0.3);

describe('the growth probes, judged by degradation', () => {
  it('finds a probe that rises with what the target holds while the control stays flat, naming the measure', () => {
    const [entries] = judge(series('entries', rising, flat));
    expect(entries?.message).toMatch(/^the target got steadily slower as it held more plants stored: a valid request about the plant stored last .* from 0 to 2900 plants stored; a bare node:http control .* ms per 1000 plants stored \(Theil–Sen\)$/);
    const [connections] = judge(series('connections', rising, flat));
    expect(connections?.message).toMatch(/^the target got steadily slower as it held more connections opened and closed: the canary on a connection of its own/);
  });

  it('takes a rise the control shares for the machine\'s, and a flat probe for none', () => {
    expect(judge(series('entries', rising, rising))).toEqual([]);
    expect(judge(series('connections', flat, flat))).toEqual([]);
  });

  it('judges neither the coverage phase\'s readings nor too few: degradation looked at nothing of them', () => {
    const early = series('connections', rising, flat, 'coverage');
    expect(judge(early)).toEqual([]);
    expect(growthTrend(early, 'connections')).toBeUndefined();
    expect(degradation.looksAt(runRecordOf([], [], 1000, early))).toBe(0);
    const few = series('entries', rising.slice(0, MIN_READINGS - 1), flat);
    expect(degradation.looksAt(runRecordOf([], [], 1000, few))).toBe(0);
    expect(degradation.looksAt(runRecordOf([], [], 1000, series('entries', rising, flat)))).toBe(rising.length);
  });

  it(`never flags a noisy but flat probe, whatever the control's noise (property; seed ${seed})`, () => {
    console.log(`growth: fast-check seed ${seed} (replay: PLANT_STORE_GROWTH_SEED=${seed} npx vitest run test/fuzz/growth.test.ts)`);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: MIN_READINGS, maxLength: 120 }), fc.double({ min: 0.05, max: 20, noNaN: true }), (noise, floorMs) => {
        const times = noise.map((n, i) => floorMs * (1 + (i % 3 === 0 ? n : n / 10)));
        expect(growthTrend(series('entries', times, times.map(() => 0.3)), 'entries')?.degraded).toBe(false);
      }),
      { seed, numRuns: 200 },
    );
  });
});

describe('other clients: credentials no request presented before', () => {
  it('for the bundled contract, a distinct bearer token each, refused; none under the mock profile', () => {
    const cases = capacityCases(contract, { token: TEST_TOKEN });
    const clients = [0, 1, 2].map((n) => cases.otherClient?.(n));
    expect(clients.map((c) => c?.headers.authorization)).toEqual([`Bearer ${TEST_TOKEN}-client-0`, `Bearer ${TEST_TOKEN}-client-1`, `Bearer ${TEST_TOKEN}-client-2`]);
    expect(clients.every((c) => c?.credentials === 'wrong-token' && c.tags?.includes('growth:sessions'))).toBe(true);
    expect(Buffer.from(clients[0]?.body ?? '').toString('utf8')).not.toBe(Buffer.from(cases.canary.body).toString('utf8'));
    expect(capacityCases(contract, { token: TEST_TOKEN, profile: 'mock' }).otherClient).toBeUndefined();
  });

  it("in each scheme's own place: an API key in its header, basic with another user, both for an AND requirement", () => {
    const greenhouse = loadContract(new URL('../../examples/contracts/greenhouse-security.yaml', import.meta.url).pathname);
    const credentials = { schemes: { keyHeader: 'key-1', basicAuth: 'ada:secret' }, headers: {} };
    const vault = greenhouse.operations.find((o) => o.operationId === 'vault');
    if (vault === undefined) throw new Error('the greenhouse example has a vault');
    const plan = credentialPlan(vault, '', credentials, 'reference');
    const spelled = [0, 1].map((n) => otherClientSpelling(plan, '', n, 'reference'));
    expect(spelled.map((s) => s?.fields?.['x-api-key'])).toEqual(['key-1-client-0', 'key-1-client-1']);
    expect(spelled.map((s) => Buffer.from(s?.header?.replace(/^Basic /, '') ?? '', 'base64').toString('utf8'))).toEqual(['client-0-ada:secret', 'client-1-ada:secret']);
    expect(spelled[0]?.credentials).toBe('wrong-token');
    const open = greenhouse.operations.find((o) => o.securedBy.length === 0);
    if (open !== undefined) expect(otherClientSpelling(credentialPlan(open, '', credentials, 'reference'), '', 0, 'reference')).toBeUndefined();
  });
});

describe('the time rows of the conformance map', () => {
  it('each names a fault of test/faulty that breaks it, caught by the check the row names', () => {
    const rows = REQUIREMENTS.filter((r) => 'judge' in r && r.judge.check === 'degradation');
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const fault of MAP_TIME_FAULTS) {
      const row = rows.find((r) => 'faults' in r && r.faults.includes(fault.name));
      expect(row, fault.name).toBeDefined();
      expect(row !== undefined && 'judge' in row ? row.judge.check : undefined).toBe(fault.caughtBy);
    }
  });
});
