/**
 * A large contract for the start-up bench, written the way big public ones are: OpenAPI 3.0.3,
 * 34 resources of 5 operations each (170), every schema a component reached by `$ref`, long
 * descriptions, examples, `nullable`, formats, enums, an API key and a problem+json error - about
 * 600 KB of YAML. Deterministic (no randomness, no clock): the same document on every run. It is
 * written to a temporary directory when the bench runs, never committed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export const LARGE_CONTRACT_RESOURCES = 34;
/** List, create, read, replace, delete. */
export const OPERATIONS_PER_RESOURCE = 5;

/** Plain fields beside the typed ones, enough to bring the document to about 600 KB. */
const EXTRA_FIELDS = 44;

const WORDS = ['plant', 'water', 'light', 'soil', 'leaf', 'root', 'seed', 'pot', 'tray', 'bench', 'shade', 'frost', 'bloom', 'stem', 'graft', 'prune'];

/** A sentence of `count` words, the same for the same `n`. */
function prose(n: number, count: number): string {
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(WORDS[(n * 7 + i * 3 + ((n + i) % 5)) % WORDS.length] as string);
  return `${words.join(' ')}.`;
}

function resourceName(index: number): string {
  const word = WORDS[index % WORDS.length] as string;
  return `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}${Math.floor(index / WORDS.length) + 1}`;
}

/** One resource's schema: scalars of every kind, a nested object, an array, a nullable field. */
function resourceSchema(index: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    id: { type: 'integer', format: 'int64', minimum: 1, description: prose(index, 24), example: 1 },
    name: { type: 'string', minLength: 1, maxLength: 120, description: prose(index + 1, 24), example: `${resourceName(index)} one` },
    status: { type: 'string', enum: ['active', 'resting', 'retired'], description: prose(index + 2, 20) },
    createdAt: { type: 'string', format: 'date-time', description: prose(index + 3, 20), example: '2026-01-02T03:04:05Z' },
    note: { type: 'string', nullable: true, description: prose(index + 4, 30) },
    weight: { type: 'number', minimum: 0, maximum: 10000, description: prose(index + 5, 20) },
    tags: { type: 'array', maxItems: 20, items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, description: prose(index + 6, 20) },
    location: {
      type: 'object',
      description: prose(index + 7, 20),
      properties: {
        bench: { type: 'integer', minimum: 0, description: prose(index + 8, 16) },
        row: { type: 'string', description: prose(index + 9, 16) },
        shaded: { type: 'boolean', description: prose(index + 10, 16) },
      },
    },
  };
  for (let extra = 0; extra < EXTRA_FIELDS; extra++) properties[`field${extra}`] = { type: extra % 3 === 0 ? 'integer' : 'string', description: prose(index + extra, 30) };
  return { type: 'object', required: ['id', 'name'], description: prose(index, 40), properties };
}

function errorResponses(): Record<string, unknown> {
  return {
    '400': { $ref: '#/components/responses/Problem' },
    '401': { $ref: '#/components/responses/Problem' },
    default: { $ref: '#/components/responses/Problem' },
  };
}

function resourcePaths(index: number): Record<string, unknown> {
  const name = resourceName(index);
  const ref = { $ref: `#/components/schemas/${name}` };
  const collection = `/${name.toLowerCase()}s`;
  const json = (schema: unknown): Record<string, unknown> => ({ 'application/json': { schema } });
  const idParameter = { name: 'id', in: 'path', required: true, description: prose(index, 12), schema: { type: 'integer', format: 'int64', minimum: 1 } };
  return {
    [collection]: {
      get: {
        operationId: `list${name}`,
        summary: prose(index, 6),
        description: prose(index + 1, 60),
        parameters: [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/offset' }],
        responses: { '200': { description: prose(index, 10), content: json({ type: 'array', items: ref }) }, ...errorResponses() },
      },
      post: {
        operationId: `create${name}`,
        summary: prose(index + 2, 6),
        description: prose(index + 3, 60),
        requestBody: { required: true, content: json(ref) },
        responses: { '201': { description: prose(index, 10), content: json(ref) }, ...errorResponses() },
      },
    },
    [`${collection}/{id}`]: {
      parameters: [idParameter],
      get: { operationId: `get${name}`, description: prose(index + 4, 60), responses: { '200': { description: prose(index, 10), content: json(ref) }, '404': { $ref: '#/components/responses/Problem' }, ...errorResponses() } },
      put: { operationId: `replace${name}`, description: prose(index + 5, 60), requestBody: { required: true, content: json(ref) }, responses: { '200': { description: prose(index, 10), content: json(ref) }, ...errorResponses() } },
      delete: { operationId: `delete${name}`, description: prose(index + 6, 60), responses: { '204': { description: prose(index, 10) }, ...errorResponses() } },
    },
  };
}

/**
 * How the large contract's operations are secured: an API key, as big public contracts often are;
 * `bearer` for the conform measurement (--large-conform), whose engine sends a bearer token only.
 */
export type LargeContractScheme = 'apiKey' | 'bearer';

/** The document: OpenAPI 3.0.3, LARGE_CONTRACT_RESOURCES resources. */
export function largeContract(resources = LARGE_CONTRACT_RESOURCES, scheme: LargeContractScheme = 'apiKey'): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (let index = 0; index < resources; index++) {
    Object.assign(paths, resourcePaths(index));
    schemas[resourceName(index)] = resourceSchema(index);
  }
  schemas.Problem = { type: 'object', properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Large greenhouse', version: '1.0.0', description: prose(0, 200) },
    servers: [{ url: 'https://greenhouse.example/api/v1' }],
    security: [{ key: [] }],
    paths,
    components: {
      securitySchemes: { key: scheme === 'apiKey' ? { type: 'apiKey', in: 'header', name: 'X-Api-Key' } : { type: 'http', scheme: 'bearer' } },
      parameters: {
        limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        offset: { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
      },
      responses: { Problem: { description: 'a problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
      schemas,
    },
  };
}

/** Writes the large contract as YAML into a new temporary directory; its path. */
export function writeLargeContract(scheme: LargeContractScheme = 'apiKey'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'plant-store-large-')), 'large.yaml');
  writeFileSync(file, stringify(largeContract(LARGE_CONTRACT_RESOURCES, scheme), { lineWidth: 0 }));
  return file;
}
