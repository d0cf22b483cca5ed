/** Contracts beside the bundled one, for the tests of every operation: the example full store and one the kit has never seen. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileContract, loadContract, type Contract } from '../../src/openapi/index.js';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export const FULL_STORE_FILE = fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url));

const EXAMPLES = fileURLToPath(new URL('../../examples/contracts/', import.meta.url));

/** Every example contract of the repository: each YAML or JSON file of examples/contracts/, and each folder's openapi.yaml (a split contract). */
export function exampleContractFiles(): string[] {
  return readdirSync(EXAMPLES, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? [join(EXAMPLES, entry.name, 'openapi.yaml')] : /\.(ya?ml|json)$/.test(entry.name) ? [join(EXAMPLES, entry.name)] : []))
    .filter((file) => existsSync(file))
    .sort();
}

export function fullStore(): Contract {
  return loadContract(FULL_STORE_FILE);
}

/** The header parameter the create of fullStoreWithHeader requires: an int64 of at least 1. */
export const CREATE_HEADER = 'X-Request-Id';

/** The example full store as YAML, its create (an operation with a body) requiring the header CREATE_HEADER. */
export function fullStoreWithHeaderYaml(): string {
  const document = parseYaml(readFileSync(FULL_STORE_FILE, 'utf8')) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
  const create = document.paths['/plants']?.post;
  if (create === undefined) throw new Error('the example full store has no POST /plants');
  create.parameters = [{ name: CREATE_HEADER, in: 'header', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }];
  return stringifyYaml(document);
}

export function fullStoreWithHeader(): Contract {
  return compileContract(parseYaml(fullStoreWithHeaderYaml()) as Record<string, unknown>, '<full store, a header required on the create>');
}

/**
 * A contract with other names and no links: trees under `/trees/{treeId}`, keyed by the integer
 * property `serial`, with an open list (`security: []`) and a `max` cap; read and delete only.
 */
export const TREES_YAML = `
openapi: 3.1.0
info: { title: Orchard, version: 0.3.0 }
security: [ { token: [] } ]
paths:
  /trees:
    get:
      operationId: trees
      security: []
      parameters:
        - { name: max, in: query, schema: { type: integer, minimum: 0 } }
        - { name: species, in: query, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Tree' } } } } }
    post:
      operationId: plantTree
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Tree' } } } }
      responses:
        '201': { description: planted, content: { application/json: { schema: { $ref: '#/components/schemas/Tree' } } } }
        '401': { description: no, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /trees/{treeId}:
    parameters:
      - { name: treeId, in: path, required: true, schema: { type: integer, format: int64 } }
    get:
      operationId: tree
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Tree' } } } }
    delete:
      operationId: fellTree
      responses:
        '204': { description: felled }
  /health:
    get:
      operationId: health
      security: []
      responses:
        '200': { description: up, content: { application/json: { schema: { type: object }, example: { up: true } } } }
components:
  securitySchemes:
    token: { type: http, scheme: bearer }
  schemas:
    Tree:
      type: object
      required: [serial, species]
      properties:
        serial: { type: integer, format: int64 }
        species: { type: string }
        height: { type: number }
    Error:
      type: object
      required: [error, message]
      properties: { error: { type: integer }, message: { type: string } }
`;

export function trees(): Contract {
  return compileContract(parseYaml(TREES_YAML) as Record<string, unknown>, '<trees>');
}
