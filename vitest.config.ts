import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One layout: every test lives under test/, in a folder named after what it tests.
    include: ['test/**/*.test.ts'],
    // Pact's native mock server and verifier do not like worker threads; every suite runs in a forked process.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
