/**
 * conform against the reference serving a contract of readOnly, writeOnly, a discriminator,
 * recursion and integers beyond 2^53 (test/reference/fixtures/schemas-3.1.yaml): the reference
 * passes: a readOnly property left out is no missing property, a readOnly one sent and a writeOnly
 * one not answered are no echo failure.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probesOf } from '../../fuzz/generation/schema-probes.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compileContract, loadContract, type Schema } from '../../src/openapi/index.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

// Without /members: its create has no client-chosen key (its id is readOnly), so the reference
// answers it with a generated value rather than what was sent - server-assigned keys are not this
// file's subject (docs/reference-server.md).
const FIXTURE = fileURLToPath(new URL('../reference/fixtures/schemas-3.1.yaml', import.meta.url));
const document = parse(readFileSync(FIXTURE, 'utf8')) as Schema & { paths: Record<string, unknown> };
delete document.paths['/members'];
delete document.paths['/members/current'];
const contract = compileContract(document);

describe('conform --contract with readOnly, writeOnly, a discriminator and recursion', () => {
  let server: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    server = await startReference({ contract });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the reference passes coverage and random phases (seed 7)', async () => {
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract, seed: 7, runs: 150, phases: ['coverage', 'random'] });
    console.log(`seed 7: ${report.requests} requests`, report.kinds);
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
  }, 120_000);
});

describe('the probes of a request body', () => {
  it('leave out a readOnly property as no probe, at the top and nested; the rest are still probed', () => {
    const full = loadContract(FIXTURE);
    const names = probesOf(full, full.operationById('enrolMember')?.requestBody?.schema ?? {}).map((probe) => probe.name);
    expect(names).toContain('name/missing');
    expect(names.some((name) => name.endsWith('serial/missing'))).toBe(true);
    expect(names.filter((name) => /(^|\/)(id|issuedBy)\/(missing|other-case)/.test(name))).toEqual([]);
  });
});

// A node whose optional `parent` is a node again: a value with every property is endless, so the
// plain values and the generators stop at a depth (schema-arbitraries.ts, MAX_DEPTH); before, they
// recursed until `RangeError: Maximum call stack size exceeded` (issue 29).
const TREE: Schema = {
  openapi: '3.1.0',
  info: { title: 'tree', version: '1' },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Node: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, parent: { $ref: '#/components/schemas/Node' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/nodes': { post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, '400': { description: 'bad' }, '401': { description: 'who' } } } },
    '/nodes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: { responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, '400': { description: 'bad' }, '401': { description: 'who' }, '404': { description: 'none' } } },
    },
  },
};

describe('conform --contract with a schema that refers to itself through an optional property', () => {
  const tree = compileContract(TREE);
  let server: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    server = await startReference({ contract: tree });
  });
  afterAll(async () => {
    await server.close();
  });

  it('plans and runs its coverage and random phases, and the reference passes (seed 11)', async () => {
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: tree, seed: 11, runs: 100, phases: ['coverage', 'random'] });
    console.log(`seed 11: ${report.requests} requests`, report.kinds);
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(report.kinds.valid).toBeGreaterThan(0);
  }, 120_000);
});
