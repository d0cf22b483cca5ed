/**
 * Time and capacity, end to end over real sockets: the capacity phase fills the reference with
 * thousands of distinct plants (a share on fresh connections) and replaces the earliest; the
 * canary is read through every phase; a slow input is found and shrunk; a target that gets
 * slower with every request is reported with the figures; `durationMs` keeps the random phase
 * going; the report stays bounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isLosslessNumber, loadContract, openContract, parseJson } from '../../src/openapi/index.js';
import { capacityCases, CAPACITY_FLOOR, FRESH_EVERY } from '../../fuzz/generation/capacity.js';
import { requestArbitrary } from '../../fuzz/generation/kinds/index.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { BACKTRACKING_LONG, BACKTRACKING_SHORT, backtrackingString } from '../../fuzz/generation/values/backtracking.js';
import { MAX_WINDOWS } from '../../fuzz/run/timeline.js';
import { GROWTH_SENDS } from '../../fuzz/run/canary.js';
import { answerAfter } from '../faulty/resources.js';
import type { AppRequest } from '../../src/http/exchange.js';
import { objectBodyOf } from '../faulty/helpers.js';
import { fullStore } from '../support/contracts.js';
import { closedAfterAll, startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const contract = loadContract();
const { faulty, closeLater } = closedAfterAll();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A body's id as its digits, and its other properties. */
function plantOf(body: Uint8Array | string | undefined): { id: string; name: unknown; tagged: boolean } {
  const object = objectBodyOf({ method: 'POST', url: '/', headers: {}, body: body ?? '' });
  const id = object?.id;
  return { id: isLosslessNumber(id) ? id.value : '', name: object?.name, tagged: Object.hasOwn(object ?? {}, 'tag') };
}

describe('the capacity phase', () => {
  it('builds small valid plants with distinct ids, replacements of the same ids with other values, and a canary of its own', () => {
    const cases = capacityCases(contract, { token: TEST_TOKEN, target: 5000 });
    const operation = contract.operations.find((o) => o.requestBody !== undefined);
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const fill = cases.fill(i);
      expect(fill.body.length).toBeLessThan(100);
      if (i % 500 === 0) expect(operation?.requestBody?.validate(parseJson(Buffer.from(fill.body).toString('utf8'))).valid, `plant ${i}`).toBe(true);
      ids.add(plantOf(fill.body).id);
    }
    expect(ids.size).toBe(5000);
    const first = plantOf(cases.fill(0).body);
    const replaced = plantOf(cases.replacement(0).body);
    expect(replaced.id).toBe(first.id);
    expect(replaced.name).not.toBe(first.name);
    // The optional property is dropped or added by the replacement (the other parity).
    expect(replaced.tagged).not.toBe(first.tagged);
    expect(ids.has(plantOf(cases.canary.body).id)).toBe(false);
    expect(Array.from({ length: 5000 }, (_, i) => cases.fresh(i)).filter(Boolean)).toHaveLength(5000 / FRESH_EVERY);
  });

  it('stores 5,000 distinct plants in the reference, 1,250 of them on connections of their own, then replaces the earliest 500', { timeout: 120_000 }, async () => {
    const server = await startReference();
    closeLater(() => server.close());
    let connections = 0;
    server.server.on('connection', () => connections++);
    // A budget no loaded machine reaches: what is measured here is what a default run stores.
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed: 1, phases: ['capacity'], capacityBudgetMs: 100_000 });
    expect(report.passed).toBe(true);
    expect(report.capacity).toMatchObject({ target: 5000, sent: 5000, stored: 5000, refused: 0, replacementsSent: 500, replaced: 500, budgetHit: false, stores: true });
    // The canary is one more plant, replaced each time it is sent.
    expect(server.app.store.size).toBe(5001);
    const cases = capacityCases(contract, { token: TEST_TOKEN, target: 5000 });
    const replacement = plantOf(cases.replacement(0).body);
    expect(server.app.store.get(BigInt(replacement.id))?.name).toBe(replacement.name);
    // The fill's, and the canary's connections probe's (fuzz/run/canary.ts).
    const probed = (report.degradation.growth ?? []).find((g) => g.measure === 'connections')?.readings.length ?? 0;
    expect(report.freshConnections).toBe(5500 / FRESH_EVERY + probed * GROWTH_SENDS);
    expect(connections).toBeGreaterThanOrEqual(report.freshConnections);
    // The fill, the replacements and the canary's sends.
    expect(report.phases.capacity?.requests).toBeGreaterThan(5500);
  });

  it('stops the fill at its budget once it holds the floor, and gives up on a target that refuses plant after plant', { timeout: 60_000 }, async () => {
    const slow = await faulty((_request, correct) => answerAfter(sleep(20), correct()));
    const budgeted = await runConformance({ baseUrl: slow, token: TEST_TOKEN, seed: 1, phases: ['capacity'], capacity: CAPACITY_FLOOR + 2000, capacityBudgetMs: 0 });
    expect(budgeted.capacity).toMatchObject({ sent: CAPACITY_FLOOR, stored: CAPACITY_FLOOR, budgetHit: true });
    const full = await faulty((request, correct) => (objectBodyOf(request) ? { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":503,"message":"disk full"}' } : correct()));
    const refused = await runConformance({ baseUrl: full, token: TEST_TOKEN, seed: 1, phases: ['capacity'] });
    expect(refused.capacity?.gaveUp).toBe('100 plants in a row were refused');
    expect(refused.capacity?.sent).toBeLessThan(200);
    expect(refused.capacity?.replacementsSent).toBe(0);
    expect(refused.failures.map((f) => f.check)).toContain('no-server-error');
  });
});

describe('the capacity phase reads plants back where the contract has a read', () => {
  const full = fullStore();
  /** A capacity-only run against the full store: 1,000 plants, so the sample is every 20th, the earliest 100 replaced. */
  const capacityRun = (url: string) => runConformance({ baseUrl: url, token: TEST_TOKEN, contract: full, seed: 1, phases: ['capacity'], capacity: 1000, capacityBudgetMs: 100_000, shrinkTimeMs: 5_000 });

  it('reads a stored plant through the create\'s link, expecting what the create sent; none without a read', () => {
    const cases = capacityCases(full, { token: TEST_TOKEN, target: 1000 });
    const read = cases.readBack?.(499);
    const created = plantOf(cases.fill(499).body);
    expect(`${read?.method} ${read?.path}`).toBe(`GET /plants/${created.id}`);
    expect(read?.link).toEqual({ via: 'addPlant 200 → GetPlantById', expects: 'created', resource: Buffer.from(cases.fill(499).body).toString('utf8') });
    expect([read?.setup, read?.lenientAbout]).toEqual([[], 'refusal']);
    expect(capacityCases(contract, { token: TEST_TOKEN }).readBack).toBeUndefined();
  });

  it('reads back a plant stored by a form with the credentials the fill sent: an API key, not a 401 taken for a forgotten plant', async () => {
    const seeds = await openContract(fileURLToPath(new URL('../../examples/contracts/seed-exchange.yaml', import.meta.url)));
    const cases = capacityCases(seeds, { token: '', credentials: { schemes: { swapKey: 'k1', swapQueryKey: 'k2' }, headers: {} }, target: 100 });
    const [fill, read] = [cases.fill(7), cases.readBack?.(7)];
    expect(fill.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(fill.headers['x-swap-key']).toBe('k1');
    expect([read?.method, read?.headers['x-swap-key']]).toEqual(['GET', 'k1']);
  });

  it('the reference answers every plant of the sample that was not replaced, after the replacements; a mock is read nothing', { timeout: 120_000 }, async () => {
    const server = await startReference({ contract: full });
    closeLater(() => server.close());
    const report = await capacityRun(server.url);
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(report.warnings.map((f) => f.message)).toEqual([]);
    // Plants 19, 39, ..., 999 of the fill; 0 to 99 were replaced.
    expect(report.capacity).toMatchObject({ stored: 1000, replaced: 100, readBack: 45 });
    // And the canary's entries probe: the plant stored last, read back in each round of the fill (fuzz/run/canary.ts).
    const probed = (report.degradation.growth ?? []).find((g) => g.measure === 'entries')?.readings.length ?? 0;
    expect(report.checks['resource-available']).toEqual({ requests: 45 + probed * GROWTH_SENDS, failures: 0, warnings: 0 });
    const mocked = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: full, seed: 1, profile: 'mock', phases: ['capacity'], capacity: 1000, capacityBudgetMs: 100_000 });
    expect(mocked.capacity?.readBack).toBeUndefined();
  });

  it('fails a store that answers another plant once it holds hundreds; a bounded store that forgot them only warns', { timeout: 120_000 }, async () => {
    let stored = 0;
    let first: string | undefined;
    const mixesUp = await startFaulty(
      (request, correct) => {
        const operation = full.findOperation(request.method, request.url)?.operationId;
        const answer = correct();
        if (operation === 'addPlant' && answer.status === 200) {
          first ??= answer.body;
          stored++;
        }
        return operation === 'getPlant' && stored > 500 && first !== undefined ? { ...answer, body: first } : answer;
      },
      { contract: full },
    );
    closeLater(() => mixesUp.close());
    const caught = await capacityRun(mixesUp.url);
    expect(caught.failures.map((f) => f.check)).toEqual(['resource-available']);
    expect(caught.failures[0]?.phase).toBe('capacity');
    const bounded = await startReference({ contract: full, maxEntries: 300 });
    closeLater(() => bounded.close());
    const forgot = await capacityRun(bounded.url);
    expect(forgot.failures.map((f) => f.message)).toEqual([]);
    expect(forgot.warnings.map((f) => f.check)).toEqual(['resource-available']);
    expect(forgot.warnings[0]?.message).toContain('a bounded store may have forgotten it');
  });
});

describe('the random phase and slow inputs', () => {
  it('sends backtracking-prone strings in every run: short runs of a class for exponential patterns, long ones for polynomial patterns, valid names among them', () => {
    const samples = fc.sample(requestArbitrary(contract, { token: TEST_TOKEN }), { seed: 11, numRuns: 1000 });
    const runs = samples.flatMap((c) => [...Buffer.from(c.body).toString('utf8').matchAll(/"((?:a|0| |\\t|a |a\.|a-)+)[!x]"/g)].map((m) => m[1]?.length ?? 0));
    expect(runs.filter((n) => n >= BACKTRACKING_SHORT.min && n <= 2 * BACKTRACKING_SHORT.max).length).toBeGreaterThan(30);
    expect(runs.filter((n) => n >= BACKTRACKING_LONG.min && n <= 2 * BACKTRACKING_LONG.max).length).toBeGreaterThan(10);
    const names = samples.filter((c) => c.kind === 'valid').map((c) => /"name":"(a+)!"/.exec(Buffer.from(c.body).toString('utf8'))?.[1]?.length ?? 0);
    // Valid names long enough to take seconds on an exponential pattern (2^27 steps and more): a short run at the top of its range, or a long one.
    expect(names.filter((n) => n >= 27).length).toBeGreaterThan(0);
    for (const text of fc.sample(backtrackingString() ?? fc.constant(''), { seed: 11, numRuns: 200 })) expect(text).toMatch(/^(a|0| |\t|a |a\.|a-)+[!x]$/);
    expect(backtrackingString(20)).toBeUndefined();
  });
});

describe('the run checks of time, end to end', () => {
  it('reads the canary through every phase, alone, and keeps the report bounded', { timeout: 60_000 }, async () => {
    const server = await startReference();
    closeLater(() => server.close());
    let inFlight = 0;
    let canaryCrowded = 0;
    const canaryId = plantOf(capacityCases(contract, { token: TEST_TOKEN }).canary.body).id;
    const url = await faulty((request, correct) => {
      if (plantOf(request.body).id === canaryId && inFlight > 0) canaryCrowded++;
      inFlight++;
      return answerAfter(sleep(1).then(() => inFlight--), correct());
    });
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 3, runs: 300, capacity: 1000, canaryIntervalMs: 50 });
    expect(report.passed, JSON.stringify(report.failures)).toBe(true);
    expect(canaryCrowded).toBe(0);
    const phases = new Set(report.degradation.readings.map((r) => r.phase));
    expect([...phases]).toEqual(['coverage', 'capacity', 'random', 'overlap']);
    const positions = report.degradation.readings.map((r) => r.afterExchanges);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // Judged and not degraded; or, on a machine too loaded for enough readings, not judged, and the report says why.
    if (report.degradation.trend === undefined) expect(report.degradation.notJudged).toMatch(/^not enough readings/);
    else expect(report.degradation.trend.degraded).toBe(false);
    // Readings of the coverage phase are reported, not judged (its odd bodies slow the first of them).
    // Besides, the growth probes' readings, where they have a trend (fuzz/run/canary.ts).
    const growth = (report.degradation.growth ?? []).filter((g) => g.trend !== undefined).reduce((sum, g) => sum + g.readings.filter((r) => r.phase !== 'coverage').length, 0);
    if (report.degradation.trend !== undefined) expect(report.checks.degradation.requests).toBe(report.degradation.readings.filter((r) => r.phase !== 'coverage').length + growth);
    expect(report.responseTimes.windows.length).toBeLessThanOrEqual(MAX_WINDOWS);
    expect(report.responseTimes.slowest.length).toBeLessThanOrEqual(10);
    expect(report.responseTimes.histogram.reduce((sum, b) => sum + b.count, 0)).toBe(report.responseTimes.responses);
    expect(report.phases.capacity?.startedMs).toBeGreaterThan(report.phases.coverage?.startedMs ?? Infinity);
  });

  it('finds an input that is slow every time and shrinks it to the shortest that still is', { timeout: 180_000 }, async () => {
    // Slow on a name made of a run of 20 or more of one word character ended by another character
    // (a regular expression that backtracks): 400 ms, whatever else is going on.
    const url = await faulty((request, correct) => {
      const name = objectBodyOf(request)?.name;
      return typeof name === 'string' && /^(\w)\1{19,}[^\w\s]$/.test(name) ? answerAfter(sleep(400), correct()) : correct();
    });
    // Shrinking re-times every candidate: on a loaded machine it needs more than the default 20 s.
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 4, phases: ['random'], maxResponseTimeMs: 250, shrinkTimeMs: 90_000 });
    expect(report.failures.map((f) => f.check)).toEqual(['response-time']);
    const [finding] = report.failures;
    expect(finding).toMatchObject({ phase: 'random', reproduced: true });
    expect(finding?.shrinks).toBeGreaterThan(0);
    // Read from the text, not JSON.parse: the shrunk request may be one refused for another reason (a malformed body).
    const name = /"name"\s*:\s*"([^"]*)"/.exec(finding?.request?.body ?? '')?.[1] ?? '';
    // The shortest name that is still slow: 20 of one word character and one other (which ones, the shrinking's path decides).
    expect(name, `${name.length} characters after ${finding?.shrinks ?? 0} shrinks`).toMatch(/^(\w)\1{19}[^\w\s]$/);
    // The name is slow in any request: a valid one, or one refused for another reason (id missing,
    // credentials refused: the store reads the name first); which one, the shrinking's path decides
    // (a clean-clone CI shrank to a bad-auth request, answered 401).
    expect(finding?.message).toMatch(/ request \(.*\) was answered (200|400|401) after \d+ ms; the bound is 250 ms/);
    expect(report.responseTimes.boundMs).toBe(250);
  });

  it('takes a stall of the run for no finding: a slow answer must be slow again when replayed alone', { timeout: 60_000 }, async () => {
    // One plain valid request of the random phase, after its 100th, stalls once (not one the run times otherwise: a request
    // framed on a connection of its own, held with others in flight, or refused; nor the canary, whose body repeats and
    // whose reading is the fastest of its sends, so that a stall of it is never seen as slow).
    let seen = 0;
    let stalled = false;
    const bodies = new Set<string>();
    const plain = (request: AppRequest): boolean => request.headers.expect === undefined && request.headers['transfer-encoding'] === undefined && request.headers.connection === undefined && !request.url.includes('?');
    const url = await faulty((request, correct) => {
      const answer = correct();
      const body = Buffer.from(request.body ?? '').toString('latin1');
      const repeated = bodies.has(body);
      bodies.add(body);
      if (seen++ < 100 || stalled || answer.status !== 200 || !plain(request) || repeated) return answer;
      stalled = true;
      return answerAfter(sleep(600), answer);
    });
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 5, runs: 200, maxResponseTimeMs: 300, phases: ['random'] });
    expect(report.failures).toEqual([]);
    expect(report.responseTimes.unconfirmed).toBeGreaterThanOrEqual(1);
    expect(report.responseTimes.slowest[0]?.durationMs).toBeGreaterThan(600);
    expect(report.checks['response-time'].failures).toBe(0);
  });

  it('reports a target that gets slower with every request, with the figures', { timeout: 120_000 }, async () => {
    // A millisecond more for every 150 requests answered: no CPU spent, a clean steady rise.
    let answered = 0;
    const url = await faulty((_request, correct) => answerAfter(sleep(Math.floor(answered++ / 150)), correct()));
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 6, runs: 600, capacity: 3000, canaryIntervalMs: 100 });
    expect(report.failures.map((f) => f.check)).toEqual(['degradation']);
    expect(report.failures[0]?.message).toMatch(/^the target got steadily slower: the canary .* Mann–Kendall z = [\d.]+/);
    expect(report.failures[0]?.request).toBeUndefined();
    expect(report.degradation.trend).toMatchObject({ degraded: true });
    expect(report.degradation.trend?.msPer1000).toBeGreaterThan(3);
  });

  it('keeps the random phase going for durationMs, with --runs as the least', { timeout: 60_000 }, async () => {
    const server = await startReference();
    closeLater(() => server.close());
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed: 7, runs: 10, durationMs: 2000, phases: ['random'] });
    expect(report.passed).toBe(true);
    expect(report.phases.random?.durationMs).toBeGreaterThanOrEqual(2000);
    expect(report.phases.random?.requests).toBeGreaterThan(250);
  });
});
