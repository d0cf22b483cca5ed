/** What every benchmark result records about the run, and where results are written. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './targets.js';

export const RESULTS_DIR = join(ROOT, 'bench', 'results');

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1, 5 and 15 minute load averages when the run started: other work on a shared machine shows here. */
  readonly loadAverage: readonly number[];
}

export function machine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function describeMachine(m: Machine): string {
  return `${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; load average ${m.loadAverage.join(' ')}`;
}

/** Writes `bench/results/<kind>-<timestamp>.json` (gitignored) and returns its path. */
export function writeResult(kind: string, result: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  return file;
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs a benchmark's main function: its result is the exit code; an exception is exit code 2 (the run itself failed). */
export function runMain(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

/** A bad flag: says so and exits 2 before anything starts. */
export function exitWithUsage(name: string, error: unknown): never {
  process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
