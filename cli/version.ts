/**
 * What `plant-store --version` prints: the kit's version, the contract it serves (the one
 * `--contract` names, or its own), and the versions of Prism and Pact it runs - each read from the
 * package installed where the kit runs (a checkout, or a project's node_modules), never written
 * down here, so the text cannot go stale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultContractFile, readHeading, type ContractHeading } from '../src/openapi/index.js';
import { describeContract } from './describe-contract.js';

/** The packages whose versions decide what the kit does: Prism's engine and Pact's. */
export const RUNTIME_PACKAGES = {
  Prism: ['@stoplight/prism-http'],
  Pact: ['@pact-foundation/pact', '@pact-foundation/pact-core'],
} as const;

function versionIn(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error(`${packageJson} has no version`);
  return pkg.version;
}

/** The kit's own version, from the package.json beside openapi.yaml. */
export function kitVersion(): string {
  return versionIn(join(dirname(defaultContractFile()), 'package.json'));
}

/**
 * The version of `name` as Node would find it from here: the nearest node_modules/<name> going up.
 * Read from its package.json directly, which works whatever its `exports` allow; undefined when it
 * is not installed.
 */
export function installedVersion(name: string, from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return versionIn(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The lines `--version` prints, naming `contract` (the kit's openapi.yaml by default). Never throws:
 * it is what a broken install is diagnosed with.
 */
export function versionReport(contract?: ContractHeading): string {
  const attempt = (read: () => string): string => {
    try {
      return read();
    } catch (error) {
      return `unknown (${error instanceof Error ? error.message : String(error)})`;
    }
  };
  const lines: (readonly [label: string, value: string])[] = [
    ['plant-store-kit', attempt(kitVersion)],
    [
      'contract',
      attempt(() => {
        const named = contract ?? readHeading();
        return describeContract(named);
      }),
    ],
    ...Object.entries(RUNTIME_PACKAGES).map(([tool, names]) => [tool, names.map((name) => `${name} ${attempt(() => installedVersion(name) ?? 'not installed')}`).join(', ')] as const),
    ['Node.js', `${process.version} (${process.platform} ${process.arch})`],
  ];
  return lines.map(([label, value]) => `${label.padEnd(16)} ${value}`).join('\n');
}
