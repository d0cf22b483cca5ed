/**
 * `mock`, `proxy` and `generate:types` on contracts as people write them (issue 28, "Done when"):
 * in process, each on every example contract and on Swagger 2.0 and OpenAPI 3.0 ones; and one
 * spawn each of the built commands on the 3.0 contract - the mock's banner and one request per
 * operation, the proxy in front of the reference, the types printed.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, startReference } from '../../api/index.js';
import { generateTypesOf } from '../../contracts/generate-types.js';
import { openContract } from '../../src/openapi/index.js';
import { run, type Run } from '../support/cli.js';
import { exampleContractFiles } from '../support/contracts.js';
import { operationRequests, sendEach } from '../support/operation-requests.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const OPENAPI_30 = here('../openapi/fixtures/openapi-3.0.yaml');
const CONTRACTS = [...exampleContractFiles(), here('../openapi/fixtures/swagger-2.yaml'), here('../openapi/fixtures/openapi-3.0.yaml')];
const TOKEN = 'contract-commands-token';

/** The started command's output until `until` appears in it (or it ends, or 30 s pass). */
async function outputUntil(started: Run, until: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (!started.stdout().includes(until)) {
    if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start: ${started.stdout()}${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return started.stdout();
}

describe('in process, on every example contract and on 2.0 and 3.0 ones', () => {
  it.for(CONTRACTS)('generate:types and the proxy start on %s', async (name) => {
    const contract = await openContract(name);
    const types = await generateTypesOf(contract);
    for (const operation of contract.operations) expect(types).toContain(`"${operation.path}": {`);
    const reference = await startReference({ contract, tokens: [TOKEN] });
    const proxy = await startProxy({ contract, upstream: reference.url, tokens: [TOKEN], journal: false });
    try {
      for (const answer of await sendEach(proxy.url, operationRequests(contract))) expect(answer.status, `${answer.operation}: ${answer.body}`).toBeLessThan(500);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });
});

describe('the built commands on an OpenAPI 3.0 contract, one spawn each', () => {
  let reference: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    reference = await startReference({ contract: await openContract(OPENAPI_30), tokens: [TOKEN] });
  });
  afterAll(() => reference.close());

  it('mock --contract names the version and answers one request per operation', async () => {
    const started = run(['mock', '--port', '0', '--contract', OPENAPI_30]);
    try {
      const banner = await outputUntil(started, 'operations:');
      expect(banner).toContain('OpenAPI 3.0.3, read as 3.1');
      const url = /listening on (http:\/\/[^\s,]+)/.exec(banner)?.[1] ?? '';
      const answers = await sendEach(url, operationRequests(await openContract(OPENAPI_30)));
      expect(answers.map(({ operation, status }) => ({ operation, success: status >= 200 && status < 300 }))).toEqual(answers.map(({ operation }) => ({ operation, success: true })));
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
  });

  it('proxy --contract forwards to the implementation and checks its answers', async () => {
    const started = run(['proxy', '--port', '0', '--upstream', reference.url, '--token', TOKEN, '--contract', OPENAPI_30]);
    try {
      const banner = await outputUntil(started, 'listening on');
      const url = /listening on (http:\/\/[^\s,]+)/.exec(banner)?.[1] ?? '';
      const answers = await sendEach(url, operationRequests(await openContract(OPENAPI_30)));
      expect(answers.every(({ status }) => status < 500)).toBe(true);
      expect(answers.map(({ operation }) => operation)).toEqual(['POST addReading', 'GET readingById']);
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
  });

  it('generate:types --contract prints the types of its paths', async () => {
    const { code, stdout } = await runScript(['dist/contracts/generate-types.js', '--contract', OPENAPI_30]);
    expect(code).toBe(0);
    expect(stdout).toContain('"/readings/{readingId}": {');
    expect(stdout).toContain('addReading: {');
  });
});

/** `node <script> <args>` from the repository's root (what `npm run generate:types --` runs once built). */
async function runScript(args: readonly string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [...args], { cwd: here('../../'), stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout };
}
