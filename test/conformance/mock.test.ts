/**
 * The mock keeps the contract: the shared conformance suite (test/conformance/common.ts) under the
 * `mock` profile, with examples and with generated data, and `plant-store conform --profile mock`
 * as a user runs it against `plant-store mock`.
 */
import { describe, expect, it } from 'vitest';
import { MOCK_EXAMPLE_TOKEN } from '../../cli/mock.js';
import { startMock } from '../support/servers.js';
import { describeConformance, runCli, useEnginePool } from './common.js';

/** The one check a mock is not held to (docs/DESIGN.md, `--profile mock`). */
const skips = { echo: 'a mock stores nothing: it answers an example or generated data, not the plant sent' };

useEnginePool();

describeConformance({ name: 'the Prism mock', start: () => startMock(), token: MOCK_EXAMPLE_TOKEN, profile: 'mock', skips });
describeConformance({ name: 'the Prism mock with --dynamic', start: () => startMock({ dynamic: true }), token: MOCK_EXAMPLE_TOKEN, profile: 'mock', skips }, [20240611]);

describe('plant-store conform --profile mock against plant-store mock', () => {
  it('exits 0: the mock kept the contract', { timeout: 60_000 }, async () => {
    const mock = await startMock();
    try {
      const run = await runCli(['conform', '--base-url', mock.url, '--profile', 'mock', '--seed', '4010']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('profile mock, 1000 runs, seed 4010');
      expect(run.stdout).toMatch(/^echo\s+0\s+0\s+0\s+does not apply$/m);
      expect(run.stdout).toContain('echo does not apply: a mock stores nothing, so it cannot answer with what was sent');
      expect(run.stdout).toContain('The target kept the contract (seed 4010');
    } finally {
      await mock.close();
    }
  });
});
