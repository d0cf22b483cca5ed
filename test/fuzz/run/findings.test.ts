/** The reported findings: the first of each check shrunk or replayed, reused across checks, a run check's unconfirmed finding dropped. */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { RunTimeline } from '../../../fuzz/run/timeline.js';
import { reportFindings, type FindingParts } from '../../../fuzz/run/findings.js';
import { listPlan } from '../../../fuzz/run/plan.js';
import { REPLAYS } from '../../../fuzz/run/replays.js';
import { judgeRun } from '../../../fuzz/run/run-checks.js';
import { Tally } from '../../../fuzz/run/tally.js';
import type { RequestCase } from '../../../oracle/types.js';
import { answer, broken, contract, judged, kept, plants, token } from './support.js';

function partsOf(tally: Tally, timeline: RunTimeline, cases: readonly RequestCase[], answers: (request: RequestCase) => ReturnType<typeof answer>): FindingParts & { sent: RequestCase[] } {
  const run = timeline.record(1000);
  const context = { contract, profile: 'reference' } as const;
  const sent: RequestCase[] = [];
  return {
    sent,
    seed: 5,
    deadline: performance.now() + 10_000,
    execute: (request) => {
      sent.push(request);
      return Promise.resolve([judged(request, answers(request))]);
    },
    plans: [listPlan('coverage', cases)],
    tally,
    runFindings: judgeRun(run, context, tally),
    run,
    context,
    base: new URL('http://127.0.0.1:1/'),
    token,
    onProgress: undefined,
  };
}

describe('reportFindings', () => {
  it('reports the first failure of each check once, replayed once for all the checks it shows', async () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const first = broken(0);
    tally.record({ phase: 'coverage', order: 0, item: { index: 0, request: first.request, fresh: false } }, [first]);
    tally.record({ phase: 'coverage', order: 0, item: { index: 1, request: plants.fill(1), fresh: false } }, [broken(1)]);
    const parts = partsOf(tally, tally.timeline, [first.request, plants.fill(1)], () => answer(500, { error: 500, message: 'boom' }));
    const { reported, unconfirmed } = await reportFindings(parts);
    const checks = [...new Set(first.findings.filter((f) => f.severity === 'failure').map((f) => f.check))];
    expect(reported.map((f) => f.check)).toEqual(expect.arrayContaining(checks));
    // One replay to confirm it, shared by every check it shows; then each reported request replayed REPLAYS times to count.
    expect(parts.sent).toHaveLength(1 + REPLAYS * reported.length);
    const serverError = reported.find((f) => f.check === 'no-server-error');
    expect(serverError).toMatchObject({ severity: 'failure', phase: 'coverage', reproduced: true, shrinks: 0, occurrences: 2, seed: 5, response: { status: 500 }, replays: { reproduced: REPLAYS, of: REPLAYS } });
    expect(serverError?.curl).toContain('${TOKEN}');
    expect(serverError?.curl).not.toContain(token);
    expect(unconfirmed).toEqual({});
  });

  it('counts the replays of a flaky failure: seen once in the run, shown again by one replay of three', async () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const first = broken(0);
    tally.record({ phase: 'coverage', order: 0, item: { index: 0, request: first.request, fresh: false } }, [first]);
    let sends = 0;
    // Fails on every fourth send: the confirming replay, then one of the three counted.
    const parts = partsOf(tally, tally.timeline, [first.request], () => (sends++ % 4 === 0 ? answer(500, { error: 500, message: 'boom' }) : answer(200, {})));
    const { reported } = await reportFindings(parts);
    const serverError = reported.find((f) => f.check === 'no-server-error');
    expect(serverError).toMatchObject({ occurrences: 1, reproduced: true, replays: { of: REPLAYS } });
    expect(serverError?.replays?.reproduced).toBeLessThan(REPLAYS);
  });

  it('drops a slow answer that no replay alone shows again, and keeps its count apart', async () => {
    const timeline = new RunTimeline();
    for (let i = 0; i < 200; i++) timeline.add({ phase: 'coverage', index: i, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: i, durationMs: 2, status: 201 });
    timeline.add({ phase: 'coverage', index: 3, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: 300, durationMs: 5000, status: 201 });
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    tally.record({ phase: 'coverage', order: 0, item: { index: 3, request: plants.fill(3), fresh: false } }, [kept(3)]);
    const parts = partsOf(tally, timeline, [...Array(5).keys()].map((i) => plants.fill(i)), () => answer(201, {}, 2));
    expect(tally.checks['response-time'].failures).toBe(1);
    const { reported, unconfirmed } = await reportFindings(parts);
    expect(reported).toEqual([]);
    expect(unconfirmed).toEqual({ 'response-time': 1 });
    expect(tally.checks['response-time'].failures).toBe(0);
    // Replayed alone: the slow case itself.
    expect(parts.sent.length).toBeGreaterThan(0);
  });

  it("drops a slow answer even when another check's shrunk case happened to be slow once: reusing that case is no confirmation", async () => {
    // The run: one slow answer among fast ones (response-time's verdict), and a 500 (no-server-error's).
    const timeline = new RunTimeline();
    for (let i = 0; i < 200; i++) timeline.add({ phase: 'coverage', index: i, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: i, durationMs: 2, status: 201 });
    timeline.add({ phase: 'coverage', index: 3, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: 300, durationMs: 5000, status: 201 });
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const first = broken(0);
    tally.record({ phase: 'coverage', order: 0, item: { index: 0, request: first.request, fresh: false } }, [first]);
    tally.record({ phase: 'coverage', order: 1, item: { index: 3, request: plants.fill(3), fresh: false } }, [kept(3)]);
    let sends = 0;
    // The first send (confirming the 500) stalls once, as a loaded machine does; every later one is fast.
    const parts = partsOf(tally, timeline, [...Array(5).keys()].map((i) => (i === 0 ? first.request : plants.fill(i))), (request) =>
      request === first.request ? answer(500, { error: 500, message: 'boom' }, sends++ === 0 ? 5000 : 2) : answer(201, {}, 2),
    );
    const { reported, unconfirmed } = await reportFindings(parts);
    expect(reported.map((f) => f.check)).toContain('no-server-error');
    expect(reported.map((f) => f.check)).not.toContain('response-time');
    expect(unconfirmed).toEqual({ 'response-time': 1 });
  });
});
