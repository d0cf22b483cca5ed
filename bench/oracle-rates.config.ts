import { defineConfig } from 'vitest/config';

/** `npm run bench:oracle`: the oracle's error rates (bench/oracle-rates.test.ts), run by vitest so that it can start the test suite's targets. */
export default defineConfig({
  test: {
    include: ['bench/oracle-rates.test.ts'],
    pool: 'forks',
    testTimeout: 10_800_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
