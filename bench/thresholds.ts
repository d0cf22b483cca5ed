/**
 * `node dist/bench/thresholds.js [--rounds 12] [--busy 2]`: shows that the defaults of the run
 * checks of time (`response-time`, `degradation`) do not flag correct servers on a loaded machine.
 *
 * Each round starts `--busy` busy loops (one per core by default) and runs three default
 * `plant-store conform` runs at once, each its own process: two against the reference
 * (`plant-store serve`), one against a correct server that waits 50 ms before every answer
 * (bench/slow-server.ts). It prints, per run and in all, how far the slowest answer went past the
 * response-time bound (before the replays that confirm or dismiss it), how many such answers the
 * replays dismissed, and the canary's trend statistics against degradation's thresholds. Exits 1
 * when any run found a finding: a correct server failed, which is what the defaults must prevent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Report } from '../fuzz/index.js';
import { referenceTarget, ROOT, startTarget, type RunningTarget, type TargetSpec } from './targets.js';
import { BENCH_TOKEN } from './workload.js';

const HERE = dirname(fileURLToPath(import.meta.url));

const slowTarget: TargetSpec = {
  name: 'slow-50ms',
  description: 'the reference, every answer 50 ms late (bench/slow-server.ts)',
  unavailable: () => undefined,
  launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, join(HERE, 'slow-server.js'), '50'] }),
};

interface Row {
  readonly round: number;
  readonly target: string;
  readonly load: number;
  readonly report: Report;
}

function conform(url: string, seed: number, json: string): Promise<number | null> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'plant-store.js'), 'conform', '--base-url', url, '--token', BENCH_TOKEN, '--seed', String(seed), '--json', json], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, CI: 'true' } });
  return new Promise((resolve) => child.once('exit', resolve));
}

function busyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

const fixed = (value: number | undefined, digits = 2): string => (value === undefined ? '-' : value.toFixed(digits));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '12' }, busy: { type: 'string', default: '2' } }, strict: true });
  const rounds = Number(values.rounds);
  const busy = Number(values.busy);
  if (!Number.isSafeInteger(rounds) || rounds < 1 || !Number.isSafeInteger(busy) || busy < 0) throw new RangeError('--rounds and --busy are whole numbers');
  const targets: RunningTarget[] = await Promise.all([startTarget(referenceTarget({ name: 'reference-a', quiet: true })), startTarget(referenceTarget({ name: 'reference-b', quiet: true })), startTarget(slowTarget)]);
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-thresholds-'));
  const rows: Row[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const loops = busyLoops(busy);
      const load = loadavg()[0] ?? 0;
      try {
        await Promise.all(
          targets.map(async (target, i) => {
            const json = join(dir, `${target.name}-${round}.json`);
            await conform(target.url, round * 10 + i, json);
            rows.push({ round, target: target.name, load, report: JSON.parse(readFileSync(json, 'utf8')) as Report });
          }),
        );
      } finally {
        for (const loop of loops) loop.kill('SIGKILL');
      }
      process.stdout.write(`round ${round}/${rounds} done (load average ${load.toFixed(1)} at its start)\n`);
    }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write('\nround target       load  passed  seconds  median  slowest  bound  slowest/bound  dismissed  canary z  halves z      last/first quarter\n');
  for (const { round, target, load, report } of rows) {
    const times = report.responseTimes;
    const trend = report.degradation.trend;
    process.stdout.write(
      `${String(round).padStart(5)} ${target.padEnd(12)} ${load.toFixed(1).padStart(5)}  ${String(report.passed).padEnd(6)}  ${(report.durationMs / 1000).toFixed(1).padStart(7)}  ${fixed(times.medianMs).padStart(6)}  ${Math.round(times.maxMs).toString().padStart(7)}  ${Math.round(times.boundMs).toString().padStart(5)}  ${fixed(times.maxMs / times.boundMs).padStart(13)}  ${String(times.unconfirmed).padStart(9)}  ${fixed(trend?.z).padStart(8)}  ${`${fixed(trend?.firstHalfZ)}/${fixed(trend?.secondHalfZ)}`.padStart(11)}  ${fixed(trend?.ratio).padStart(18)}\n`,
    );
  }
  const failed = rows.filter((r) => !r.report.passed);
  const worst = Math.max(...rows.map((r) => r.report.responseTimes.maxMs / r.report.responseTimes.boundMs));
  const zs = rows.map((r) => r.report.degradation.trend?.z ?? Number.NEGATIVE_INFINITY);
  process.stdout.write(
    `\n${rows.length} runs, ${failed.length} failed${failed.length > 0 ? ` (${failed.map((r) => `${r.target} round ${r.round}: ${r.report.failures.map((f) => f.check).join(', ')}`).join('; ')})` : ''}; ` +
      `slowest answer / bound at most ${worst.toFixed(2)}, ${rows.reduce((sum, r) => sum + r.report.responseTimes.unconfirmed, 0)} answers over the bound dismissed by replays; ` +
      `canary z at most ${Math.max(...zs).toFixed(2)} (3.09 flags), last/first quarter at most ${Math.max(...rows.map((r) => r.report.degradation.trend?.ratio ?? 0)).toFixed(2)}\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`thresholds: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
