/**
 * A bare `WWW-Authenticate: Bearer` (ASP.NET Core's, Spring Security's and FastAPI's default) is a
 * warning as a user sees it: the run passes (exit 0) and says so, and fails only under --strict
 * (exit 1); a malformed challenge fails the run without --strict (RFC 9110, sections 5.6.1, 11.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../fuzz/index.js';
import { carefulAuthentication, startBearerStore } from '../faulty/bearer-stores.js';
import { TEST_TOKEN } from '../support/servers.js';
import { runCli } from './common.js';
import { assertBuildIsFresh } from './engine-pool.js';

const closers: (() => Promise<void>)[] = [];

async function storeChallenging(field: string): Promise<string> {
  const server = await startBearerStore({ authenticate: carefulAuthentication, challenges: () => field });
  closers.push(() => server.close());
  return server.url;
}

const conform = (url: string): string[] => ['conform', '--base-url', url, '--token', TEST_TOKEN, '--seed', '3', '--runs', '100'];

beforeAll(() => {
  assertBuildIsFresh();
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

describe('a 401 with a bare Bearer challenge', () => {
  it('passes with a requires-auth warning citing RFC 6750, section 3 (exit 0), and fails under --strict (exit 1)', { timeout: 120_000 }, async () => {
    const url = await storeChallenging('Bearer');
    const run = await runCli(conform(url), { files: true });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^WARNING requires-auth: .*bare Bearer challenge.*RFC 6750, section 3/m);
    const report = JSON.parse(run.json ?? '{}') as Report;
    expect(report.failures).toEqual([]);
    expect(new Set(report.warnings.map((w) => w.check))).toEqual(new Set(['requires-auth']));
    const strict = await runCli([...conform(url), '--strict']);
    expect(strict.code, strict.stdout + strict.stderr).toBe(1);
    expect(strict.stdout).toContain('failing the run under --strict');
  });
});

describe('a 401 with a malformed challenge fails without --strict', () => {
  // The suite's faulty implementations (test/faulty/json-texts.ts) cover bad quoting, a duplicated parameter and an empty element.
  it.each([['parameters joined by a space', 'Bearer realm="plants" error="invalid_token"', /instead of a comma/]])('%s', { timeout: 120_000 }, async (_what, field, pattern) => {
    const run = await runCli(conform(await storeChallenging(field)), { files: true });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const report = JSON.parse(run.json ?? '{}') as Report;
    expect(report.failures.map((f) => f.check)).toEqual(['requires-auth']);
    expect(report.failures[0]?.message).toMatch(pattern);
  });
});
