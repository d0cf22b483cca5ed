/**
 * `plant-store serve --contract` on a contract with one read and no example (a 3.0 one, as public
 * contracts are written): it starts, names the operation answered with a generated value, and
 * answers 200 with a body its schema accepts, over a real socket. It used to exit 70.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContract, parseJson } from '../../src/openapi/index.js';
import { run, type Run } from '../support/cli.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/greenhouse-3.0.yaml', import.meta.url));

let serving: Run | undefined;

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});
afterAll(async () => {
  if (serving && serving.child.exitCode === null) {
    serving.child.kill('SIGTERM');
    await serving.exit;
  }
});

async function started(args: readonly string[]): Promise<{ url: string; banner: string }> {
  serving = run(['serve', '--port', '0', ...args]);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const out = serving.stdout();
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url !== undefined && out.includes('operations:') && out.endsWith('\n')) return { url, banner: out };
    if (serving.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start (exit ${String(serving.child.exitCode)}): ${out}${serving.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
});
