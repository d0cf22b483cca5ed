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
