/**
 * The kit as a user gets it: `npm pack` (prepack builds dist/ afresh), the tarball installed into
 * an empty project (`npm init -y`, `npm i -D <tarball>`), and every command's smoke run there by
 * `npx`, with no build step and no dev dependency of the kit - so a file missing from the package,
 * or a dependency that only a checkout has, fails here. Then the documented examples (examples/)
 * run in that project as written: the vitest globalSetup, the Playwright webServer, and the MSW
 * handlers (plant-store-kit/msw, with msw installed beside the kit) in vitest and in a page
 * bundled by Vite, opened in Debian's Chromium.
 *
 * `npm run test:package` (not part of `npm test`: it takes a minute or two and the npm registry,
 * or an npm cache that has the packages); `.ci/run` runs it after `npm test`. Installs use
 * `--prefer-offline`, so the cache `npm ci` filled serves them, and `--engine-strict`, so a
 * dependency whose newest release needs a newer Node than the kit promises fails here before it
 * fails a user.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/main.js';
import { callStore, openExamplePage } from '../browser/msw-page.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KIT = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
};
/** The tools the examples need, installed into the project at the versions the kit is tested with. */
const EXAMPLE_TOOLS = ['vitest', '@playwright/test', 'typescript', '@types/node', 'msw', 'vite'];

/** The environment of a user's shell: none of the variables `npm run` set for the kit's own scripts. */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const npmOwn = /^npm_/i.test(name) && !/^npm_config_(cache|registry)$/i.test(name);
    if (!npmOwn && name !== 'INIT_CWD' && name !== 'PLANT_STORE_TOKENS') env[name] = value;
  }
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

interface Process {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Standard output and standard error as they came. */
  readonly output: () => string;
  readonly stdout: () => string;
  readonly exit: Promise<number | null>;
}

/** A command in its own process group (npx starts node under it), output collected. */
function start(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Process {
  const child = spawn(command, args, { cwd, env: userEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => {
    child.on('close', resolve);
  });
  return { child, output: () => output, stdout: () => stdout, exit };
}

/** Runs a command to its end; its exit code and everything it printed. */
async function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<{ readonly code: number | null; readonly output: string; readonly stdout: string }> {
  const spawned = start(command, args, cwd, env);
  const code = await spawned.exit;
  return { code, output: spawned.output(), stdout: spawned.stdout() };
}

const running = new Set<Process>();

interface Serving {
  /** SIGTERM to the process group, as Ctrl-C is to a terminal's; resolves when every process of it has ended. */
  readonly stop: () => Promise<void>;
}

/** Starts `npx plant-store <args>` and waits until it has printed what `ready` finds in its output. */
async function serve<T>(args: readonly string[], cwd: string, ready: (output: string) => T | undefined): Promise<T & Serving> {
  const server = start('npx', ['plant-store', ...args], cwd);
  running.add(server);
  const stop = async (): Promise<void> => {
    if (server.child.exitCode === null && server.child.pid !== undefined) process.kill(-server.child.pid, 'SIGTERM');
    await server.exit; // 'close': every process holding its output has gone, node's included
    running.delete(server);
  };
  for (const deadline = Date.now() + 30_000; ; ) {
    const found = ready(server.output());
    if (found !== undefined) return { ...found, stop };
    if (server.child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`plant-store ${args.join(' ')} did not come up:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a server and shows it gone: nothing answers at its URLs any more. */
async function stopped(server: Serving, ...urls: readonly string[]): Promise<void> {
  await server.stop();
  for (const url of urls) await expect(fetch(url)).rejects.toThrow();
}

/** The URL and token a server prints in its banner (`listening on URL`, `token: T`). */
function banner(output: string): { readonly url: string; readonly token: string } | undefined {
  const url = /listening on (http:\/\/\S+?),?\s/.exec(output)?.[1];
  // serve: `token: T (generated; ...)`; mock: `token: any well-formed bearer token, e.g. T`.
  const token = /token: (?:.*e\.g\. )?(\S+)/.exec(output)?.[1];
  return url !== undefined && token !== undefined ? { url, token } : undefined;
}

async function postPlant(url: string, token: string): Promise<{ readonly status: number; readonly body: string }> {
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{"name":"Monstera","id":9223372036854775807,"tag":"tropical"}',
  });
  return { status: response.status, body: await response.text() };
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The version of a package as installed in `dir`'s node_modules. */
function installedVersion(dir: string, name: string): string | undefined {
  const file = join(dir, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

/** The packages some installed package other than the kit depends on (npm's record of node_modules). */
function dependedOnByOthers(dir: string): ReadonlySet<string> {
  const lock = JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> };
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === `node_modules/${KIT.name}`) continue;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) names.add(name);
  }
  return names;
}

let work: string;
let project: string;
let packed: readonly string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plant-store-package-'));
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(pack.code, pack.output).toBe(0);
  const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball:\n${pack.output}`);
  packed = (JSON.parse(pack.stdout) as { files: { path: string }[] }[]).flatMap((entry) => entry.files.map((file) => file.path));

  project = join(work, 'project');
  mkdirSync(project);
  const init = await run('npm', ['init', '-y'], project);
  expect(init.code, init.output).toBe(0);
  const install = await run('npm', ['install', '--save-dev', join(work, tarball), '--prefer-offline', '--engine-strict'], project);
  expect(install.code, install.output).toBe(0);
}, 300_000);

afterAll(async () => {
  for (const server of running) if (server.child.pid !== undefined && server.child.exitCode === null) process.kill(-server.child.pid, 'SIGKILL');
  await Promise.all([...running].map((server) => server.exit));
  rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the built code with its types, openapi.yaml, the docs and the examples', () => {
    for (const file of ['bin/plant-store.js', 'dist/cli/main.js', 'dist/api/index.js', 'dist/api/index.d.ts', 'dist/contracts/openapi-types.d.ts', 'openapi.yaml', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/api.md', 'examples/vitest/global-setup.ts', 'package.json', 'dist/msw/index.js', 'dist/msw/index.d.ts', 'dist/openapi.json', 'examples/msw-vitest/plants.test.mts', 'examples/msw-browser/main.ts']) {
      expect(packed, file).toContain(file);
    }
  });

  it('holds no tests, TypeScript sources, source maps, benchmarks, pacts or build stamps', () => {
    const unwanted = packed.filter(
      (file) => /^(test|bench|contracts|src|cli|fuzz|mock|api|\.ci)\//.test(file) || /\.map$|^dist\/bench\/|^dist\/\.|pacts\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('examples/')),
    );
    expect(unwanted).toEqual([]);
  });
});

/** The packages the code at `dir` imports (bare specifiers, node: builtins left out), by package name. */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))) {
    const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ''); // not the examples in comments
    // import … from 'x', import('x'), and a require made with createRequire: createRequire(…)('x').
    for (const [, specifier = ''] of code.matchAll(/(?:\bfrom|\bimport\s*\(|\)\()\s*'([^'.][^']*)'/g)) {
      if (specifier.startsWith('node:')) continue;
      names.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  }
  return names;
}

describe('npm i -D <tarball> in an empty project', () => {
  it('the code it installs imports every runtime dependency and its peer (msw, for plant-store-kit/msw only), and nothing else', () => {
    expect([...importedPackages(join(project, 'node_modules', KIT.name, 'dist'))].sort()).toEqual([...Object.keys(KIT.dependencies), ...Object.keys(KIT.peerDependencies)].sort());
  });


  it("installs every runtime dependency, Pact's native library for this platform, and no dev dependency", () => {
    expect(installedVersion(project, KIT.name)).toBe(KIT.version);
    for (const name of Object.keys(KIT.dependencies)) expect(installedVersion(project, name), name).toBeDefined();
    // A dev dependency of the kit is installed only where a runtime package needs it too (Pact's
    // verifier runs Express; Prism's dependencies bring @types/node): nothing installs it for the kit.
    const needed = dependedOnByOthers(project);
    for (const name of Object.keys(KIT.devDependencies).filter((name) => !needed.has(name))) expect(installedVersion(project, name), name).toBeUndefined();
    const native = readdirSync(join(project, 'node_modules', '@pact-foundation')).filter((name) => name.startsWith(`pact-core-${process.platform}-${process.arch}`));
    expect(native.length).toBeGreaterThan(0);
  });

  it.concurrent.for(['', ...COMMANDS.map((command) => command.name)])('npx plant-store %s --help', async (command, { expect }) => {
    const { code, output } = await run('npx', ['plant-store', ...(command === '' ? [] : [command]), '--help'], project);
    expect(code, output).toBe(0);
    expect(output).toContain(`Usage: plant-store${command === '' ? '' : ` ${command}`} [options]`);
  });

  it('npx plant-store --version prints the kit, its contract, and the Prism and Pact packages installed', async () => {
    const { code, output } = await run('npx', ['plant-store', '--version'], project);
    expect(code, output).toBe(0);
    expect(output).toMatch(new RegExp(`^plant-store-kit +${KIT.version.replaceAll('.', '\\.')}$`, 'm'));
    expect(output).toContain(`OpenAPI Plant Store 1.0.0 (${join(project, 'node_modules', KIT.name, 'openapi.yaml')})`);
    for (const name of ['@stoplight/prism-http', '@pact-foundation/pact', '@pact-foundation/pact-core']) expect(output).toContain(`${name} ${installedVersion(project, name) ?? 'missing'}`);
  });

  it.runIf((process.features as { require_module?: boolean }).require_module === true)('a CommonJS file can require() the API (Node.js 20.19 or later)', async () => {
    const { code, output } = await run(process.execPath, ['-e', "const kit = require('plant-store-kit'); console.log(typeof kit.startMock, typeof kit.createPlant, kit.contractFile)"], project);
    expect(code, output).toBe(0);
    expect(output).toContain(`function function ${join(project, 'node_modules', KIT.name, 'openapi.yaml')}`);
  });

  describe('npx plant-store serve', () => {
    let server: { readonly url: string; readonly token: string } & Serving;
    beforeAll(async () => {
      server = await serve(['serve', '--port', '0'], project, banner);
    });
    afterAll(async () => {
      await stopped(server, server.url);
    });

    it('answers a POST with its generated token, the id exact', async () => {
      expect(await postPlant(server.url, server.token)).toEqual({ status: 200, body: '{"name":"Monstera","tag":"tropical","id":9223372036854775807}' });
    });

    it('npx plant-store conform against it passes, and --html writes the page', async () => {
      const { code, output } = await run('npx', ['plant-store', 'conform', '--base-url', server.url, '--token', server.token, '--html', 'report.html'], project);
      expect(code, output).toBe(0);
      expect(output).toContain('The target kept the contract');
      const page = readFileSync(join(project, 'report.html'), 'utf8');
      expect(page).toMatch(/^<!DOCTYPE html>/i);
      expect(page).toContain('The target kept the contract');
      expect(page.match(/<svg /g)?.length, 'the two plots').toBe(2);
    });

    it('npx plant-store proxy in front of it passes the answer through, judged', async () => {
      const proxy = await serve(['proxy', '--upstream', server.url, '--port', '0'], project, (output) => {
        const url = /proxy listening on (http:\/\/\S+?),?\s/.exec(output)?.[1];
        return url === undefined ? undefined : { url };
      });
      const response = await fetch(`${proxy.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: '{"name":"Monstera","id":9223372036854775807}',
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('{"name":"Monstera","id":9223372036854775807}');
      expect(response.headers.get('plant-store-violations')).toBeNull();
      await stopped(proxy, proxy.url);
    });

    it("npx plant-store verify against it passes (Pact's native library loads)", async () => {
      const { code, output } = await run('npx', ['plant-store', 'verify', '--base-url', server.url, '--token', server.token], project);
      expect(code, output).toBe(0);
      expect(output).toMatch(/all \d+ interactions hold/);
    });
  });

  it('npx plant-store mock answers a POST', async () => {
    const mock = await serve(['mock', '--port', '0'], project, banner);
    expect((await postPlant(mock.url, mock.token)).status).toBe(200);
    await stopped(mock, mock.url);
  });

  it('npx plant-store start answers on both ports with the printed token', async () => {
    const both = await serve(['start', '--port', '0', '--mock-port', '0', '--quiet'], project, (output) => {
      const reference = /reference implementation +(http:\/\/[^\s,]+)/.exec(output)?.[1];
      const mock = /mock \(Prism\) +(http:\/\/\S+?),/.exec(output)?.[1];
      const token = /token: (\S+)/.exec(output)?.[1];
      return reference !== undefined && mock !== undefined && token !== undefined ? { reference, mock, token } : undefined;
    });
    expect((await postPlant(both.reference, both.token)).status).toBe(200);
    expect((await postPlant(both.mock, both.token)).status).toBe(200);
    await stopped(both, both.reference, both.mock);
  });
});

describe('the examples, run in the installed project as written', () => {
  beforeAll(async () => {
    const tools = EXAMPLE_TOOLS.map((name) => `${name}@${installedVersion(ROOT, name) ?? 'latest'}`);
    const install = await run('npm', ['install', '--save-dev', ...tools, '--prefer-offline', '--engine-strict'], project);
    expect(install.code, install.output).toBe(0);
    for (const example of ['vitest', 'playwright', 'msw-vitest', 'msw-browser']) cpSync(join(ROOT, 'examples', example), join(project, example), { recursive: true });
  }, 300_000);

  it('they type-check against the types the package ships (tsc, strict, NodeNext resolution)', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, resolveJsonModule: true, types: ['node'] }, include: ['vitest', 'playwright', 'msw-vitest'] }),
    );
    const { code, output } = await run('npx', ['tsc', '-p', 'tsconfig.json'], project);
    expect(code, output).toBe(0);
  });

  it('the vitest globalSetup starts the mock with startMock() and a test posts a plant with createPlant', async () => {
    const { code, output } = await run('npx', ['vitest', 'run'], join(project, 'vitest'));
    expect(code, output).toBe(0);
    expect(output).toMatch(/Tests +2 passed/);
  });

  it("Playwright's webServer runs `npx plant-store mock` and waits for its port; the tests post to it (no browser)", async () => {
    const { code, output } = await run('npx', ['playwright', 'test', '--reporter', 'line'], join(project, 'playwright'), { PLANT_STORE_MOCK_PORT: String(await freePort()), CI: 'true' });
    expect(code, output).toBe(0);
    const tests = readFileSync(join(ROOT, 'examples', 'playwright', 'plants.spec.ts'), 'utf8').match(/^test\(/gm)?.length ?? 0;
    expect(tests).toBeGreaterThan(0);
    expect(output).toMatch(new RegExp(`\\b${tests} passed`));
  });

  it('the MSW vitest example runs the reference in process: int64, 400, 401, replacement, assertRequests', async () => {
    const { code, output } = await run('npx', ['vitest', 'run'], join(project, 'msw-vitest'));
    expect(code, output).toBe(0);
    const tests = readFileSync(join(ROOT, 'examples', 'msw-vitest', 'plants.test.mts'), 'utf8').match(/^test\(/gm)?.length ?? 0;
    expect(output).toMatch(new RegExp(`Tests +${tests} passed`));
  });

  it('the MSW browser example, bundled by Vite with the worker from msw init, answers in Chromium without leaving the page', async () => {
    const page = join(project, 'msw-browser');
    // The page's tsconfig in the kit extends the kit's own; a project has its own.
    writeFileSync(join(page, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', lib: ['es2023', 'dom'], noEmit: true, skipLibCheck: true, resolveJsonModule: true, types: [] }, include: ['main.ts'] }));
    for (const [command, args, cwd] of [
      ['npx', ['tsc', '-p', 'tsconfig.json'], page],
      ['npx', ['msw', 'init', 'msw-browser/public', '--save=false'], project],
      ['npx', ['vite', 'build'], page],
    ] as const) {
      const { code, output } = await run(command, args, cwd);
      expect(code, `${command} ${args.join(' ')}: ${output}`).toBe(0);
    }
    const opened = await openExamplePage(join(page, 'dist'));
    try {
      await opened.page.click('button');
      await opened.page.waitForFunction("document.querySelector('#answer').textContent !== ''");
      expect(await opened.page.textContent('#answer')).toBe('200 {"name":"Monstera","id":9223372036854775807}');
      expect((await callStore(opened.page, '{"name":"Fern"}')).status).toBe(400);
      expect((await callStore(opened.page, '{"name":"Fern","id":2}', null)).challenge).toBe('Bearer realm="plant-store"');
      expect(opened.outside).toEqual([]);
      expect(opened.served.filter((path) => path.startsWith('/api'))).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
