/**
 * The seeds of the tests' random runs, in one place. A run reads its seed from an environment
 * variable, or else uses its fixed default or picks a fresh one, and prints the seed with the
 * command that replays the run:
 *
 * | variable                        | what it seeds                                             | unset     |
 * | ------------------------------- | --------------------------------------------------------- | --------- |
 * | `FC_SEED`                       | every fast-check property (`fcParameters`)                 | random    |
 * | `FC_PATH`                       | with FC_SEED: the path of a shrunk counterexample to replay |           |
 * | `FC_RUNS`                       | the number of runs of every fast-check property            | per test  |
 * | `PLANT_STORE_DIFFERENTIAL_SEED` | the generated requests of the differential test            | 4010      |
 * | `PLANT_STORE_CONFORM_SEEDS`     | the conformance suite's runs, comma-separated              | fixed set |
 *
 * e.g. `FC_SEED=123 FC_PATH="0:1" npx vitest run test/reference/store-model.test.ts`.
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** `VAR=value npx vitest run <the test file being collected>`. */
export function replayCommand(assignments: Readonly<Record<string, string | number>>): string {
  const testPath = expect.getState().testPath;
  const file = testPath === undefined ? '' : ` ${relative(ROOT, testPath)}`;
  const variables = Object.entries(assignments).map(([name, value]) => `${name}=${/^[\w.,:-]+$/.test(String(value)) ? String(value) : JSON.stringify(String(value))}`);
  return `${variables.join(' ')} npx vitest run${file}`;
}

function integerFrom(variable: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isSafeInteger(value)) throw new Error(`${variable}=${text} is not an integer seed`);
  return value;
}

/** A 32-bit seed for a run nobody asked to replay. */
const freshSeed = (): number => (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

/**
 * The seed in `variable`, else `fallback` (a fixed seed, or `'random'` for a fresh one each run);
 * printed with its replay command under `label`.
 */
export function seedFrom(variable: string, fallback: number | 'random', label: string, alsoReplay: Readonly<Record<string, string | number>> = {}): number {
  const text = process.env[variable];
  const seed = text === undefined ? (fallback === 'random' ? freshSeed() : fallback) : integerFrom(variable, text);
  console.log(`${label}: seed ${seed} (replay: ${replayCommand({ [variable]: seed, ...alsoReplay })})`);
  return seed;
}

/** The comma-separated seeds in `variable`, else `fallback`; printed with their replay command under `label`. */
export function seedsFrom(variable: string, fallback: readonly number[], label: string): readonly number[] {
  const text = process.env[variable];
  const seeds = text === undefined ? fallback : text.split(',').map((part) => integerFrom(variable, part));
  if (seeds.length === 0 || seeds.some((seed) => seed < 0)) throw new Error(`${variable}=${text ?? ''}: give one or more seeds, 0 or more`);
  console.log(`${label}: seeds ${seeds.join(',')} (replay: ${replayCommand({ [variable]: seeds.join(',') })})`);
  return seeds;
}

/**
 * The parameters of one fast-check property: FC_SEED or a fresh seed (printed), FC_PATH, FC_RUNS
 * or `numRuns`; a failure's message ends with the command that replays exactly the shrunk
 * counterexample. Call it inside the test, so that each property prints its own seed.
 */
export function fcParameters<Ts>(label: string, numRuns: number): fc.Parameters<Ts> {
  const runs = process.env.FC_RUNS === undefined ? numRuns : integerFrom('FC_RUNS', process.env.FC_RUNS);
  const seed = seedFrom('FC_SEED', 'random', `${label} (fast-check, ${runs} runs)`, process.env.FC_RUNS === undefined ? {} : { FC_RUNS: runs });
  const path = process.env.FC_PATH;
  return {
    seed,
    numRuns: runs,
    ...(path === undefined ? {} : { path }),
    plugins: [
      () => ({
        onAllRunsComplete: (details) => {
          if (!details.failed) return;
          // The path replays the shrunk counterexample alone, whatever the number of runs.
          const replay = replayCommand({ FC_SEED: details.seed, ...(details.counterexamplePath === null ? {} : { FC_PATH: details.counterexamplePath }) });
          throw new Error(`${fc.defaultReportMessage(details) ?? `${label} failed`}\n\nreplay: ${replay}`, { cause: details.errorInstance });
        },
      }),
    ],
  };
}
