/**
 * The runner against real sockets: reproducible from a seed, shrinking to a minimal request, never
 * hanging; its phases in order, the canary through them, capacity, endurance runs, and the run
 * checks of time found end to end (slow answers shrunk, a steady slowdown reported with figures).
 */
import { describe, expect, it } from 'vitest';
import { closedAfterAll, startReference, TEST_TOKEN } from '../../support/servers.js';
import { loadContract } from '../../../src/openapi/index.js';
import { capacityCases } from '../../../fuzz/generation/capacity.js';
import { formatReport } from '../../../fuzz/reports/text.js';
import { runConformance, TargetUnreachableError, type Progress } from '../../../fuzz/run/runner.js';

const { faulty, closeLater } = closedAfterAll();

describe('runConformance', () => {
  it('sends the same requests for the same seed', async () => {
    const seen: string[][] = [[], []];
    let round = 0;
    const cases = capacityCases(loadContract(), { token: TEST_TOKEN });
    const canary = Buffer.from(cases.canary.body).toString('base64');
    const otherClients = Buffer.from(cases.otherClient?.(0).body ?? '').toString('base64');
    const url = await faulty((request, correct) => {
      const body = Buffer.from(request.body ?? '').toString('base64');
      // The canary is read at intervals of time: how often depends on the machine, not on the seed; so
      // are its growth probes (the canary as other clients, and a plant of the fill sent again).
      if (body !== canary && body !== otherClients) seen[round]?.push(`${String(request.headers.authorization)} ${String(request.headers['content-type'])} ${body}`);
      return correct();
    });
    const first = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 42, runs: 150, capacity: 300 });
    round = 1;
    const second = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 42, runs: 150, capacity: 300 });
    expect(first.passed && second.passed).toBe(true);
    expect(seen[0]?.length).toBeGreaterThan(150);
    // Requests run concurrently, so their order may differ; the requests themselves may not (each
    // once: the canary's entries probe sends the plant stored last again, as often as time says).
    expect([...new Set(seen[1])].sort()).toEqual([...new Set(seen[0])].sort());
    // Per kind (the canary counted apart: a phase's count includes its readings, which depend on time).
    expect(second.kinds).toEqual(first.kinds);
  });

  it('shrinks a failure to a minimal request, with its check, response, curl command and seed', async () => {
    const url = await faulty((request, correct, app) => {
      const body = Buffer.from(request.body ?? '').toString('utf8');
      // Accepts a NewPlant without a name, as if name were optional.
      if (body.startsWith('{') && !body.includes('"name"') && correct().code === 'invalid_body') {
        return app.request({ ...request, body: body.replace('{', '{"name":"unnamed",') });
      }
      return correct();
    });
    // The random phase alone: its failures are shrunk (a coverage request is minimal already).
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 7, phases: ['random'] });
    expect(report.passed).toBe(false);
    expect(report.failures.map((f) => f.check)).toEqual(['rejects-invalid']);
    const [failure] = report.failures;
    expect(failure?.reproduced).toBe(true);
    expect(failure?.shrinks).toBeGreaterThan(0);
    expect(failure?.request?.variant).toBe('name is missing');
    // The minimal NewPlant without a name: an id and nothing else.
    expect(JSON.parse(failure?.request?.body ?? '')).toEqual({ id: 0 });
    expect(failure?.response).toMatchObject({ kind: 'response', status: 200 });
    expect(failure?.curl).toContain(`-H "authorization: Bearer \${TOKEN}"`);
    expect(failure?.curl).not.toContain(TEST_TOKEN);
    expect(failure?.seed).toBe(7);
    expect(report.checks['rejects-invalid'].failures).toBe(failure?.occurrences);
  });

  it('reports a failure of a coverage request as sent, replayed once, whatever the seed', async () => {
    const url = await faulty((request, correct, app) => {
      const body = Buffer.from(request.body ?? '').toString('utf8');
      if (body.startsWith('{') && !body.includes('"name"') && correct().code === 'invalid_body') return app.request({ ...request, body: body.replace('{', '{"name":"unnamed",') });
      return correct();
    });
    const variants = await Promise.all([3, 4].map(async (seed) => {
      const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed, runs: 20, phases: ['coverage', 'random'] });
      const [failure] = report.failures;
      expect(failure).toMatchObject({ check: 'rejects-invalid', severity: 'failure', phase: 'coverage', reproduced: true, shrinks: 0 });
      expect(failure?.path).toBeUndefined();
      expect(formatReport(report)).toContain('a coverage request, sent in every run');
      return failure?.request?.variant;
    }));
    expect(variants).toEqual(['name is missing', 'name is missing']);
  });

  it('stops a run against a target that never answers, reporting it, in bounded time', async () => {
    const url = await faulty(() => 'hang');
    const started = Date.now();
    const report = await runConformance({ baseUrl: url, token: TEST_TOKEN, seed: 1, timeoutMs: 200, shrinkTimeMs: 2000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.stoppedEarly).toMatch(/timed out on \d+ requests/);
    expect(report.passed).toBe(false);
    expect(report.failures.map((f) => f.check)).toEqual(['no-server-error']);
    expect(report.failures[0]?.response).toMatchObject({ kind: 'failure', failure: 'timeout' });
  });

  it('says an unreachable target cannot be reached, before sending anything', async () => {
    const server = await startReference();
    const url = server.url;
    await server.close();
    await expect(runConformance({ baseUrl: url, token: TEST_TOKEN })).rejects.toThrow(TargetUnreachableError);
  });

  it('under the mock profile, needs no token and does not check echo', async () => {
    // Like a mock: any well-formed bearer token is accepted.
    const url = await faulty((request, correct, app) => {
      const match = /^(bearer) [A-Za-z0-9\-._~+/]+=*$/i.exec(String(request.headers.authorization));
      return match ? app.request({ ...request, headers: { ...request.headers, authorization: `${match[1] ?? ''} ${TEST_TOKEN}` } }) : correct();
    });
    const report = await runConformance({ baseUrl: url, profile: 'mock', seed: 3, runs: 300, capacity: 200 });
    expect(report.failures).toEqual([]);
    expect(report.checks.echo.requests).toBe(0);
    expect(report.checks['accepts-valid'].requests).toBeGreaterThan(0);
  });

  it('reports progress and refuses options it cannot use', async () => {
    const server = await startReference();
    closeLater(() => server.close());
    const progress: Progress[] = [];
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed: 5, runs: 50, capacity: 100, onProgress: (p) => progress.push(p) });
    const coverage = progress.filter((p) => p.phase === 'coverage');
    expect(coverage.length).toBeGreaterThan(0);
    expect(coverage.map((p) => p.done)).toEqual(Array.from({ length: coverage[0]?.total ?? 0 }, (_, i) => i + 1));
    // The capacity phase: 100 plants, then the earliest tenth of them replaced.
    expect(progress.filter((p) => p.phase === 'capacity').map((p) => p.done)).toEqual(Array.from({ length: 110 }, (_, i) => i + 1));
    expect(progress.filter((p) => p.phase === 'random').map((p) => p.done)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const phases = progress.map((p) => p.phase).filter((p, i, all) => p !== all[i - 1]);
    expect(phases).toEqual(['coverage', 'capacity', 'random', 'overlap']);
    expect(report.requestsPerSecond).toBeGreaterThan(0);
    await expect(runConformance({ baseUrl: server.url, token: TEST_TOKEN, runs: 0 })).rejects.toThrow(RangeError);
    await expect(runConformance({ baseUrl: server.url, token: TEST_TOKEN, durationMs: -1 })).rejects.toThrow(RangeError);
    await expect(runConformance({ baseUrl: server.url, token: TEST_TOKEN, capacity: Number.NaN })).rejects.toThrow(RangeError);
    await expect(runConformance({ baseUrl: server.url })).rejects.toThrow(/token/);
    await expect(runConformance({ baseUrl: 'ftp://127.0.0.1/', token: TEST_TOKEN })).rejects.toThrow(/http and https/);
  });
});
