/**
 * Reading the contract from a file (Node only: node:fs): the kit's openapi.yaml by default, or the
 * user's with --contract. The compiling is contract.ts's, which runs anywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { bundleDocument, externalRefs, inlineRefsIntoPaths } from './bundle.js';
import { exactIntegers, settleNumbers } from './exact-numbers.js';
import { compileContract, headingOf, UnsupportedContractError, type CompileOptions, type Contract, type ContractHeading, type Schema } from './contract.js';
import { needsUpgrade, upgradeDocument, writtenIn } from './upgrade.js';

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
/** Contracts whose reading failed in openContract: loadContract throws the same error again. */
const failed = new Map<string, unknown>();

/**
 * The document in a file; an integer beyond 2^53 as a bigint, until settleNumbers puts it where it
 * belongs (exact-numbers.ts). JSON is YAML too, but JSON.parse reads it several times faster than
 * the YAML parser (a large contract's start-up, bench/README.md): a file that starts with `{` and
 * holds no run of 16 digits (where an integer could pass 2^53, which JSON.parse would round) is
 * tried as JSON first, and read as YAML where it is not JSON (YAML's flow mappings start with `{` too).
 */
function parseDocumentText(text: string): unknown {
  if (text.trimStart().startsWith('{') && !/\d{16}/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON: YAML's reading, and its error messages, below.
    }
  }
  return parseYaml(text, { customTags: exactIntegers }) as unknown;
}

function parseFile(key: string): Schema {
  return parseDocumentText(readFileSync(key, 'utf8')) as Schema;
}

/** What a document needs before it compiles: an upgrade to 3.1, bundling its other files. */
function needsPreparing(document: unknown): boolean {
  return typeof document === 'object' && document !== null && !Array.isArray(document) && (needsUpgrade(document as Schema) || externalRefs(document).length > 0);
}

/**
 * The contract in `file` (openapi.yaml of the kit by default), read and compiled once per file.
 * Synchronous for an OpenAPI 3.1 or 3.2 document in one file, as the kit's own is; a Swagger 2.0
 * or OpenAPI 3.0 document, or one with `$ref`s to other files, is read by {@link openContract}
 * (asynchronous: the upgrader and the bundler are imported when needed), after which this gives it too.
 */
export function loadContract(file: string = defaultContractFile()): Contract {
  const key = resolve(file);
  const known = loaded.get(key);
  if (known) return known;
  if (failed.has(key)) throw failed.get(key);
  const document = parseFile(key);
  if (needsPreparing(document)) throw new Error(`the contract ${key} is ${writtenIn(document)}${externalRefs(document).length > 0 ? ' with $refs to other files' : ''}: read it with \`await openContract(file)\` (it is upgraded and bundled on the way)`);
  const contract = compileContract(settleNumbers(document), key);
  loaded.set(key, contract);
  return contract;
}

/**
 * The contract in `file`, read once per file, whatever it is written in: Swagger 2.0 and OpenAPI
 * 3.0 upgraded to 3.1 (upgrade.ts), `$ref`s to other files bundled in (bundle.ts), and then
 * compiled as loadContract compiles. Its `writtenIn` names the version the file was written in.
 * With `schemas: 'later'` its validators are compiled on first use and by Contract.compileSchemas
 * (a server's start-up); the first reading of a file decides, later ones get the same contract.
 */
export async function openContract(file: string = defaultContractFile(), options: Pick<CompileOptions, 'schemas'> = {}): Promise<Contract> {
  const key = resolve(file);
  const known = loaded.get(key);
  if (known) return known;
  if (failed.has(key)) throw failed.get(key);
  try {
    const contract = await prepare(key, options);
    loaded.set(key, contract);
    return contract;
  } catch (error) {
    // A file that is not there yet may be written later; any other failure is the file's.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failed.set(key, error);
    throw error;
  }
}

async function prepare(key: string, options: Pick<CompileOptions, 'schemas'>): Promise<Contract> {
  let document = parseFile(key);
  if (!needsPreparing(document)) return compileContract(settleNumbers(document), key, options);
  const upgraded = needsUpgrade(document);
  const origin = writtenIn(document);
  if (externalRefs(document).length > 0) {
    const bundled = await bundleDocument(key, document);
    if ('refused' in bundled) throw new UnsupportedContractError(key, bundled.refused);
    // An upgrade moves what the bundler's `$ref`s into operations point at: copies travel with it.
    document = upgraded ? inlineRefsIntoPaths(bundled.document) : bundled.document;
  }
  if (needsUpgrade(document)) {
    document = await upgradeDocument(document);
  }
  return compileContract(settleNumbers(document), key, upgraded ? { ...options, writtenIn: origin } : options);
}

/**
 * The heading of the contract in `file` (the kit's openapi.yaml by default): its title and version,
 * read without compiling it, which takes most of loading one (what `--version` and `--help` print).
 * A contract loaded already is not read again.
 */
export function readHeading(file: string = defaultContractFile()): ContractHeading {
  const key = resolve(file);
  return loaded.get(key) ?? headingOf(parseFile(key), key);
}
