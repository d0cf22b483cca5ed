/**
 * `plant-store --version`: the kit's version, the contract, and the Prism and Pact packages it runs,
 * each read from what is installed - compared here with the package.json files themselves.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { installedVersion, kitVersion, RUNTIME_PACKAGES, versionReport } from '../../cli/version.js';
import { loadContract } from '../../src/openapi/index.js';
import { run as runCli } from '../support/cli.js';
import { FULL_STORE_FILE } from '../support/contracts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const versionIn = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;

describe('plant-store --version', () => {
  it('names the kit, the contract with its file, every Prism and Pact package as installed, and Node.js', () => {
    const report = versionReport();
    expect(report).toMatch(new RegExp(`^plant-store-kit +${versionIn(join(ROOT, 'package.json')).replaceAll('.', '\\.')}$`, 'm'));
    expect(report).toMatch(new RegExp(`^contract +OpenAPI Plant Store 1\\.0\\.0 \\(${join(ROOT, 'openapi.yaml').replaceAll('.', '\\.')}\\)$`, 'm'));
    const packages = Object.values(RUNTIME_PACKAGES).flat();
    expect(packages).toEqual(expect.arrayContaining(['@stoplight/prism-http', '@pact-foundation/pact']));
    for (const name of packages) expect(report).toContain(`${name} ${versionIn(join(ROOT, 'node_modules', name, 'package.json'))}`);
    expect(report).toContain(`Node.js          ${process.version}`);
  });

  it('is what the built command prints for --version and -V, exiting 0', async () => {
    const run = promisify(execFile);
    for (const flag of ['--version', '-V']) {
      const { stdout } = await run(process.execPath, [join(ROOT, 'bin', 'plant-store.js'), flag]);
      expect(stdout).toBe(`${versionReport()}\n`);
    }
  });

  it('names the contract --contract names, wherever the options stand, with its title, version and file', async () => {
    const run = promisify(execFile);
    const full = versionReport(loadContract(FULL_STORE_FILE));
    expect(full).toMatch(new RegExp(`^contract +OpenAPI Plant Store \\(full store example\\) 1\\.1\\.0-example \\(${FULL_STORE_FILE.replaceAll('.', '\\.')}\\)$`, 'm'));
    const lines = [
      ['--version', '--contract', FULL_STORE_FILE],
      ['--contract', FULL_STORE_FILE, '--version'],
      ['-V', `--contract=${FULL_STORE_FILE}`],
      ['serve', '--contract', FULL_STORE_FILE, '--version'],
      ['--version', '--contract', join(ROOT, 'openapi.yaml'), '--contract', FULL_STORE_FILE],
    ];
    for (const argv of lines) {
      const { stdout } = await run(process.execPath, [join(ROOT, 'bin', 'plant-store.js'), ...argv]);
      expect(stdout, argv.join(' ')).toBe(`${full}\n`);
    }
  });

  it('refuses a --contract it cannot read as bad usage (exit 2), naming the problem', async () => {
    for (const [argv, message] of [
      [['--version', '--contract', '/no/such/contract.yaml'], 'no such file /no/such/contract.yaml'],
      [['--version', '--contract'], "option '--contract <file>' argument missing"],
    ] as const) {
      const ran = runCli(argv);
      expect(await ran.exit, argv.join(' ')).toBe(2);
      expect(ran.stdout()).toBe('');
      expect(ran.stderr()).toContain(message);
    }
  });

  it('finds a package in the nearest node_modules going up, as Node does, and says when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-version-'));
    try {
      const deep = join(dir, 'a', 'b', 'c');
      mkdirSync(deep, { recursive: true });
      for (const [where, version] of [[dir, '1.0.0'], [join(dir, 'a'), '2.0.0']] as const) {
        mkdirSync(join(where, 'node_modules', '@scope', 'tool'), { recursive: true });
        writeFileSync(join(where, 'node_modules', '@scope', 'tool', 'package.json'), JSON.stringify({ name: '@scope/tool', version }));
      }
      expect(installedVersion('@scope/tool', deep)).toBe('2.0.0');
      expect(installedVersion('@scope/no-such-tool', deep)).toBeUndefined();
      expect(kitVersion()).toBe(versionIn(join(ROOT, 'package.json')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
