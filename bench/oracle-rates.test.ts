/**
 * The oracle's error rates on time: `npm run bench:oracle` (ORACLE_SEEDS=N, default 3;
 * ORACLE_BUSY=0,1,2; ORACLE_TARGETS=name,name to pick; ORACLE_READINGS=file keeps the canary's readings). For each number of busy loops beside the
 * run, N default runs against each correct target (the reference, a store answering after 50 ms, a
 * store closing kept-alive connections after 1 s idle, the framework stores), each time-family fault (a listener
 * leaked per request, every row scanned on every write, a table of 1,000 rows) and the overlap and backtracking faults
 * (which a default run must catch every time); prints every run with its replay command, then the false-alarm rate (a
 * correct target failed) and the detection rate (a fault caught by its check) per load.
 *
 * A vitest file, not a bench script compiled into dist/: its targets are the conformance suite's
 * (test/faulty, test/conformance/unusual.ts), run in process as the suite runs them, with the
 * engine on a worker thread (test/conformance/engine-pool.ts, which needs `npm run build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { it } from 'vitest';
import type { CheckName, Report } from '../fuzz/index.js';
import { EnginePool } from '../test/conformance/engine-pool.js';
import { UNUSUAL_IMPLEMENTATIONS } from '../test/conformance/unusual.js';
import { FAULTY_IMPLEMENTATIONS, ORACLE_ONLY_FAULTS } from '../test/faulty/faults.js';
import { FRAMEWORK_STORES } from '../test/frameworks/stores.js';
import { OVERLAP_FAULTS } from '../test/faulty/overlap-faults.js';
import { startReference, TEST_TOKEN } from '../test/support/servers.js';

interface Target {
  readonly name: string;
  /** The check that must catch it; undefined for a correct target. */
  readonly caughtBy?: CheckName;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

const unusual = (name: string): Target => {
  const found = UNUSUAL_IMPLEMENTATIONS.find((u) => u.name === name);
  if (found === undefined) throw new Error(`no unusual implementation ${name}`);
  return { name, start: () => found.start() };
};
const faulty = (name: string): Target => {
  const found = [...FAULTY_IMPLEMENTATIONS, ...ORACLE_ONLY_FAULTS].find((f) => f.name === name);
  if (found === undefined) throw new Error(`no faulty implementation ${name}`);
  return { name, caughtBy: found.caughtBy, start: () => found.start() };
};

/** The correct targets, the time family's faults, then the families that must be caught in every run: overlap (OVERLAP_FAULTS) and backtracking. */
const TARGETS: readonly Target[] = [
  { name: 'reference', start: startReference },
  unusual('fifty-ms-per-answer'),
  unusual('one-second-keep-alive'),
  ...FRAMEWORK_STORES.map((store): Target => ({ name: store.name, start: () => store.start() })),
  faulty('leaks-a-listener-per-request'),
  faulty('scans-every-row-on-every-write'),
  faulty('full-at-1000-plants'),
  ...OVERLAP_FAULTS.map((f) => faulty(f.name)),
  faulty('backtracking-name-classifier'),
];

function listed(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(',').filter((s) => s !== '');
}

function busyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

interface Row {
  readonly target: Target;
  readonly busy: number;
  readonly seed: number;
  readonly report: Report;
}

/** What a run says about time: its verdict, the checks that failed, and the canary against its control. */
function line(row: Row): string {
  const { report, target, busy, seed } = row;
  const failed = [...new Set(report.failures.map((f) => f.check))].join(',') || '-';
  const trend = report.degradation.trend;
  const control = trend?.controlRatio === undefined ? ' (no control)' : `, control ×${trend.controlRatio.toFixed(2)}`;
  const canary = trend === undefined ? `not judged (${report.degradation.readings.length} readings)` : `canary ${trend.firstMs.toFixed(2)}→${trend.lastMs.toFixed(2)} ms ×${trend.ratio.toFixed(2)}${control}, z ${trend.z.toFixed(1)} (halves ${trend.firstHalfZ.toFixed(1)}, ${trend.secondHalfZ.toFixed(1)}), ${report.degradation.readings.length} readings`;
  const stored = report.capacity === undefined ? '' : `; ${report.capacity.stored} plants stored${report.capacity.budgetHit ? ' (budget hit)' : ''}`;
  const replay = `ORACLE_TARGETS=${target.name} ORACLE_BUSY=${busy} ORACLE_SEED_LIST=${seed} npm run bench:oracle`;
  return `${target.name.padEnd(30)} busy ${busy} seed ${String(seed).padEnd(4)} ${report.passed ? 'passed' : 'FAILED'} (${failed}); ${canary}${stored}\n    ${replay}`;
}

/** With ORACLE_READINGS=<file>: each run's canary readings, a JSON line per run, for judging them again offline. */
function keepReadings(row: Row): void {
  const file = process.env.ORACLE_READINGS;
  if (file === undefined || file === '') return;
  const { target, busy, seed, report } = row;
  appendFileSync(file, `${JSON.stringify({ target: target.name, busy, seed, passed: report.passed, readings: report.degradation.readings })}\n`);
}

/** Per load and per target: false alarms (a correct target failed) or detections (a fault caught by its check). */
function rates(rows: readonly Row[], busy: number): string {
  const at = rows.filter((r) => r.busy === busy);
  const names = [...new Set(at.map((r) => r.target.name))];
  return names
    .map((name) => {
      const runs = at.filter((r) => r.target.name === name);
      const caughtBy = runs[0]?.target.caughtBy;
      if (caughtBy === undefined) return `busy ${busy}: ${name}: false alarms ${runs.filter((r) => !r.report.passed).length} of ${runs.length} runs`;
      return `busy ${busy}: ${name}: detected ${runs.filter((r) => r.report.failures.some((f) => f.check === caughtBy)).length} of ${runs.length} runs (by ${caughtBy})`;
    })
    .join('\n');
}

it('prints the oracle error rates on time', async () => {
  const seeds = process.env.ORACLE_SEED_LIST !== undefined ? listed('ORACLE_SEED_LIST', '').map(Number) : Array.from({ length: Number(process.env.ORACLE_SEEDS ?? '3') }, (_, i) => 1000 + i);
  const loads = listed('ORACLE_BUSY', '0,1,2').map(Number);
  const names = listed('ORACLE_TARGETS', TARGETS.map((t) => t.name).join(','));
  const targets = TARGETS.filter((t) => names.includes(t.name));
  const pool = new EnginePool(1);
  const rows: Row[] = [];
  const out = (text: string): void => {
    process.stdout.write(`${text}\n`);
  };
  out(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  try {
    for (const busy of loads) {
      const loops = busyLoops(busy);
      try {
        for (const seed of seeds) {
          for (const target of targets) {
            const server = await target.start();
            try {
              const report = await pool.run({ baseUrl: server.url, token: TEST_TOKEN, profile: 'reference', seed });
              rows.push({ target, busy, seed, report });
              out(line({ target, busy, seed, report }));
              keepReadings({ target, busy, seed, report });
            } finally {
              await server.close();
            }
          }
        }
      } finally {
        for (const loop of loops) loop.kill();
      }
    }
  } finally {
    await pool.close();
  }
  out(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const busy of loads) out(rates(rows, busy));
});
