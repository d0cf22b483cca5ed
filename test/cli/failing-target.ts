/**
 * The target the built command's tests run conform against when they need it to fail: every
 * answer a 500, so conform's no-server-error check fails at once and conform's own outcome is 1.
 */
import { afterAll, beforeAll } from 'vitest';
import { assertBuildIsFresh } from '../conformance/engine-pool.js';
import { startFaulty, type RunningFaulty } from '../support/servers.js';

/** Checks dist/ is fresh and starts the failing target before the file's tests, closes it after; read its URL inside a test. */
export function failingTargetForTheseTests(): () => RunningFaulty {
  let failing: RunningFaulty | undefined;
  beforeAll(async () => {
    assertBuildIsFresh();
    failing = await startFaulty(() => ({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":500,"message":"down"}' }));
  });
  afterAll(async () => {
    await failing?.close();
  });
  return () => {
    if (failing === undefined) throw new Error('the failing target is read before beforeAll started it');
    return failing;
  };
}
