/**
 * Generates contracts/openapi-types.ts from openapi.yaml with openapi-typescript, so the
 * client's types are never written by hand. `npm run generate:types` writes the file;
 * test/contracts/generated-types.test.ts regenerates it in memory and fails when the committed copy is stale.
 *
 * Two choices differ from openapi-typescript's defaults, both to say what the contract says:
 * - `format: int64` becomes `bigint`: an int64 does not fit a JS number (2^53 is the last exact
 *   integer), and the client carries ids exactly.
 * - `additionalProperties: true`: JSON Schema 2020-12 allows properties beyond the declared ones
 *   unless a schema forbids them, and ours do not (docs/DESIGN.md, decision 7).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import ts from 'typescript';
import { defaultContractFile } from '../src/openapi/index.js';

/** Where the generated types live, in the source tree (also when this runs from dist/). */
export function generatedTypesFile(): string {
  return join(dirname(defaultContractFile()), 'contracts', 'openapi-types.ts');
}

const HEADER = `${COMMENT_HEADER}/* Regenerate with \`npm run generate:types\`; test/contracts/generated-types.test.ts fails when this file is stale. */

`;

/** The text of openapi-types.ts for the contract in `contractFile`. */
export async function generateTypes(contractFile: string = defaultContractFile()): Promise<string> {
  const nodes = await openapiTS(pathToFileURL(contractFile), {
    additionalProperties: true,
    silent: true,
    transform: (schema) => (schema.format === 'int64' ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword) : undefined),
  });
  return HEADER + astToString(nodes);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = generatedTypesFile();
  writeFileSync(file, await generateTypes());
  process.stdout.write(`wrote ${file}\n`);
}
