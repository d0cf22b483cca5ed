/**
 * Reading the contract from a file (Node only: node:fs): the kit's openapi.yaml by default, or the
 * user's with --contract. The compiling is contract.ts's, which runs anywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { compileContract, headingOf, type Contract, type ContractHeading, type Schema } from './contract.js';

/**
 * The kit's openapi.yaml: beside the kit's package.json, the first one above this file - from src/
 * in a checkout, from dist/src/ when built, and from node_modules/plant-store-kit/dist/src/ when
 * installed. The search stops at that package.json: above it is the project that installed the
 * kit, whose own openapi.yaml must never be taken for the kit's.
 */
export function defaultContractFile(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const candidate = join(dir, 'openapi.yaml');
      if (existsSync(candidate)) return candidate;
      throw new Error(`openapi.yaml is missing beside ${join(dir, 'package.json')}: the kit is not installed whole`);
    }
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: the kit is not installed whole`);
  }
}

const loaded = new Map<string, Contract>();

/** The contract in `file` (openapi.yaml of the kit by default), read and compiled once per file. */
export function loadContract(file: string = defaultContractFile()): Contract {
  const key = resolve(file);
  let contract = loaded.get(key);
  if (!contract) {
    contract = compileContract(parseYaml(readFileSync(key, 'utf8')) as Schema, key);
    loaded.set(key, contract);
  }
  return contract;
}

/**
 * The heading of the contract in `file` (the kit's openapi.yaml by default): its title and version,
 * read without compiling it, which takes most of loading one (what `--version` and `--help` print).
 * A contract loaded already is not read again.
 */
export function readHeading(file: string = defaultContractFile()): ContractHeading {
  const key = resolve(file);
  return loaded.get(key) ?? headingOf(parseYaml(readFileSync(key, 'utf8')) as Schema, key);
}
