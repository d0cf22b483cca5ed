import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:slow`: the shared conformance suite (test/conformance/common.ts) with every run a
 * default run, as `plant-store conform` sends it (PLANT_STORE_CONFORM_BUDGET=default), where
 * `npm test` gives each implementation the suite's smaller budget. `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/conformance/*.test.ts'],
    exclude: ['test/conformance/cli.test.ts', 'test/conformance/stateful.test.ts'],
    env: { ...base.test?.env, PLANT_STORE_CONFORM_BUDGET: 'default' },
  },
});
