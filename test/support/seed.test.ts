/** The seed helper: a seed from the environment or a printed one, and a replay command that replays. */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fcParameters, replayCommand, seedFrom, seedsFrom } from './seed.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What `console.log` printed while `run` ran. */
function printed<T>(run: () => T): { result: T; lines: string[] } {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const result = run();
    return { result, lines: log.mock.calls.map((call) => String(call[0])) };
  } finally {
    log.mockRestore();
  }
}

describe('seedFrom and seedsFrom', () => {
  it('read the variable, or use the fallback, and print the command that replays this file', () => {
    vi.stubEnv('SOME_SEED', '42');
    expect(printed(() => seedFrom('SOME_SEED', 7, 'some run'))).toEqual({ result: 42, lines: ['some run: seed 42 (replay: SOME_SEED=42 npx vitest run test/support/seed.test.ts)'] });
    vi.stubEnv('SOME_SEED', undefined);
    expect(printed(() => seedFrom('SOME_SEED', 7, 'some run')).result).toBe(7);
    vi.stubEnv('SOME_SEEDS', '3, 1,2');
    expect(printed(() => seedsFrom('SOME_SEEDS', [9], 'suite')).lines).toEqual(['suite: seeds 3,1,2 (replay: SOME_SEEDS=3,1,2 npx vitest run test/support/seed.test.ts)']);
  });

  it('pick a fresh seed when asked, and print it', () => {
    const { result, lines } = printed(() => seedFrom('UNSET_SEED_VARIABLE', 'random', 'fresh'));
    expect(Number.isSafeInteger(result)).toBe(true);
    expect(lines).toEqual([`fresh: seed ${result} (replay: UNSET_SEED_VARIABLE=${result} npx vitest run test/support/seed.test.ts)`]);
  });

  it.each(['abc', '1.5', '', '1e400'])('refuse %j rather than run with NaN', (text) => {
    vi.stubEnv('SOME_SEED', text);
    expect(() => seedFrom('SOME_SEED', 7, 'x')).toThrow(/SOME_SEED=.* is not an integer seed/);
    vi.stubEnv('SOME_SEEDS', `1,${text}`);
    expect(() => seedsFrom('SOME_SEEDS', [7], 'x')).toThrow(/SOME_SEEDS=.* is not an integer seed/);
  });

  it('quotes what a shell would split', () => {
    expect(replayCommand({ A: '1:2:3', B: 'two words' })).toBe('A=1:2:3 B="two words" npx vitest run test/support/seed.test.ts');
  });
});

describe('fcParameters', () => {
  beforeEach(() => {
    // Whatever the run around these tests was asked to replay.
    for (const name of ['FC_SEED', 'FC_PATH', 'FC_RUNS']) vi.stubEnv(name, undefined);
  });

  const failing = fc.property(fc.integer(), (n) => {
    expect(n).toBeLessThan(1000);
  });

  /** The message of the failure of `failing` under the parameters the environment gives. */
  const failure = (): string => {
    let message = '';
    printed(() => {
      try {
        fc.assert(failing, fcParameters('probe', 100));
      } catch (error) {
        message = (error as Error).message;
      }
    });
    return message;
  };

  it('ends a failure with a replay command, and that command replays the shrunk counterexample at once', () => {
    const message = failure();
    expect(message).toMatch(/Counterexample: \[1000\][\s\S]*replay: FC_SEED=-?\d+ FC_PATH=[\d:]+ npx vitest run test\/support\/seed\.test\.ts$/);
    const [, seed = '', path = ''] = /replay: FC_SEED=(-?\d+) FC_PATH=([\d:]+)/.exec(message) ?? [];
    vi.stubEnv('FC_SEED', seed);
    vi.stubEnv('FC_PATH', path);
    const replayed = failure();
    expect(replayed).toContain('Property failed after 1 tests');
    expect(replayed).toContain('Counterexample: [1000]');
  });

  it('takes the number of runs from FC_RUNS and says so in the replay command', () => {
    vi.stubEnv('FC_RUNS', '12');
    vi.stubEnv('FC_SEED', '5');
    const { result, lines } = printed(() => fcParameters('runs', 100));
    expect(result).toMatchObject({ seed: 5, numRuns: 12 });
    expect(lines).toEqual(['runs (fast-check, 12 runs): seed 5 (replay: FC_SEED=5 FC_RUNS=12 npx vitest run test/support/seed.test.ts)']);
  });
});
