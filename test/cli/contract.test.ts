/**
 * `--contract <file>` as a user gives it: the built command serves the example full store (POST
 * then GET of the same int64 id over a socket, the banner naming the contract), and a contract with
 * a feature the kit cannot honour is refused before anything listens (exit 2, the feature and its
 * JSON pointer named) - but for a schema ajv cannot compile, which `serve` finds as it compiles
 * the validators once it listens, and which then ends it the same way.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { run } from '../support/cli.js';
import { FULL_STORE_FILE } from '../support/contracts.js';
import { startReference } from '../../api/index.js';

const dir = mkdtempSync(join(tmpdir(), 'plant-store-contract-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});

describe.concurrent('--contract', () => {
  it('serve --contract serves the full store: POST then GET the same id, digit for digit', async ({ expect }) => {
    const started = run(['serve', '--port', '0', '--token', 'secret', '--contract', FULL_STORE_FILE]);
    try {
      const deadline = Date.now() + 15_000;
      while (!started.stdout().includes('operations:')) {
        if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${started.stdout()}${started.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const banner = started.stdout();
      expect(banner).toContain(`contract: OpenAPI Plant Store (full store example) 1.1.0-example (${FULL_STORE_FILE})`);
      expect(banner).toContain('operations: GET /plants, POST /plants, GET /plants/{id}, PUT /plants/{id}, DELETE /plants/{id}');
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? '';
      const headers = { authorization: 'Bearer secret', 'content-type': 'application/json' };
      const created = await fetch(`${url}/plants`, { method: 'POST', headers, body: '{"name":"Monstera","id":9223372036854775807}' });
      expect(created.status).toBe(200);
      const read = await fetch(`${url}/plants/9223372036854775807`, { headers });
      expect(await read.text()).toBe('{"name":"Monstera","id":9223372036854775807}');
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
  });

  it.for(['serve', 'mock', 'proxy --upstream http://127.0.0.1:9', 'conform --base-url http://127.0.0.1:9 --token t'])('%s refuses a contract with a parameter in a place OpenAPI has not, naming it (exit 2)', async (command, { expect }) => {
    const file = join(dir, `${command.split(' ')[0] ?? 'x'}.yaml`);
    writeFileSync(file, "openapi: 3.1.0\ninfo: { title: c, version: '1' }\npaths:\n  /a:\n    get:\n      parameters: [ { name: s, in: body, schema: { type: string } } ]\n      responses: { '200': { description: ok } }\n");
    const ran = run([...command.split(' '), '--contract', file]);
    expect(await ran.exit).toBe(2);
    expect(ran.stderr()).toContain('a parameter in body at /paths/~1a/get/parameters/0');
  });

  it.for(['serve', 'mock'])('%s refuses a contract with a schema ajv cannot compile, naming it (exit 2)', async (command, { expect }) => {
    const file = join(dir, `${command}-schema.yaml`);
    writeFileSync(file, "openapi: 3.1.0\ninfo: { title: c, version: '1' }\npaths:\n  /a:\n    post:\n      requestBody: { content: { application/json: { schema: { type: object, properties: { x: { nullable: true } } } } } }\n      responses: { '200': { description: ok } }\n");
    const ran = run([command, '--port', '0', '--contract', file]);
    expect(await ran.exit).toBe(2);
    expect(ran.stderr()).toContain('a schema ajv cannot compile as JSON Schema 2020-12 ("nullable" cannot be used without "type") at /paths/~1a/post/requestBody/content/application~1json/schema');
  });

  it('serve --contract reads cookie parameters from the Cookie field: a required one missing is a 400 in the contract\'s error shape, present it is accepted', async ({ expect }) => {
    const file = join(dir, 'cookie.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        "info: { title: cookies, version: '1' }",
        'paths:',
        '  /greeting:',
        '    get:',
        '      operationId: greet',
        '      parameters:',
        '        - { name: visitor, in: cookie, required: true, schema: { type: integer, format: int64 } }',
        '        - { name: prefs, in: cookie, explode: true, schema: { type: object, properties: { lang: { type: string, enum: [en, fr] } } } }',
        '      responses:',
        "        '200': { description: ok, content: { application/json: { schema: { type: object }, example: { hello: world } } } }",
        "        '400': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }",
        'components:',
        '  schemas:',
        '    Error: { type: object, required: [error, message], properties: { error: { type: integer }, message: { type: string } } }',
        '',
      ].join('\n'),
    );
    const started = run(['serve', '--port', '0', '--token', 'secret', '--contract', file]);
    try {
      const deadline = Date.now() + 15_000;
      while (!started.stdout().includes('operations:')) {
        if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${started.stdout()}${started.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const url = /listening on (http:\/\/\S+)/.exec(started.stdout())?.[1] ?? '';
      const missing = await fetch(`${url}/greeting`, { headers: { cookie: 'other=1' } });
      expect(missing.status).toBe(400);
      const refusal = (await missing.json()) as { error: number; message: string };
      expect(refusal).toEqual({ error: 400, message: expect.stringContaining('cookie parameter visitor: is required') as unknown });
      const wrong = await fetch(`${url}/greeting`, { headers: { cookie: 'visitor=9223372036854775807; lang=de' } });
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { message: string }).message).toContain('cookie parameter prefs item lang');
      const accepted = await fetch(`${url}/greeting`, { headers: { cookie: 'visitor=9223372036854775807; lang=fr' } });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ hello: 'world' });
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
  });

  it('verify --contract lints the pact files against the contract first: a pact outside it fails (exit 1) before any request', async ({ expect }) => {
    const server = await startReference();
    try {
      const ran = run(['verify', '--base-url', server.url, '--pact', fileURLToPath(new URL('../contracts/fixtures/broken-pact.json', import.meta.url)), '--contract', FULL_STORE_FILE], { PACT_DO_NOT_TRACK: 'true' });
      expect(await ran.exit).toBe(1);
      expect(ran.stdout()).toContain('The pacts ask for what OpenAPI Plant Store (full store example) 1.1.0-example');
      expect(ran.stdout()).toMatch(/\[response-body\] the 400 body does not match the declared schema/);
    } finally {
      await server.close();
    }
  });

  it('generate:types --contract writes the types of the given contract, int64 as bigint', async ({ expect }) => {
    const out = join(dir, 'types.ts');
    await promisify(execFile)(process.execPath, [fileURLToPath(new URL('../../dist/contracts/generate-types.js', import.meta.url)), '--contract', FULL_STORE_FILE, '--out', out]);
    const types = readFileSync(out, 'utf8');
    expect(types).toContain('"/plants/{id}": {');
    expect(types).toMatch(/id: bigint;/);
  });

  it('conform --contract takes a contract with path parameters: it names the contract and tries the target', async ({ expect }) => {
    const ran = run(['conform', '--base-url', 'http://127.0.0.1:9', '--token', 't', '--contract', FULL_STORE_FILE, '--runs', '1']);
    await ran.exit;
    expect(ran.stderr()).not.toContain('conform cannot test');
    expect(ran.stdout()).toContain('OpenAPI Plant Store (full store example)');
  });
});
