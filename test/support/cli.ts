/** The built command line (`node bin/plant-store.js`, what `npx plant-store` runs) in a child process, its output read as it comes. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/plant-store.js', import.meta.url));

export interface Run {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exit: Promise<number | null>;
}

/** `plant-store <args>`, without the PLANT_STORE_TOKENS of the test's own environment, with `env` added. */
export function run(args: readonly string[], env: Record<string, string> = {}): Run {
  const base = { ...process.env };
  delete base.PLANT_STORE_TOKENS;
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** A server the command line started: its URL, what it printed by then, and its process. */
export interface Listening {
  readonly url: string;
  readonly banner: string;
  readonly ran: Run;
}

/**
 * `plant-store <args>` (serve, mock or start, with `--port 0`), once it listens and its banner is
 * whole (the contract's `operations:` line printed, the last line ended); throws with what it
 * printed when it exits first or takes longer than `timeoutMs`.
 */
export async function listening(args: readonly string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Listening> {
  const ran = run(args, options.env);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const out = ran.stdout();
    const url = /listening on (http:\/\/[^\s,]+)/.exec(out)?.[1];
    if (url !== undefined && out.includes('operations:') && out.endsWith('\n')) return { url, banner: out, ran };
    if (ran.child.exitCode !== null || Date.now() > deadline) {
      if (ran.child.exitCode === null) ran.child.kill('SIGTERM');
      throw new Error(`plant-store ${args[0] ?? ''} did not start (exit ${String(ran.child.exitCode)}): ${out}${ran.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Stops each run still going (SIGTERM) and waits for every one to exit. */
export async function stopped(runs: Iterable<Run | undefined>): Promise<void> {
  for (const ran of runs) {
    if (ran === undefined) continue;
    if (ran.child.exitCode === null) ran.child.kill('SIGTERM');
    await ran.exit;
  }
}
