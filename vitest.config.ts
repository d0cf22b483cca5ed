import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts', 'fuzz/**/*.test.ts', 'mock/**/*.test.ts', 'src/**/*.test.ts'],
    // Pact's native mock server and verifier do not like worker threads; every suite runs in a forked process.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
