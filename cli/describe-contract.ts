/**
 * How the command line names a contract: the one line every banner, report and `--version` uses.
 * Its own room, so that options, outcomes and `--version` can all use it without importing each other.
 */
import type { ContractHeading } from '../src/openapi/index.js';

/**
 * The contract as banners and reports name it: title, version and file, and the OpenAPI version
 * it was written in where that is not 3.1 (`OpenAPI 3.0.3, read as 3.1`).
 */
export function describeContract(given: ContractHeading): string {
  return `${given.title} ${given.version} (${given.file}${given.writtenIn === undefined ? '' : `; ${given.writtenIn}`})`;
}
