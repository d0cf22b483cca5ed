/**
 * Start-up, as a user waits for it: the wall time from starting `plant-store <command>` to its
 * first line of output (for a server, the line with its URL: it listens by then). Each command
 * runs `runs` times in alternating order (A B C, C B A, ...) beside a bare `node -e` that prints a
 * line, the machine's own share of every figure, measured in the same rounds.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './stats.js';
import { ROOT } from './targets.js';

const CLI = join(ROOT, 'bin', 'plant-store.js');

export interface StartupCommand {
  readonly name: string;
  readonly args: readonly string[];
  /** The goal, in milliseconds until the first line; undefined for the baseline. */
  readonly goalMs?: number;
}

/** The goals of issue 22: `--version` and `serve` listening in under 300 ms, `mock` under 2 s. */
export const STARTUP_COMMANDS: readonly StartupCommand[] = [
  { name: 'node -e (the machine)', args: ['-e', 'process.stdout.write("up\\n")'] },
  { name: 'plant-store --version', args: [CLI, '--version'], goalMs: 300 },
  { name: 'plant-store serve', args: [CLI, 'serve', '--host', '127.0.0.1', '--port', '0'], goalMs: 300 },
  { name: 'plant-store mock', args: [CLI, 'mock', '--host', '127.0.0.1', '--port', '0'], goalMs: 2000 },
];

/** The goal of issue 28: a contract of 170 operations and about 600 KB (large-contract.ts) served in under 3 s. */
export function largeContractCommand(file: string, cli: string = CLI): StartupCommand {
  return { name: 'plant-store serve --contract (170 operations, 600 KB)', args: [cli, 'serve', '--contract', file, '--host', '127.0.0.1', '--port', '0'], goalMs: 3000 };
}

export interface StartupFigure {
  readonly name: string;
  readonly goalMs: number | undefined;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly runs: readonly number[];
}

/** Milliseconds from spawning the command to its first byte on standard output; the process is then stopped. */
async function timeToFirstLine(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const elapsed = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', () => {
      resolve(performance.now() - started);
    });
    child.once('error', reject);
    void exited.then(() => {
      reject(new Error(`${args.join(' ')} ended before printing a line`));
    });
  });
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

export async function measureStartup(runs: number, commands: readonly StartupCommand[] = STARTUP_COMMANDS): Promise<StartupFigure[]> {
  const times = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  for (let round = 0; round < runs; round++) {
    for (const command of round % 2 === 0 ? commands : [...commands].reverse()) times.get(command.name)?.push(await timeToFirstLine(command.args));
  }
  return commands.map((command) => {
    const measured = times.get(command.name) ?? [];
    return { name: command.name, goalMs: command.goalMs, medianMs: median(measured), minMs: Math.min(...measured), maxMs: Math.max(...measured), runs: measured };
  });
}
