import { defineConfig } from 'vitest/config';
import base, { SLOW_ONLY } from './vitest.config.js';

/**
 * `npm run test:slow`: the shared conformance suite (test/conformance/common.ts) with every run a
 * default run, as `plant-store conform` sends it (PLANT_STORE_CONFORM_BUDGET=default), where
 * `npm test` gives each implementation the suite's smaller budget; and the files `npm test` leaves
 * here (SLOW_ONLY). `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/conformance/*.test.ts', ...SLOW_ONLY],
    // The conformance files whose focused runs do not depend on the budget and cost seconds: npm test runs them.
    exclude: ['test/conformance/cli.test.ts', 'test/conformance/stateful.test.ts', 'test/conformance/patch-results.test.ts', 'test/conformance/survey-shapes.test.ts'],
    env: { ...base.test?.env, PLANT_STORE_CONFORM_BUDGET: 'default' },
    // One file at a time, as the suite was measured: faulty-alone.test.ts's defects show in time,
    // and beside another file's default runs (load 18 to 22) the listener leak's fill stopped at 1,711 plants.
    maxWorkers: 1,
  },
});
