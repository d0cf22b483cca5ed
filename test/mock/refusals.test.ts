/**
 * The mock's guard (the pipeline in front of Prism) refuses in the contract's words, as the
 * reference does (test/reference/refusals.test.ts): on a contract whose errors are
 * application/problem+json, a request without credentials gets a 401 problem and a bad body a 400
 * problem, over a socket and in process, each a body the contract's schema accepts; and
 * `plant-store conform --profile mock` finds that the kit's mock keeps the contract (its refusals
 * were the Plant Store's Error, which a problem+json contract does not declare).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContract } from '../../src/openapi/index.js';
import { createMock } from '../../mock/index.js';
import { run } from '../support/cli.js';
import { send } from '../support/http.js';
import { startMock, type RunningMock } from '../support/servers.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const FILE = fileURLToPath(new URL('../reference/fixtures/refusals-problem.yaml', import.meta.url));

function isProblem(value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...(parseYaml(readFileSync(FILE, 'utf8')) as object), $id: 'urn:test:problem' });
  return ajv.validate({ $ref: 'urn:test:problem#/components/schemas/Problem' }, value);
}

describe("the mock's guard, on a contract whose errors are problem details", () => {
  let server: RunningMock;
  beforeAll(async () => {
    server = await startMock({ contract: await openContract(FILE) });
  });
  afterAll(() => server.close());

  it('answers a request without credentials with a 401 problem, the challenge kept, over a socket', async () => {
    const response = await send(server.url, { method: 'POST', path: '/notes', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"text":"x"}') });
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    expect(isProblem(body)).toBe(true);
    expect(body).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    expect(body.detail).toMatch(/authorization/);
  });

  it('passes the kit\'s own conform (--profile mock)', { timeout: 60_000 }, async () => {
    const conform = run(['conform', '--base-url', server.url, '--contract', FILE, '--profile', 'mock', '--runs', '200', '--capacity', '0', '--seed', '1']);
    const code = await conform.exit;
    expect(code, conform.stdout() + conform.stderr()).toBe(0);
    expect(conform.stdout()).toContain('The target kept the contract (seed 1');
  });

  it('answers a body its schema refuses with a 400 problem, in process', async () => {
    const mock = await createMock({ contract: await openContract(FILE) });
    const answer = await mock.request({ method: 'POST', url: '/notes', headers: { authorization: 'Bearer any', 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(isProblem(body)).toBe(true);
    expect(body).toMatchObject({ status: 400, detail: 'text: is required' });
  });
});
