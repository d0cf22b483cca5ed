/**
 * `plant-store proxy` as a user runs it: the built command (`node bin/plant-store.js`, what
 * `npx plant-store` runs) in a child process in front of the reference and of a faulty
 * implementation; Ctrl-C (SIGINT) prints the summary and writes the report files; the exit code
 * says whether some answer broke the contract (1) or none did (0); bad usage is 2.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceCase, walksOf } from '../../fuzz/generation/sequences.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { LINK_IMPLEMENTATIONS } from '../faulty/links.js';
import { run, type Run } from '../support/cli.js';
import { FULL_STORE_FILE, fullStore } from '../support/contracts.js';
import { occupiedPort, send } from '../support/http.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

/** Starts the proxy and waits for the URL it prints. */
async function proxy(args: readonly string[]): Promise<Run & { readonly url: string }> {
  const started = run(['proxy', '--port', '0', ...args]);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+),/.exec(started.stdout())?.[1];
    if (url !== undefined && started.stdout().includes('Ctrl-C')) return { ...started, url };
    if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`proxy did not start: ${started.stdout()}${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function post(url: string, body: string): Promise<Response> {
  const response = await fetch(`${url}/plants`, { method: 'POST', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body });
  await response.arrayBuffer();
  return response;
}

let dir: string;
beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'plant-store-proxy-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('plant-store proxy --upstream <the reference>', () => {
  let reference: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    reference = await startReference();
  });
  afterAll(async () => {
    await reference.close();
  });

  it('passes answers through with no Plant-Store-Violations; Ctrl-C prints the summary, writes the reports and exits 0', async () => {
    const report = join(dir, 'clean.json');
    const junit = join(dir, 'clean.xml');
    const p = await proxy(['--upstream', reference.url, '--report', report, '--junit', junit, '--journal-size', '5']);
    try {
      expect(p.stdout()).toContain(`forwarding to ${reference.url}`);
      expect(p.stdout()).toContain(`journal: ${p.url}/__plant-store/ (live page; the last 5 requests as JSON at ${p.url}/__plant-store/requests)`);
      const good = await post(p.url, '{"name":"Fern","id":9223372036854775807}');
      expect(good.status).toBe(200);
      expect(good.headers.get('plant-store-violations')).toBeNull();
      expect((await post(p.url, '{"name":"Fern"}')).headers.get('plant-store-violations')).toBeNull();
      // The journal, as curl reads it: both exchanges, passed, the token masked.
      const journal = (await (await fetch(`${p.url}/__plant-store/requests`)).json()) as { capacity: number; requests: { verdict: { outcome: string }; answer: { status: number }; request: { headers: Record<string, string> } }[] };
      expect(journal.capacity).toBe(5);
      expect(journal.requests.map((entry) => [entry.answer.status, entry.verdict.outcome, entry.request.headers.authorization])).toEqual([
        [200, 'passed', 'Bearer ***'],
        [400, 'passed', 'Bearer ***'],
      ]);
      p.child.kill('SIGINT');
      expect(await p.exit).toBe(0);
      expect(p.stdout()).toMatch(/2 exchanges with .* 2 judged; 0 broke the contract/);
      expect(p.stdout()).toContain('Every judged answer kept the contract.');
      const summary = JSON.parse(readFileSync(report, 'utf8')) as { passed: boolean; exchanges: number; checks: Record<string, { judged: number }> };
      expect(summary).toMatchObject({ passed: true, exchanges: 2 });
      expect(summary.checks.echo?.judged).toBe(1);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="plant-store proxy" tests="\d+" failures="0"/);
    } finally {
      p.child.kill('SIGKILL');
    }
  });
});

describe('plant-store proxy --upstream <an implementation that answers 201>', () => {
  let upstream: { readonly url: string; close(): Promise<void> };
  beforeAll(async () => {
    const faulty = FAULTY_IMPLEMENTATIONS.find((f) => f.name === 'created-instead-of-ok');
    if (faulty === undefined) throw new Error('created-instead-of-ok is gone from test/faulty');
    upstream = await faulty.start();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('names the checks on the answer, logs a line without the token, and exits 1; --errors answers 502', async () => {
    const junit = join(dir, 'broken.xml');
    const p = await proxy(['--upstream', upstream.url, '--token', TEST_TOKEN, '--junit', junit]);
    const strict = await proxy(['--upstream', upstream.url, '--errors', '--quiet', '--no-admin']);
    try {
      const answer = await post(p.url, '{"name":"Fern","id":1}');
      expect(answer.status).toBe(201);
      expect(answer.headers.get('plant-store-violations')).toBe('status-declared, accepts-valid');
      const replaced = await post(strict.url, '{"name":"Fern","id":1}');
      expect(replaced.status).toBe(502);
      // The journal keeps the upstream's 201, the findings and the 502 the client got instead.
      const journal = (await (await fetch(`${p.url}/__plant-store/requests`)).json()) as { requests: { verdict: { outcome: string; findings: { check: string }[] } }[] };
      expect(journal.requests.map((entry) => [entry.verdict.outcome, entry.verdict.findings.map((finding) => finding.check)])).toEqual([['violated', ['status-declared', 'accepts-valid']]]);
      // --no-admin: /__plant-store/ goes to the upstream like any other path, and the upstream answers it.
      const forwarded = await fetch(`${strict.url}/__plant-store/requests`);
      expect(forwarded.status).toBe(404);
      expect(await forwarded.text()).toContain('start the reference with --journal');
      expect(strict.stdout()).not.toContain('journal:');
      p.child.kill('SIGINT');
      strict.child.kill('SIGINT');
      expect(await p.exit).toBe(1);
      expect(await strict.exit).toBe(1);
      expect(p.stdout()).toMatch(/POST \/plants 201 violations: status-declared, accepts-valid - status-declared: status 201 is not declared/);
      expect(p.stdout()).toMatch(/accepts-valid, first failure \(exchange 1, POST \/plants → 201\)/);
      expect(p.stdout().split('\n').filter((line) => line.includes(TEST_TOKEN))).toEqual([]);
      expect(strict.stdout()).not.toMatch(/POST \/plants 201/);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testcase classname="plant-store.proxy" name="accepts-valid" time="0">\s*<failure message="[^"]*got 201, expected 200/);
    } finally {
      p.child.kill('SIGKILL');
      strict.child.kill('SIGKILL');
    }
  });
});

describe('plant-store proxy --contract <the example full store> --upstream <an implementation whose read 404s after a create>', () => {
  const contract = fullStore();
  let upstream: { readonly url: string; close(): Promise<void> };
  beforeAll(async () => {
    const faulty = LINK_IMPLEMENTATIONS.find((f) => f.name === 'read-404-after-create');
    if (faulty === undefined) throw new Error('read-404-after-create is gone from test/faulty/links.ts');
    upstream = await startFaulty(faulty.fault(contract), { contract });
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('the read after the create it saw is a resource-available violation: on the answer, in the log, and exit 1; with --no-linked-reads each read is judged on its own', async () => {
    const [walk] = walksOf(contract);
    if (walk === undefined) throw new Error('the example full store has no walk');
    const read = sequenceCase(contract, walk, 'read', '{"name":"Fern","id":9007199254740993}', undefined, { token: TEST_TOKEN, profile: 'reference' });
    const p = await proxy(['--contract', FULL_STORE_FILE, '--upstream', upstream.url, '--token', TEST_TOKEN]);
    const alone = await proxy(['--contract', FULL_STORE_FILE, '--upstream', upstream.url, '--token', TEST_TOKEN, '--no-linked-reads']);
    try {
      for (const step of [...read.setup, read]) {
        const answer = await send(p.url, { method: step.method, path: step.path, headers: step.headers, body: step.body });
        expect(answer.headers['plant-store-violations']).toBe(step === read ? 'resource-available' : undefined);
        // A 404 to a read of an id the proxy does not know of is allowed.
        expect((await send(alone.url, { method: step.method, path: step.path, headers: step.headers, body: step.body })).headers['plant-store-violations']).toBeUndefined();
      }
      p.child.kill('SIGINT');
      alone.child.kill('SIGINT');
      expect(await p.exit).toBe(1);
      expect(await alone.exit).toBe(0);
      expect(p.stdout()).toMatch(/GET \/plants\/9007199254740993 404 violations: resource-available - resource-available: GET \/plants\/9007199254740993 \(after addPlant 200 \(exchange 1\) → GetPlantById\) got 404, not the resource created/);
    } finally {
      p.child.kill('SIGKILL');
      alone.child.kill('SIGKILL');
    }
  });
});

describe.concurrent('bad usage exits 2', () => {
  it.for([
    [['proxy'], /required option '--upstream <url>' not specified/],
    [['proxy', '--upstream', 'ftp://127.0.0.1/'], /--upstream/],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--token', 'a b'], /--token/],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--journal-size', '0'], /--journal-size/],
  ] as const)('%j', async ([args, message], { expect }) => {
    const result = run(args);
    expect(await result.exit).toBe(2);
    expect(result.stderr()).toMatch(message);
  });

  it('a port already taken', async ({ expect }) => {
    const { port, close } = await occupiedPort();
    try {
      const result = run(['proxy', '--upstream', 'http://127.0.0.1:1', '--port', String(port)]);
      expect(await result.exit).toBe(2);
      expect(result.stderr()).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      close();
    }
  });
});
