/**
 * The shared conformance suite (after Hono's common.case.test.ts): one set of expectations run
 * against every implementation - the reference, the mock, each faulty one. A conforming
 * implementation must pass every check it does not skip, and must name each skip with a reason;
 * a faulty one must be caught by the check its defect belongs to, with a shrunk reproduction.
 *
 * Runs are `runConformance` runs with a fixed seed, on worker threads (engine-pool.ts): under
 * `npm test` with the suite's budget (SUITE_BUDGET below), under `npm run test:slow` default runs
 * (what `plant-store conform` does). Only the per-request timeout is shorter than the default,
 * so that the hanging implementations are quick; what is caught does not depend on it. It stays
 * above the default response-time bound (1 s), so that a slow answer is seen as slow, not as none.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_NAMES, checkNamed, formatReport, type CheckName, type Profile, type Report, type Severity } from '../../fuzz/index.js';
import { seedsFrom } from '../support/seed.js';
import { TEST_TOKEN } from '../support/servers.js';
import { assertBuildIsFresh, EnginePool } from './engine-pool.js';

export interface Implementation {
  readonly name: string;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
  readonly token?: string;
  readonly profile?: Profile;
  /** The contract its runs check it against, as a file (the worker loads it); the bundled openapi.yaml by default. */
  readonly contract?: string;
  /** For a faulty implementation: the check that must catch it. */
  readonly caughtBy?: CheckName;
  /** For a faulty implementation, where given: the other checks its defect also breaks; the run must break no other. */
  readonly touches?: readonly CheckName[];
  /**
   * How it must be caught: a `failure` (the default; the run fails) or a `warning` (a hazard the
   * contract allows: the run passes, and warns by `caughtBy`).
   */
  readonly caughtAs?: Severity;
  /** For a conforming implementation: it must not even warn. */
  readonly quiet?: boolean;
  /**
   * For a conforming implementation: the checks it warns by, each with its reason (a hazard the
   * contract allows, such as a framework's default; printed in the test name). It must warn by
   * exactly these: no other, and each of them, so that a change of what the engine allows shows.
   */
  readonly warns?: Partial<Record<CheckName, string>>;
  /**
   * Checks a conforming implementation is not held to, each with its reason (printed in the test
   * name): their failures are tolerated and they need not be exercised.
   */
  readonly skips?: Partial<Record<CheckName, string>>;
  /**
   * The per-request timeout of its runs: the suite's short one by default (SUITE_TIMEOUT_MS);
   * `'default'` for the engine's own (`plant-store conform`'s), for an implementation whose
   * correct answers may take longer than the short one (a listen backlog that drops a connection
   * now and then makes the client send it again after a second, RFC 6298, section 2.1).
   */
  readonly timeout?: 'suite' | 'default';
  /**
   * Set (to the reason) where the suite's budget (SUITE_BUDGET) does not show the defect: its runs
   * are the engine's default runs in `npm test` too.
   */
  readonly defaultRun?: string;
  /**
   * Set where the defect is a cost that grows with time served (sessions, connections): its runs
   * last this long (`plant-store conform --duration`), so that the canary takes enough readings to
   * judge a trend however fast the machine runs the phases (a default run of 3 s takes too few).
   */
  readonly durationMs?: number;
}

/**
 * The two tiers of the suite. `npm test` runs each implementation under SUITE_BUDGET: the coverage,
 * stateful and overlap phases whole (every edge, malformation and attack: the same in every run),
 * a capacity phase of 300 plants, 200 random requests and 5 s of shrinking (the reproduction is
 * still there, shrunk or not). A run is deterministic for its seed, so a faulty implementation its
 * budget catches is caught by it every time; one it does not names why (`defaultRun`) and runs whole. `npm run test:slow` (PLANT_STORE_CONFORM_BUDGET=default) runs
 * every implementation under the engine's defaults, as `plant-store conform` does.
 */
export const SUITE_BUDGET = { runs: 200, capacity: 300, shrinkTimeMs: 5000 } as const;
const defaultBudget = process.env.PLANT_STORE_CONFORM_BUDGET === 'default';

/** The budget of an implementation's runs in this tier, and its words for the test name. */
function budgetOf(implementation: Implementation): { readonly options: Partial<typeof SUITE_BUDGET>; readonly label: string } {
  if (implementation.durationMs !== undefined) return { options: {}, label: `default run for ${implementation.durationMs / 1000} s (--duration)` };
  if (defaultBudget || implementation.defaultRun !== undefined) return { options: {}, label: 'default run' };
  return { options: SUITE_BUDGET, label: `${SUITE_BUDGET.runs} runs, capacity ${SUITE_BUDGET.capacity}` };
}

/**
 * Seeds of the suite; PLANT_STORE_CONFORM_SEEDS=1,2,3 replaces them (test/support/seed.ts; a CI
 * job can add a random one: the test names print every seed, and a failure prints the report with its seed).
 */
export const SUITE_SEEDS: readonly number[] = seedsFrom('PLANT_STORE_CONFORM_SEEDS', [20240611, 7, 1999], 'conformance suite');

/**
 * Short enough that the faulty implementations that never answer cost seconds, not minutes; long
 * enough that a correct answer on a loaded 2-core CI machine (load 10 and more, other test files
 * in parallel) is not taken for none: 1 s was not, now and then.
 */
export const SUITE_TIMEOUT_MS = 2500;

let pool: EnginePool | undefined;

/** Call once at the top of a test file that uses describeConformance: starts and stops the engine's workers. */
export function useEnginePool(size = 2): void {
  beforeAll(() => {
    assertBuildIsFresh();
    pool = new EnginePool(size);
  });
  afterAll(async () => {
    await pool?.close();
    pool = undefined;
  });
}

/** Runs the suite against one implementation, once per seed. */
export function describeConformance(implementation: Implementation, seeds: readonly number[] = SUITE_SEEDS): void {
  const faulty = implementation.caughtBy !== undefined;
  const skipped = [
    ...Object.entries(implementation.skips ?? {}).map(([check, reason]) => `skips ${check}: ${reason}`),
    ...Object.entries(implementation.warns ?? {}).map(([check, reason]) => `warns by ${check}: ${reason}`),
  ];
  const caughtAs = implementation.caughtAs ?? 'failure';
  const title = faulty ? `${implementation.name} (caught by ${implementation.caughtBy ?? ''}${caughtAs === 'warning' ? ', as a warning' : ''})` : [implementation.name, ...skipped].join('; ');
  const budget = budgetOf(implementation);
  describe.concurrent(title, () => {
    for (const seed of seeds) {
      it(`seed ${seed}, ${budget.label}: ${faulty ? 'breaks the contract, caught by the expected check' : 'keeps the contract'}`, { timeout: 120_000 }, async () => {
        if (!pool) throw new Error('call useEnginePool() in the test file');
        const server = await implementation.start();
        let report: Report;
        try {
          const contract = implementation.contract === undefined ? {} : { contractFile: implementation.contract };
          report = await pool.run({ baseUrl: server.url, token: implementation.token ?? TEST_TOKEN, profile: implementation.profile ?? 'reference', seed, ...budget.options, ...contract, ...(implementation.timeout === 'default' ? {} : { timeoutMs: SUITE_TIMEOUT_MS }), ...(implementation.durationMs === undefined ? {} : { durationMs: implementation.durationMs }) });
        } finally {
          await server.close();
        }
        const text = formatReport(report);
        expect(report.seed).toBe(seed);
        if (faulty) {
          // A hazard the contract allows leaves the run passed; a broken contract fails it.
          expect(report.passed, text).toBe(caughtAs === 'warning');
          const finding = (caughtAs === 'warning' ? report.warnings : report.failures).find((f) => f.check === implementation.caughtBy);
          expect(finding, text).toBeDefined();
          if (finding === undefined) return;
          // A finding about one request comes with it as a curl command; a run check's finding about
          // the run as a whole (degradation's rise) has no single request to give.
          if (finding.request === undefined && checkNamed(finding.check).scope === 'run') expect(finding.curl, text).toBeUndefined();
          else expect(finding.curl, text).toMatch(/^(printf .* \| )?curl -sS -i -X [A-Z]+ /);
          expect(finding.message, text).not.toBe('');
          if (implementation.touches !== undefined) {
            const allowed = new Set<string>([implementation.caughtBy ?? '', ...implementation.touches]);
            expect(report.failures.map((f) => f.check).filter((check) => !allowed.has(check)), text).toEqual([]);
          }
        } else {
          if (implementation.quiet === true) expect(report.warnings, text).toEqual([]);
          if (implementation.warns !== undefined) expect(report.warnings.map((w) => w.check).sort(), text).toEqual(Object.keys(implementation.warns).sort());
          expect(report.failures.filter((f) => implementation.skips?.[f.check] === undefined), text).toEqual([]);
          expect(report.stoppedEarly, text).toBeUndefined();
          // Every check not skipped (with a reason) was exercised: a pass that checked nothing is no pass.
          for (const check of CHECK_NAMES) {
            if (implementation.skips?.[check] !== undefined) continue;
            // A check the report says does not apply, with why (the stateful checks where the contract links nothing: the bundled one).
            if (report.checks[check].notApplicable !== undefined) continue;
            // A run too short (or a machine too loaded) for enough canary readings says so: not a failure of the target's.
            if (check === 'degradation' && report.degradation.notJudged !== undefined) {
              expect(report.degradation.notJudged, text).toMatch(/^not enough readings/);
              continue;
            }
            expect(report.checks[check].requests, `${check} was exercised`).toBeGreaterThan(0);
          }
        }
      });
    }
  });
}

const ROOT = resolve(import.meta.dirname, '../..');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly json: string | undefined;
  readonly junit: string | undefined;
  readonly html: string | undefined;
}

/**
 * `node bin/plant-store.js <args>` as a user runs it; `files` adds --json, --junit and --html into a
 * temporary directory; `nodeArgs` go to node before the script (a test's --import, say).
 */
export async function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; files?: boolean; nodeArgs?: readonly string[] } = {}): Promise<CliRun> {
  const dir = await mkdtemp(join(tmpdir(), 'plant-store-cli-'));
  try {
    const json = join(dir, 'report.json');
    const junit = join(dir, 'report.xml');
    const html = join(dir, 'report.html');
    const extra = options.files === true ? ['--json', json, '--junit', junit, '--html', html] : [];
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(ROOT, 'bin', 'plant-store.js'), ...args, ...extra], { cwd: ROOT, env: { ...process.env, CI: 'true', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    const read = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);
    return { code, stdout, stderr, json: await read(json), junit: await read(junit), html: await read(html) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
