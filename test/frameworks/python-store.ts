/**
 * The Python Plant Store (python/plant_store.py: http.server and json, the standard library
 * alone) as a child process: python3 on this machine, as on every machine the kit's CI runs on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { RunningStore } from '../support/listening.js';

const SCRIPT = join(import.meta.dirname, 'python', 'plant_store.py');
const PYTHON = process.env.PLANT_STORE_PYTHON ?? 'python3';

export type PythonDefect = 'token-prefix' | 'byte-order-mark' | 'backtracking-name' | 'int64-bit-length' | 'keep-alive-unread-body';

/** The version of python3, or undefined when there is none to run. */
export function pythonVersion(): string | undefined {
  const run = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

export async function startPythonStore(options: { readonly token: string; readonly defect?: PythonDefect }): Promise<RunningStore> {
  const args = [SCRIPT, '--token', options.token, ...(options.defect === undefined ? [] : ['--defect', options.defect])];
  // -u: unbuffered, so "listening on" arrives at once; stderr (a log line per request) is read and dropped, keeping the last lines for errors.
  const child = spawn(PYTHON, ['-u', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
      resolve();
    }));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      reject(new Error(`${PYTHON} ${SCRIPT} exited with ${code ?? 'a signal'} before it listened: ${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
