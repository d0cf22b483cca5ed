/**
 * The conformance engine in worker threads, for the shared suite: the implementations under test
 * answer from the test's own thread while the engine generates and checks on the other core.
 * The workers run the compiled engine (dist/fuzz, built by `npm test`); `assertBuildIsFresh`
 * refuses to run against a build older than the sources.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConformanceOptions, Report } from '../../fuzz/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ENGINE = join(ROOT, 'dist', 'fuzz', 'index.js');

/**
 * Sources (not tests) under fuzz/ and src/ whose compiled file in dist/ is missing or older than
 * they are. tsc's incremental build leaves an output alone when its source was touched but not
 * changed (a checkout, a merge), so `npm run build` also stamps dist/.built when tsc succeeds.
 */
function staleOutputs(): string[] {
  const stale: string[] = [];
  let stamped = 0;
  try {
    stamped = statSync(join(ROOT, 'dist', '.built')).mtimeMs;
  } catch {
    // never built with the stamp: only the outputs' own times count
  }
  for (const dir of ['fuzz', 'src', 'mock', 'cli']) {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const source = join(entry.parentPath, entry.name);
      const output = join(ROOT, 'dist', source.slice(ROOT.length + 1).replace(/\.ts$/, '.js'));
      let built = 0;
      try {
        built = statSync(output).mtimeMs;
      } catch {
        // missing: stale
      }
      if (built === 0 || Math.max(built, stamped) < statSync(source).mtimeMs) stale.push(source.slice(ROOT.length + 1));
    }
  }
  return stale;
}

/** The compiled engine must be at least as new as fuzz/ and src/: `npm test` builds first; `npm run build` otherwise. */
export function assertBuildIsFresh(): void {
  const stale = staleOutputs();
  if (stale.length > 0) throw new Error(`dist/ is older than ${stale.slice(0, 3).join(', ')}${stale.length > 3 ? '...' : ''}: run npm run build (npm test does it first)`);
}

const OPENAPI = join(ROOT, 'dist', 'src', 'openapi', 'index.js');

/** A contract crosses to a worker as its file (a compiled Contract holds functions): each worker loads it once. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const engine = import(${JSON.stringify(pathToFileURL(ENGINE).href)});
const openapi = import(${JSON.stringify(pathToFileURL(OPENAPI).href)});
const contracts = new Map();
async function contractOf(file) {
  if (!contracts.has(file)) contracts.set(file, (await openapi).loadContract(file));
  return contracts.get(file);
}
parentPort.on('message', async ({ id, options }) => {
  try {
    const { runConformance } = await engine;
    const { contractFile, ...rest } = options;
    const contract = contractFile === undefined ? undefined : await contractOf(contractFile);
    parentPort.postMessage({ id, report: await runConformance(contract === undefined ? rest : { ...rest, contract }) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.stack ?? error.message : String(error) });
  }
});
`;

type Reply = { id: number; report: Report } | { id: number; error: string };
/** A run's options as a worker takes them: the contract by its file (the bundled one without). */
type EngineOptions = Omit<ConformanceOptions, 'onProgress' | 'contract'> & { readonly contractFile?: string };

/** Runs conformance runs on `size` worker threads, first come first served. */
export class EnginePool {
  readonly #workers: Worker[] = [];
  readonly #idle: Worker[] = [];
  readonly #waiting: (() => void)[] = [];
  #next = 0;

  constructor(size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
      this.#workers.push(worker);
      this.#idle.push(worker);
    }
  }

  async run(options: EngineOptions): Promise<Report> {
    let worker = this.#idle.pop();
    while (!worker) {
      await new Promise<void>((resume) => this.#waiting.push(resume));
      worker = this.#idle.pop();
    }
    const id = this.#next++;
    const busy = worker;
    try {
      return await new Promise<Report>((resolve, reject) => {
        const onMessage = (reply: Reply): void => {
          if (reply.id !== id) return;
          busy.off('message', onMessage);
          busy.off('error', reject);
          if ('error' in reply) reject(new Error(reply.error));
          else resolve(reply.report);
        };
        busy.on('message', onMessage);
        busy.once('error', reject);
        busy.postMessage({ id, options });
      });
    } finally {
      this.#idle.push(busy);
      this.#waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}
