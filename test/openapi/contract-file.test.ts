/**
 * Where the kit's openapi.yaml is found: beside the kit's own package.json, the first one above
 * the code - in a checkout, built, and installed in a project's node_modules - and never above it,
 * where the project that installed the kit may keep an openapi.yaml of its own. And a contract's
 * heading, read from its file without compiling it (what --version and --help print).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultContractFile, loadContract, readHeading } from '../../src/openapi/index.js';
import { FULL_STORE_FILE } from '../support/contracts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'plant-store-contract-file-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A project with its own package.json and openapi.yaml, the kit installed in its node_modules. */
function installedKit(name: string, withContract: boolean): string {
  const project = join(work, name);
  const kit = join(project, 'node_modules', 'plant-store-kit');
  const code = join(kit, 'dist', 'src', 'openapi');
  mkdirSync(code, { recursive: true });
  for (const dir of [project, kit]) writeFileSync(join(dir, 'package.json'), '{}');
  writeFileSync(join(project, 'openapi.yaml'), 'openapi: 3.1.0');
  if (withContract) writeFileSync(join(kit, 'openapi.yaml'), 'openapi: 3.1.0');
  return code;
}

describe('defaultContractFile', () => {
  it('is the checkout’s openapi.yaml, from the source and from dist/', () => {
    expect(defaultContractFile()).toBe(join(ROOT, 'openapi.yaml'));
    expect(defaultContractFile(join(ROOT, 'dist', 'src', 'openapi'))).toBe(join(ROOT, 'openapi.yaml'));
  });

  it("is the installed kit's own openapi.yaml, not the project's", () => {
    expect(defaultContractFile(installedKit('whole', true))).toBe(join(work, 'whole', 'node_modules', 'plant-store-kit', 'openapi.yaml'));
  });

  it("says the kit is not installed whole when its openapi.yaml is missing, rather than take the project's", () => {
    expect(() => defaultContractFile(installedKit('broken', false))).toThrow(/openapi\.yaml is missing beside .*plant-store-kit\/package\.json/);
  });

  it('says so when there is no package.json above at all', () => {
    const bare = join(work, 'bare');
    mkdirSync(bare);
    expect(() => defaultContractFile(bare)).toThrow(/no package\.json above/);
  });
});

describe('readHeading', () => {
  it("reads a contract's title and version, with its file, as loading the contract does, without compiling it", () => {
    // A copy: a file loaded already would be answered from what loadContract kept.
    const file = join(work, 'full-store.yaml');
    copyFileSync(FULL_STORE_FILE, file);
    const heading = readHeading(file);
    const { title, version } = loadContract(file);
    expect(heading).toEqual({ file, title, version });
    expect(readHeading()).toEqual({ file: join(ROOT, 'openapi.yaml'), title: 'OpenAPI Plant Store', version: '1.0.0' });
  });
});
