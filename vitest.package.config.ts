import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the packed kit installed into an empty project (test/package/), which
 * vitest.config.ts leaves out of `npm test`. Its steps are processes (npm, npx), one file.
 */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
