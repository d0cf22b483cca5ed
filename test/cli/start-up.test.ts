/**
 * Start-up loads what the command line asks for (issue 22): `--version`, `--help` and a refused
 * option load the commands' options and help, never what a command does - the servers' start, the
 * conformance engine's runner and generators, fast-check, Prism, Pact - which each command's run
 * imports when it runs (cli/main.ts). What a real process loaded is read with a module hook
 * (node --import) rather than timed, so the test holds however loaded the machine is; a module of
 * a command that fails to load is still a crash of the kit (70), not bad usage.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runCli, type CliRun } from '../conformance/common.js';

/** node --import of a module whose source is `source`. */
const preload = (source: string): string[] => ['--import', `data:text/javascript,${encodeURIComponent(source)}`];

/** Registers module hooks with source `hooks`; `data` reaches their initialize(). */
const withHooks = (hooks: string, data: unknown): string[] =>
  preload(`import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, { data: ${JSON.stringify(data)} });`);

/** Appends the URL of every module the process loads to `file`, one a line. */
const RECORD_LOADS = `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}`;

/** `plant-store <args>` in a process, with the URLs of the modules it loaded. */
async function loadedBy(args: readonly string[]): Promise<{ run: CliRun; loaded: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'plant-store-start-up-'));
  try {
    const file = join(dir, 'loaded.txt');
    const run = await runCli(args, { nodeArgs: withHooks(RECORD_LOADS, { file }) });
    const loaded = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    return { run, loaded };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What only a command's run needs: start-up loads none of it. */
const RUN_ONLY: readonly (readonly [what: string, pattern: RegExp])[] = [
  ['what a command does', /\/dist\/cli\/run\//],
  ["the servers' start", /\/dist\/api\//],
  // Not run/reachable.js nor run/nothing-to-test.js (the errors outcome.ts recognises, each a class
  // importing nothing) nor reports/junit.js (the proxy's writer).
  ["the engine's API, generators, runner and reports", /\/dist\/fuzz\/(index\.js|generation\/|run\/(?!reachable\.js|nothing-to-test\.js)|reports\/(?!junit\.js))/],
  ['fast-check', /\/node_modules\/(fast-check|pure-rand)\//],
  ['Prism', /\/node_modules\/@stoplight\//],
  ['Pact', /\/node_modules\/@pact-foundation\//],
  ['the progress bar', /\/node_modules\/cli-progress\//],
];

const runOnly = (loaded: readonly string[]): string[] => RUN_ONLY.filter(([, pattern]) => loaded.some((url) => pattern.test(url))).map(([what]) => what);

describe('start-up loads what the command line asks for', () => {
  it.concurrent.for<[string, string[], number]>([
    ['--version', ['--version'], 0],
    ['--help', ['--help'], 0],
    ['no command at all', [], 2],
    ["serve's help", ['serve', '--help'], 0],
    ["conform's help", ['conform', '--help'], 0],
    ["verify's help", ['verify', '--help'], 0],
    ['an option refused', ['serve', '--port', 'abc'], 2],
  ])('%s loads no command\'s run', async ([, args, code], { expect }) => {
    const { run, loaded } = await loadedBy(args);
    expect(run.code, run.stderr).toBe(code);
    // The hook saw the command line itself: an empty list would prove nothing.
    expect(loaded.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(runOnly(loaded)).toEqual([]);
  });

  it.concurrent('a command that runs loads its run: conform loads the engine and fast-check (exit 2 here: no target)', async ({ expect }) => {
    const { run, loaded } = await loadedBy(['conform', '--base-url', 'http://127.0.0.1:9', '--token', 't']);
    expect(run.code, run.stderr).toBe(2);
    expect(runOnly(loaded)).toEqual(expect.arrayContaining(['what a command does', "the engine's API, generators, runner and reports", 'fast-check']));
  });

  it.concurrent("a command's run that cannot load is a crash of the kit (70), not bad usage", async ({ expect }) => {
    const failing = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.endsWith('/dist/cli/run/serve.js')) throw new Error('injected defect: cli/run/serve.js cannot load');
  return resolved;
}`;
    const run = await runCli(['serve', '--port', '0'], { nodeArgs: withHooks(failing, null) });
    expect(run.code).toBe(70);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^plant-store: internal error\. This is a defect of Plant Store Kit/);
    expect(run.stderr).toContain('injected defect: cli/run/serve.js cannot load');
  });
});
