/**
 * The pure helpers of bench/: the arithmetic behind the printed figures, the soak's contract
 * check, the workload's agreement with openapi.yaml, and the start-up timer's mechanics (which
 * commands it ran, how often, that it stops them). No timing bound here: speed is measured by
 * `npm run bench`, never asserted in a unit test.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { measureStartup } from '../../bench/startup.js';
import { PADDING_US, ROOT, startTarget, type TargetSpec } from '../../bench/targets.js';
import { asEngineExchange, judgeSoakExchange, type SoakExchange } from '../../bench/verdict.js';
import { hotFunctions, type CpuProfile } from '../../bench/profile.js';
import { goalsLine, median, meets, pairedDifference, pairedRatio, percentile, ratio, type RoundFigures, Samples, slope, summarize, table } from '../../bench/stats.js';
import { BENCH_MIX, checkWorkload, idSequence, overLimitKind, soakExtras, type Kind } from '../../bench/workload.js';
import { INT64_MAX, INT64_MIN } from '../../src/openapi/index.js';

describe('percentile (nearest rank)', () => {
  it('takes the smallest value with at least p% at or below it', () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 0)).toBe(15);
    expect(percentile(values, 25)).toBe(20);
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 40)).toBe(20);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 100)).toBe(50);
  });

  it('does not care about input order, and is NaN for no values', () => {
    const shuffled = Float64Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1000) + 1);
    expect(percentile(shuffled, 99)).toBe(990);
    expect(percentile(shuffled, 50)).toBe(500);
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('median, ratio, slope', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('a ratio against nothing is NaN, not Infinity', () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(3, 0)).toBeNaN();
    expect(ratio(Number.NaN, 4)).toBeNaN();
  });

  it('least-squares slope', () => {
    expect(slope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBeCloseTo(2);
    expect(slope([{ x: 0, y: 7 }, { x: 1, y: 7 }])).toBe(0);
    expect(slope([{ x: 1, y: 1 }])).toBe(0);
  });

  it('Samples grows past its first allocation without losing values', () => {
    const samples = new Samples();
    for (let i = 0; i < 5000; i++) samples.push(i / 10);
    expect(samples.length).toBe(5000);
    expect(samples.values()[4999]).toBe(499.9);
    expect(percentile(samples.values(), 50)).toBe(249.9);
  });
});

describe('rounds and targets', () => {
  const round = (n: number, rps: number, p99: number): RoundFigures => ({ round: n, requestsPerSecond: rps, p50Ms: 1, p99Ms: p99 });

  it('pairs ratios within a round, then takes the median', () => {
    const reference = [round(1, 800, 4), round(2, 400, 8), round(3, 900, 3)];
    const baseline = [round(1, 1000, 2), round(2, 1000, 2), round(3, 1000, 2)];
    expect(pairedRatio(reference, baseline, (r) => r.requestsPerSecond)).toBe(0.8);
    expect(pairedRatio(reference, baseline, (r) => r.p99Ms)).toBe(2);
    // a round measured for one target only does not count
    expect(pairedRatio([round(4, 1, 1)], baseline, (r) => r.requestsPerSecond)).toBeNaN();
  });

  it('pairs differences within a round, then takes the median: what one target adds to another', () => {
    const proxy = [round(1, 1, 2.5), round(2, 1, 9), round(3, 1, 3.25)];
    const reference = [round(1, 1, 2), round(2, 1, 2), round(3, 1, 3)];
    expect(pairedDifference(proxy, reference, (r) => r.p99Ms)).toBe(0.5);
    expect(pairedDifference([round(4, 1, 1)], reference, (r) => r.p99Ms)).toBeNaN();
  });

  it('summarizes rounds with medians and the spread', () => {
    const summary = summarize('x', [round(1, 100, 5), round(2, 300, 1), round(3, 200, 3)]);
    expect(summary).toMatchObject({ rounds: 3, requestsPerSecond: 200, p99Ms: 3, minRequestsPerSecond: 100, maxRequestsPerSecond: 300 });
    expect(summary.cpuUsPerRequest).toBeNaN();
  });

  it('judges a target by its bounds; NaN never meets one', () => {
    expect(meets({ name: 'a', value: 0.8, min: 0.75 })).toBe(true);
    expect(meets({ name: 'a', value: 0.7, min: 0.75 })).toBe(false);
    expect(meets({ name: 'b', value: 2.5, max: 2 })).toBe(false);
    expect(meets({ name: 'c', value: Number.NaN, min: 0 })).toBe(false);
  });

  it('sums up the goals: those with a bound, how many hold, which are missed (information is no goal)', () => {
    const goals = [
      { name: 'a / b, req/s', value: 0.9, min: 0.85 },
      { name: 'a / c, req/s', value: 0.9, min: 0.95 },
      { name: 'a / b, p99', value: 1.2, max: 2 },
      { name: 'a / b, CPU', value: 9 },
    ];
    expect(goalsLine(goals)).toBe('goals: 2 of 3 hold; MISSED: a / c, req/s');
    expect(goalsLine(goals.slice(0, 1))).toBe('goals: 1 of 1 hold');
  });

  it('lays out a table with aligned columns', () => {
    expect(table(['t', 'n'], [['ab', '1'], ['c', '234']])).toBe('t     n\n--  ---\nab    1\nc   234');
  });
});

describe('CPU profile summary', () => {
  it('adds self time per function and total time up the stack, leaving idle out of the shares', () => {
    const frame = (functionName: string, lineNumber = 0): CpuProfile['nodes'][number]['callFrame'] => ({ functionName, url: 'file:///kit/src/a.js', lineNumber });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
        { id: 2, callFrame: frame('outer'), children: [3] },
        { id: 3, callFrame: frame('inner', 9) },
        { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      ],
      samples: [3, 3, 2, 4],
      timeDeltas: [1000, 1000, 2000, 5000],
    };
    const hot = hotFunctions(profile, '/kit');
    expect(hot[0]).toMatchObject({ name: 'inner', where: 'src/a.js:10', selfMs: 2, totalMs: 2, selfPercent: 50 });
    expect(hot.find((h) => h.name === 'outer')).toMatchObject({ selfMs: 2, totalMs: 4, totalPercent: 100 });
    expect(hot.some((h) => h.name === '(idle)')).toBe(false);
  });
});

describe('the workload agrees with openapi.yaml', () => {
  it('every body the mix calls valid is a NewPlant by the contract, and the others are not', () => {
    expect(() => {
      checkWorkload([...BENCH_MIX, ...soakExtras(64), overLimitKind(1024)]);
    }).not.toThrow();
    const wrong: Kind = { ...(BENCH_MIX[0] as Kind), name: 'mislabelled', body: '{"name":"a"}', validNewPlant: true };
    expect(() => {
      checkWorkload([wrong]);
    }).toThrow(/mislabelled: the contract says invalid/);
  });

  it('the over-limit body is exactly one byte over', () => {
    expect(Buffer.byteLength(overLimitKind(1024).body)).toBe(1025);
  });

  it('generated ids are distinct int64s on both sides of zero, far past 2^53', () => {
    const next = idSequence();
    const ids = Array.from({ length: 10_000 }, () => BigInt(next()));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id >= INT64_MIN && id <= INT64_MAX)).toBe(true);
    expect(ids.some((id) => id < 0n) && ids.some((id) => id > 2n ** 53n)).toBe(true);
  });
});

describe('judgeSoakExchange', () => {
  const valid = BENCH_MIX.find((k) => k.name === 'valid-2^53+1') as Kind;
  const missingId = BENCH_MIX.find((k) => k.name === 'missing-id') as Kind;
  const noCredentials = soakExtras(64).find((k) => k.name === 'no-credentials') as Kind;
  const otherPath = soakExtras(64).find((k) => k.name === 'other-path') as Kind;
  const json = { 'content-type': 'application/json' };
  const exchange = (kind: Kind, status: number, body: string, headers: SoakExchange['headers'] = json): SoakExchange => ({ kind, status, body, headers });
  const checksOf = (violations: readonly string[]): string[] => violations.map((v) => v.split(':', 1)[0] ?? v);

  it('holds for answers the reference gives', () => {
    expect(judgeSoakExchange(exchange(valid, 200, '{"name":"Ficus","tag":"indoor","id":9007199254740993}'))).toEqual([]);
    expect(judgeSoakExchange(exchange(missingId, 400, '{"error":400,"message":"id: is required"}', { 'Content-Type': 'application/json; charset=utf-8' }))).toEqual([]);
    expect(judgeSoakExchange(exchange(noCredentials, 401, '{"error":401,"message":"x"}', { ...json, 'WWW-Authenticate': 'Bearer realm="plant-store"' }))).toEqual([]);
    expect(judgeSoakExchange(exchange(otherPath, 404, '{"error":404,"message":"x"}'))).toEqual([]);
  });

  it('hands the exchange to the engine in its terms', () => {
    const engine = asEngineExchange(exchange(valid, 200, '{}', { 'Content-Type': 'application/json', Vary: ['a', 'b'] }));
    expect(engine?.request).toMatchObject({ method: 'POST', path: '/plants', kind: 'valid', content: 'valid', credentials: 'valid' });
    expect(engine?.outcome).toMatchObject({ kind: 'response', status: 200, headers: { 'content-type': 'application/json', vary: 'a, b' } });
    expect(asEngineExchange(exchange(otherPath, 404, '{}'))).toBeUndefined();
  });

  it('catches an id that went through a double (the engine\'s echo and the reference\'s own rule)', () => {
    expect(checksOf(judgeSoakExchange(exchange(valid, 200, '{"name":"Ficus","tag":"indoor","id":9007199254740992}')))).toEqual(['echo', 'reference']);
    expect(judgeSoakExchange(exchange(valid, 200, '{"name":"Ficus","tag":"indoor"}'))).toEqual(['reference: id null is not the id sent']);
  });

  it('catches a 5xx, an undeclared status, a wrong media type and a body outside the contract', () => {
    expect(checksOf(judgeSoakExchange(exchange(missingId, 500, '{"error":500,"message":"x"}')))).toEqual(['status-declared', 'no-server-error', 'reference']);
    expect(checksOf(judgeSoakExchange(exchange(missingId, 400, '{"error":400,"message":"x"}', { 'content-type': 'application/problem+json' })))).toEqual(['response-shape']);
    expect(checksOf(judgeSoakExchange(exchange(missingId, 400, '{"error":"400","message":"x"}')))).toEqual(['response-shape', 'reference']);
    expect(judgeSoakExchange(exchange(otherPath, 404, '<html></html>'))).toEqual([expect.stringMatching(/^reference: 404 body is not an Error/)]);
  });

  it('catches a 401 without its challenge and an Error whose error is not the status', () => {
    expect(checksOf(judgeSoakExchange(exchange(noCredentials, 401, '{"error":401,"message":"x"}')))).toEqual(['response-shape', 'requires-auth']);
    expect(judgeSoakExchange(exchange(missingId, 400, '{"error":401,"message":"x"}'))).toEqual(['reference: Error.error is not the status 400']);
  });
});

describe('start-up until the first line (bench/startup.ts)', () => {
  const quick = { name: 'prints', args: ['-e', 'process.stdout.write("up\\n")'] };
  // A server-like command: prints its line, then would run until stopped.
  const staying = { name: 'stays', args: ['-e', 'process.stdout.write("listening\\n"); setInterval(() => {}, 1000)'], goalMs: 60_000 };

  it('times each command every round, stops a command that keeps running, and keeps its goal', async () => {
    const figures = await measureStartup(3, [quick, staying]);
    expect(figures.map((f) => [f.name, f.runs.length, f.goalMs])).toEqual([
      ['prints', 3, undefined],
      ['stays', 3, 60_000],
    ]);
    for (const f of figures) {
      expect(f.minMs).toBeGreaterThan(0);
      expect(f.minMs).toBeLessThanOrEqual(f.medianMs);
      expect(f.medianMs).toBeLessThanOrEqual(f.maxMs);
    }
  });

  it('refuses a command that ends without a line: it never started', async () => {
    await expect(measureStartup(1, [{ name: 'silent', args: ['-e', '0'] }])).rejects.toThrow(/ended before printing a line/);
  });
});

describe('the padded baseline (bench/baseline-server.ts with a padding)', () => {
  // The built server (npm test builds first), as `npm run bench` runs it.
  const server = (padding: string): TargetSpec => ({
    name: `baseline ${padding}`,
    description: 'the bench baseline',
    unavailable: () => undefined,
    launch: () => ({ command: process.execPath, args: [join(ROOT, 'dist', 'bench', 'baseline-server.js'), padding] }),
  });

  it(`started with a padding (${PADDING_US} µs), answers every body of the mix as the bare baseline does`, async () => {
    const [bare, padded] = await Promise.all([startTarget(server('0')), startTarget(server(String(PADDING_US)))]);
    try {
      const answers = async (url: string): Promise<string[]> => {
        const seen: string[] = [];
        for (const kind of BENCH_MIX) {
          const response = await fetch(url + kind.path, { method: kind.method, headers: kind.headers, body: kind.body });
          seen.push(`${response.status} ${await response.text()}`);
        }
        return seen;
      };
      const expected = await answers(bare.url);
      expect(expected.filter((a) => a.startsWith('200 '))).toHaveLength(7);
      expect(await answers(padded.url)).toEqual(expected);
    } finally {
      await Promise.all([bare.stop(), padded.stop()]);
    }
  });
});
