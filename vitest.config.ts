import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files `npm test` leaves to `npm run test:slow` (vitest.slow.config.ts), which CI runs after it:
 * the conformance files whose runs do not depend on the suite's budget (they are the same in both
 * tiers, so one tier runs them); the frameworks' stores, which test:slow runs whole (default runs
 * are the stronger proof of honesty); the defects that show in time and the time-and-capacity
 * engine tests (one file at a time there: they read time, and beside another file on two cores
 * they went wrong on a loaded machine); and the map's focused proofs. Every check stays proven in
 * CI; `npm test` stays under six minutes on a 2-core machine.
 */
export const SLOW_ONLY: readonly string[] = [
  'test/conformance/challenges.test.ts',
  'test/conformance/map-json.test.ts',
  'test/conformance/map-targets.test.ts',
  'test/conformance/resource-patterns.test.ts',
  'test/conformance/schemes.test.ts',
  'test/conformance/faulty-alone.test.ts',
  'test/conformance/examples.test.ts',
  'test/conformance/frameworks.test.ts',
  'test/fuzz/time-and-capacity.test.ts',
  'test/fuzz/run/backtracking-coverage.test.ts',
  'test/requirements/map-answers.test.ts',
  'test/fuzz/map-messages.test.ts',
];

export default defineConfig({
  test: {
    // One layout: every test lives under test/, in a folder named after what it tests.
    include: ['test/**/*.test.ts'],
    // The packed kit installed into an empty project: a minute or two and the npm registry (or its
    // cache), so not part of `npm test`; `npm run test:package` runs it (vitest.package.config.ts).
    // The tests that need a browser run with `npm run test:browser` (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**', 'test/browser/**', ...SLOW_ONLY],
    // Pact's native mock server and verifier do not like worker threads; every suite runs in a forked process.
    pool: 'forks',
    // Two files at a time (vitest's default on 2 cores is one, cores - 1): most files wait more than
    // they compute (child processes, sockets, answers held on purpose), so two overlap their waits.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
