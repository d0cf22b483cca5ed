/**
 * Throughput of the conformance engine: a default `plant-store conform` run against a fresh
 * reference implementation, timed from the outside (wall time of the whole command, start-up
 * included), with the number of requests it checked read from its --json report.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliHasCommand, cpuSeconds, referenceTarget, ROOT, startTarget } from './targets.js';
import { BENCH_TOKEN } from './workload.js';

export interface ConformFigures {
  readonly command: string;
  readonly exitCode: number | null;
  /** The whole command, from spawn to exit: start-up, generation, checking, shrinking, report. */
  readonly wallSeconds: number;
  /** From the --json report; undefined when the report does not say. */
  readonly checkedRequests: number | undefined;
  /** checkedRequests / wallSeconds. */
  readonly checkedPerSecond: number | undefined;
  /** The engine's own figure for its checking phase, when the report gives one. */
  readonly engineRequestsPerSecond: number | undefined;
  readonly checkingSeconds: number | undefined;
  /**
   * CPU seconds (user + system) of the conform process, its last reading before it exited (read
   * every 50 ms), and of the reference over the same run: figures the machine's other load
   * disturbs far less than wall time. checkedRequests / conformCpuSeconds is what the engine
   * would check per second on a core of its own.
   */
  readonly conformCpuSeconds: number | undefined;
  readonly referenceCpuSeconds: number | undefined;
}

export function conformAvailable(): string | undefined {
  return cliHasCommand('conform') ? undefined : 'plant-store conform is not in this build yet';
}

/** Names under which a report may carry its request count, most specific first. */
const COUNT_KEYS = ['checkedRequests', 'requestsChecked', 'requests', 'totalRequests', 'requestCount'];

/** The number of requests a conform report says it checked: the first count found, breadth first. */
export function requestCount(report: unknown): number | undefined {
  const queue: unknown[] = [report];
  while (queue.length > 0) {
    const node = queue.shift();
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const record = node as Record<string, unknown>;
    for (const key of COUNT_KEYS) {
      const value = record[key];
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    }
    queue.push(...Object.values(record));
  }
  return undefined;
}

/**
 * One default conform run against a fresh reference of this checkout. `root` picks the checkout
 * whose conform runs (bench --compare: another checkout's engine against the same reference).
 */
export async function measureConform(extraArgs: readonly string[] = [], root: string = ROOT, contract?: string): Promise<ConformFigures> {
  // With `contract`, the reference serves it and conform checks against it (--large-conform).
  const reference = await startTarget(referenceTarget({ quiet: true, ...(contract === undefined ? {} : { contract }) }));
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
  const report = join(dir, 'conform.json');
  const args = [join(root, 'bin', 'plant-store.js'), 'conform', '--base-url', reference.url, '--token', BENCH_TOKEN, '--json', report, ...(contract === undefined ? [] : ['--contract', contract]), ...extraArgs];
  try {
    const started = performance.now();
    const referenceBefore = cpuSeconds(reference.pid);
    let conformCpu: number | undefined;
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NO_COLOR: '1' } });
      const sampler = setInterval(() => {
        const used = child.pid === undefined ? undefined : cpuSeconds(child.pid);
        if (used) conformCpu = used.user + used.system;
      }, 50);
      child.once('error', (error) => {
        clearInterval(sampler);
        reject(error);
      });
      child.once('exit', (code) => {
        clearInterval(sampler);
        resolve(code);
      });
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const referenceAfter = cpuSeconds(reference.pid);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      parsed = undefined;
    }
    const checkedRequests = requestCount(parsed);
    const field = (name: string): number | undefined => {
      const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[name] : undefined;
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    };
    const checkingMs = field('checkingMs');
    return {
      command: `${root === ROOT ? '' : `(${root}) `}plant-store conform --base-url ${reference.url} --token ${BENCH_TOKEN} --json <file> ${extraArgs.join(' ')}`.trim(),
      exitCode,
      wallSeconds,
      checkedRequests,
      checkedPerSecond: checkedRequests === undefined ? undefined : checkedRequests / wallSeconds,
      engineRequestsPerSecond: field('requestsPerSecond'),
      checkingSeconds: checkingMs === undefined ? undefined : checkingMs / 1000,
      conformCpuSeconds: conformCpu,
      referenceCpuSeconds: referenceBefore && referenceAfter ? referenceAfter.user + referenceAfter.system - referenceBefore.user - referenceBefore.system : undefined,
    };
  } finally {
    await reference.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
