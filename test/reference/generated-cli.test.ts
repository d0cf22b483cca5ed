/**
 * `plant-store serve --contract` on a contract with one read and no example (a 3.0 one, as public
 * contracts are written): it starts, names the operation answered with a generated value, and
 * answers 200 with a body its schema accepts, over a real socket. It used to exit 70.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContract, parseJson } from '../../src/openapi/index.js';
import { listening, stopped, type Run } from '../support/cli.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/greenhouse-3.0.yaml', import.meta.url));
const LABELS = fileURLToPath(new URL('./fixtures/labels-3.0.yaml', import.meta.url));

const servings: Run[] = [];

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});
afterAll(() => stopped(servings));

async function started(args: readonly string[]): Promise<{ url: string; banner: string }> {
  const serving = await listening(['serve', '--port', '0', ...args]);
  servings.push(serving.ran);
  return serving;
}

describe('serve --contract with an operation outside the pattern and without an example', () => {
  it('starts, names it in the banner, and answers 200 with a schema-valid generated body', async () => {
    const { url, banner } = await started(['--contract', FIXTURE, '--quiet']);
    expect(banner).toContain('answered with values generated from their schemas (no example; docs/reference-server.md): GET /sensors');
    expect(banner).not.toContain('could not make valid');
    const response = await fetch(`${url}/sensors`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    const contract = await openContract(FIXTURE);
    const validate = contract.operationById('listSensors')?.response(200)?.validateBody;
    if (validate === undefined) throw new Error('the fixture lost its JSON success');
    expect(validate(parseJson(text))).toMatchObject({ valid: true });
    // The same process answers the same body again: generated once, at start-up.
    expect(await (await fetch(`${url}/sensors`)).text()).toBe(text);
  });

  it('names what it could not make valid, answers it all the same, and a text type without example with a value of its schema', async () => {
    const { url, banner } = await started(['--contract', LABELS, '--quiet']);
    expect(banner).toContain('answered with values generated from their schemas (no example; docs/reference-server.md): GET /labels/current, GET /labels/printable');
    expect(banner).toContain('answered with a generated value the kit could not make valid: GET /labels/current\n');
    const current = await fetch(`${url}/labels/current`);
    expect(current.status).toBe(200);
    expect(Object.keys(JSON.parse(await current.text()) as object)).toEqual(['code']);
    const printable = await fetch(`${url}/labels/printable`);
    expect(printable.status).toBe(200);
    // text/plain is written by its codec from a value of its schema (type: string); it was an empty body.
    expect(printable.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await printable.text()).not.toBe('');
  });
});
