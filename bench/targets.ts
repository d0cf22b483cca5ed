/**
 * The servers the benchmarks load, each started as its own child process on 127.0.0.1 and an
 * ephemeral port, so the load generator (this process) never shares an event loop with the
 * server it measures. A target is ready when it prints its http://127.0.0.1:<port> URL.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultContractFile } from '../src/openapi/index.js';
import { BENCH_TOKEN } from './workload.js';

/** The kit's root (where openapi.yaml and package.json are), from bench/ or dist/bench/. */
export const ROOT = dirname(defaultContractFile());
const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(ROOT, 'bin', 'plant-store.js');
const PRISM = join(ROOT, 'node_modules', '.bin', 'prism');

export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
}

export interface TargetSpec {
  readonly name: string;
  readonly description: string;
  /** Undefined when it can run; otherwise why not (e.g. a command that has not landed yet). */
  unavailable(): string | undefined;
  /** `nodeOptions` are passed to node itself (e.g. --cpu-prof) when the target is a node script. */
  launch(nodeOptions: readonly string[]): Launch;
}

export interface ReferenceOptions {
  /** Another checkout of the kit (built), to run its reference implementation instead: a before/after comparison. */
  readonly root?: string;
  readonly name?: string;
  readonly maxEntries?: number;
  readonly maxBodyBytes?: number;
  readonly maxDepth?: number;
  /** `--quiet`: no request log. By default the reference logs one line per request, as users run it. */
  readonly quiet?: boolean;
  /** `--contract`: a contract file to serve instead of the kit's openapi.yaml. */
  readonly contract?: string;
  /** `--store`: a shared store (redis://…) instead of the process's memory. */
  readonly store?: string;
}

/** Whether `plant-store <command>` exists in this build: the commands `plant-store --help` lists. */
export function cliHasCommand(command: string): boolean {
  if (!existsSync(CLI)) return false;
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8', timeout: 30_000 });
  const listed = help.stdout.split('Commands:\n')[1] ?? '';
  // Each command starts a line indented by two spaces; wrapped descriptions are indented further.
  return listed.split('\n').some((line) => /^ {2}(\S+)/.exec(line)?.[1] === command);
}

export const baselineTarget: TargetSpec = {
  name: 'baseline',
  description: 'bare node:http: JSON.parse the body and echo it (the practical ceiling)',
  unavailable: () => undefined,
  launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, join(HERE, 'baseline-server.js')] }),
};

/** Microseconds of work the `padded` target adds to each request of the bare baseline. */
export const PADDING_US = 3;

/**
 * The baseline with PADDING_US of busy work per request: beside the baseline in the same rounds, it
 * shows what that much of a server's own work costs here (the reference's own work per request,
 * measured without a socket, is about as much: bench/README.md).
 */
export const paddedTarget: TargetSpec = {
  name: 'padded',
  description: `the baseline with ${PADDING_US} µs of busy work per request (what that much work costs here)`,
  unavailable: () => undefined,
  launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, join(HERE, 'baseline-server.js'), String(PADDING_US)] }),
};

export function referenceTarget(options: ReferenceOptions = {}): TargetSpec {
  const limits = [
    ...(options.maxEntries === undefined ? [] : ['--max-entries', String(options.maxEntries)]),
    ...(options.maxBodyBytes === undefined ? [] : ['--max-body-bytes', String(options.maxBodyBytes)]),
    ...(options.maxDepth === undefined ? [] : ['--max-depth', String(options.maxDepth)]),
  ];
  const cli = options.root === undefined ? CLI : join(options.root, 'bin', 'plant-store.js');
  const quiet = options.quiet === true ? ['--quiet'] : [];
  const log = options.quiet === true ? 'no request log' : 'its request log on, as users run it';
  return {
    name: options.name ?? 'reference',
    description: `plant-store serve${quiet.map((q) => ` ${q}`).join('')} (the reference implementation${options.root === undefined ? '' : ` of ${options.root}`}; ${log})`,
    unavailable: () => (existsSync(cli) ? undefined : `${cli} not found`),
    launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, cli, 'serve', '--host', '127.0.0.1', '--port', '0', ...quiet, '--token', BENCH_TOKEN, ...limits, ...(options.contract === undefined ? [] : ['--contract', options.contract]), ...(options.store === undefined ? [] : ['--store', options.store])] }),
  };
}

/**
 * The reference on the shared store (issue 31): `serve --quiet --store <PLANT_STORE_BENCH_REDIS_URL>`
 * with `workers` processes on one port. Opt-in (`--targets shared-1,shared-2,shared-4`): it needs a
 * Redis of your own, emptied between runs, named by PLANT_STORE_BENCH_REDIS_URL.
 */
export function sharedTarget(workers: number): TargetSpec {
  const url = process.env.PLANT_STORE_BENCH_REDIS_URL;
  return {
    name: `shared-${String(workers)}`,
    description: `plant-store serve --quiet --store <Redis> --workers ${String(workers)} (the reference on the shared store)`,
    unavailable: () => (url === undefined || url === '' ? 'PLANT_STORE_BENCH_REDIS_URL names no Redis' : existsSync(CLI) ? undefined : `${CLI} not found`),
    launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--quiet', '--token', BENCH_TOKEN, '--store', url ?? '', '--workers', String(workers)] }),
  };
}

export const prismTarget: TargetSpec = {
  name: 'prism',
  description: 'raw Prism 5.14 (prism mock openapi.yaml), its default request log included',
  unavailable: () => (existsSync(PRISM) ? undefined : `${PRISM} not found`),
  launch: () => ({ command: PRISM, args: ['mock', join(ROOT, 'openapi.yaml'), '--host', '127.0.0.1', '--port', '0'] }),
};

/** The kit's own mock (Prism behind the kit's front), once `plant-store mock` exists. */
export const mockTarget: TargetSpec = {
  name: 'mock',
  description: "plant-store mock --quiet (Prism's engine behind the kit's request pipeline)",
  unavailable: () => (cliHasCommand('mock') ? undefined : 'plant-store mock is not in this build yet'),
  launch: (nodeOptions) => ({ command: process.execPath, args: [...nodeOptions, CLI, 'mock', '--host', '127.0.0.1', '--port', '0', '--quiet'] }),
};

/**
 * The checking proxy (`plant-store proxy --quiet`) in front of an upstream that is already
 * running - in `npm run bench`, the `reference` target itself, so the proxy's figures are the
 * reference's through one more hop and the checks, measured in the same rounds.
 */
export function proxyTarget(upstream: () => string | undefined): TargetSpec {
  return {
    name: 'proxy',
    description: 'plant-store proxy --quiet in front of the reference target (every answer judged by the checks)',
    unavailable: () => (cliHasCommand('proxy') ? undefined : 'plant-store proxy is not in this build'),
    launch: (nodeOptions) => {
      const url = upstream();
      if (url === undefined) throw new Error('the proxy target needs the reference target running as its upstream');
      return { command: process.execPath, args: [...nodeOptions, CLI, 'proxy', '--host', '127.0.0.1', '--port', '0', '--quiet', '--token', BENCH_TOKEN, '--upstream', url] };
    },
  };
}

export interface RunningTarget {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed by a signal). */
  stop(graceMs?: number): Promise<number | null>;
  /** True once the process has exited. */
  readonly exited: boolean;
}

const live = new Set<ChildProcess>();
let cleanupInstalled = false;

/** Children must not outlive the benchmark, whatever way it ends. */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of live) child.kill('SIGKILL');
      process.exit(130);
    });
  }
}

/** Every target says it is listening once it is (Prism prints its routes, with the port, before it listens). */
const URL_PATTERN = /listening on (http:\/\/127\.0\.0\.1:\d+)/i;

/** Starts a target and resolves once it printed its URL; rejects if it exits or stays silent for `timeoutMs`. */
export function startTarget(spec: TargetSpec, nodeOptions: readonly string[] = [], timeoutMs = 90_000): Promise<RunningTarget> {
  installCleanup();
  const { command, args } = spec.launch(nodeOptions);
  const child = spawn(command, [...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  live.add(child);
  let exited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      exited = true;
      live.delete(child);
      resolve(code);
    });
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${spec.name} did not start: ${why}\n${output.slice(-2000)}`));
    };
    const timer = setTimeout(() => {
      fail(`no URL printed within ${timeoutMs} ms`);
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = URL_PATTERN.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // Keep draining (Prism logs every request) but stop keeping what it says.
      child.stdout.off('data', onData);
      child.stdout.resume();
      child.stderr.resume();
      const pid = child.pid ?? -1;
      resolve({
        name: spec.name,
        url: match[1] ?? '',
        pid,
        get exited() {
          return exited;
        },
        stop: async (graceMs = 15_000) => {
          if (exited) return exit;
          child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const code = await exit;
          clearTimeout(force);
          return code;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      if (output.length < 100_000) output += chunk.toString('utf8');
    });
    child.once('error', (error) => {
      fail(error.message);
    });
    void exit.then((code) => {
      if (!URL_PATTERN.test(output)) fail(`exited with ${code}`);
    });
  });
}

let ticksPerSecond: number | undefined;

/**
 * CPU time a process has used so far, in seconds (utime and stime of /proc/<pid>/stat; Linux),
 * or undefined. Divided by the responses of a run it gives CPU time per request: a figure that
 * other work on a shared machine disturbs far less than requests per second.
 */
export function cpuSeconds(pid: number): { readonly user: number; readonly system: number } | undefined {
  try {
    ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    // The command name (field 2) may hold spaces; the fields after it are space-separated (proc(5)).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU time of a process and all its descendants still running, in seconds: a `serve --workers N`
 * target is a primary that answers nothing and N workers that answer everything.
 */
export function treeCpuSeconds(pid: number): { readonly user: number; readonly system: number } | undefined {
  const own = cpuSeconds(pid);
  if (own === undefined) return undefined;
  return childrenOf(pid).reduce((sum, child) => {
    const theirs = treeCpuSeconds(child);
    return theirs === undefined ? sum : { user: sum.user + theirs.user, system: sum.system + theirs.system };
  }, own);
}

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status; Linux), or undefined. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
