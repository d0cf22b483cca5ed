/**
 * The typed client writes parameters through the same module the servers read them with
 * (src/openapi's serialiseParameter and parseParameters): a contract with a matrix path
 * parameter, a deepObject and a JSON `content` query parameter, a label-styled array, a header
 * object and cookies, each sent by createClient over a socket to the reference and to the mock,
 * both of which accept what the client wrote, and refuse (400, naming it) a required cookie left out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../contracts/client.js';
import { loadContract, type Contract } from '../../src/openapi/index.js';
import { startMock, startReference, TEST_TOKEN } from '../support/servers.js';

const ERROR = { $ref: '#/components/schemas/Error' };

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'styles', version: '1' },
  paths: {
    '/trays/{tray}/{rows}': {
      get: {
        operationId: 'readTray',
        security: [],
        parameters: [
          { name: 'tray', in: 'path', required: true, style: 'matrix', schema: { type: 'integer', format: 'int64' } },
          { name: 'rows', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'color', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { R: { type: 'integer', maximum: 255 }, G: { type: 'integer' } }, required: ['R'] } },
          { name: 'tags', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer', format: 'int64' } }, required: ['id'] } } } },
          { name: 'X-Light', in: 'header', explode: true, schema: { type: 'object', properties: { lux: { type: 'number' }, on: { type: 'boolean' } } } },
          { name: 'visitor', in: 'cookie', required: true, schema: { type: 'integer', format: 'int64' } },
          { name: 'seen', in: 'cookie', explode: false, schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, example: { ok: true } } } },
          '400': { description: 'bad', content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
  },
  components: { schemas: { Error: { type: 'object', required: ['error', 'message'], properties: { error: { type: 'integer' }, message: { type: 'string' } } } } },
};

// The mock's Prism reads the contract from its file: a JSON document is YAML too.
const dir = mkdtempSync(join(tmpdir(), 'plant-store-styles-'));
const file = join(dir, 'styles.yaml');
writeFileSync(file, JSON.stringify(DOCUMENT));
const contract: Contract = loadContract(file);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const INPUT = {
  path: { tray: 9223372036854775807n, rows: [1, 2, 3] },
  query: { color: { R: 100, G: 200 }, tags: ['a b', 'c,d'], filter: { id: 9007199254740993n } },
  headers: { 'X-Light': { lux: 1.5, on: true } },
  cookies: { visitor: 9007199254740993n, seen: ['x y', 'z;w'] },
};

type Call = (input: typeof INPUT | Omit<typeof INPUT, 'cookies'>) => Promise<{ status: number; body: unknown }>;

describe.each([
  ['the reference', async () => startReference({ contract })],
  ['the mock', async () => startMock({ contract })],
])('the typed client against %s', (_, start) => {
  let server: { url: string; close(): Promise<void> };
  let readTray: Call;
  beforeAll(async () => {
    server = await start();
    readTray = (createClient<Record<string, unknown>>(server.url, TEST_TOKEN, { contract }) as unknown as { readTray: Call }).readTray;
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes every style so that the server reads it: a 200', async () => {
    expect(await readTray(INPUT)).toEqual({ status: 200, body: { ok: true } });
  });

  it('a required cookie left out: a 400 naming it', async () => {
    const answer = await readTray({ path: INPUT.path, query: INPUT.query, headers: INPUT.headers });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toContain('cookie parameter visitor: is required');
  });

  it('a value the schema refuses, written in its style: a 400 naming the parameter and its property', async () => {
    const answer = await readTray({ ...INPUT, query: { ...INPUT.query, color: { R: 256, G: 0 } } });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toContain('query parameter color item R');
  });
});
