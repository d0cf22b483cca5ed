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
import { parseArgs } from 'node:util';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import ts from 'typescript';
import { defaultContractFile, openContract, type Contract } from '../src/openapi/index.js';

/** Where the generated types live, in the source tree (also when this runs from dist/). */
export function generatedTypesFile(): string {
  return join(dirname(defaultContractFile()), 'contracts', 'openapi-types.ts');
}

const HEADER = `${COMMENT_HEADER}/* Regenerate with \`npm run generate:types\`; test/contracts/generated-types.test.ts fails when this file is stale. */

`;

/** The text of openapi-types.ts for the contract in `contractFile`. */
export async function generateTypes(contractFile: string = defaultContractFile()): Promise<string> {
  return typesOf(pathToFileURL(contractFile));
}

/**
 * The types of a contract the kit has read: from its file where it is written in 3.1, else from
 * the document as the kit reads it (Swagger 2.0 and OpenAPI 3.0 upgraded, 3.2 as it is).
 */
export async function generateTypesOf(contract: Contract): Promise<string> {
  return contract.writtenIn === undefined ? generateTypes(contract.file) : typesOf(contract.document as unknown as Parameters<typeof openapiTS>[0]);
}

async function typesOf(source: Parameters<typeof openapiTS>[0]): Promise<string> {
  const nodes = await openapiTS(source, {
    additionalProperties: true,
    silent: true,
    transform: (schema) => (schema.format === 'int64' ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword) : undefined),
  });
  return HEADER + astToString(nodes);
}

/**
 * `npm run generate:types` writes the kit's own types; `npm run generate:types -- --contract C
 * [--out F]` writes the types of another contract to F (standard output without it), once the kit
 * has read C whole - a contract it would refuse to serve is refused here too (docs/contracts.md).
 */
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { contract: { type: 'string' }, out: { type: 'string' } } });
  if (values.contract === undefined) {
    const file = generatedTypesFile();
    writeFileSync(file, await generateTypes());
    process.stdout.write(`wrote ${file}\n`);
  } else {
    let contract;
    try {
      contract = await openContract(values.contract);
    } catch (error) {
      process.stderr.write(`generate:types: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    }
    const text = await generateTypesOf(contract);
    if (values.out === undefined) process.stdout.write(text);
    else {
      writeFileSync(values.out, text);
      process.stdout.write(`wrote ${values.out} (${contract.title} ${contract.version})\n`);
    }
  }
}
