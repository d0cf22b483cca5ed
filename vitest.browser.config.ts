import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the tests that need Debian's Chromium (test/browser/chromium.ts), kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
