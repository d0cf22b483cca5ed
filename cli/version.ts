/** The kit's own version, from the package.json beside openapi.yaml (also where `npm ci` put it). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultContractFile } from '../src/openapi/index.js';

export function kitVersion(): string {
  const pkg = JSON.parse(readFileSync(join(dirname(defaultContractFile()), 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
