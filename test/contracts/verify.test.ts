/**
 * `plant-store verify` as a provider team runs it: the built command in a child process (so the
 * exit code is real and the native verifier's own report stays out of the test output), against
 * implementations on loopback sockets - the reference, and faulty ones that must fail it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { isJsonObject, loadContract, parseJson, stringifyJson, type JsonObject } from '../../src/openapi/index.js';
import type { RunningServer } from '../../src/reference/index.js';
import { startFaulty, startMock, startReference, TEST_TOKEN, type Fault } from '../support/servers.js';
import { recordPacts } from '../../contracts/consumer-contract.js';

const bin = fileURLToPath(new URL('../../bin/plant-store.js', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of the runner without any Pact Broker, interaction filter or Plant Store tokens it may have. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^PACT_(BROKER_|DESCRIPTION|PROVIDER_)|^PLANT_STORE_TOKENS$/.test(name)));

function verify(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'verify', ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** The summary `plant-store verify` prints after the native report. */
function summary(run: Run): string {
  return run.stdout.slice(run.stdout.indexOf('plant-store verify:'));
}

/** A fault that edits the JSON body of every answer with `status`. */
function editBody(status: number, edit: (body: JsonObject) => void): Fault {
  return (_request, correct) => {
    const answer = correct();
    if (answer.status !== status) return answer;
    const body = parseJson(answer.body);
    if (!isJsonObject(body)) return answer;
    edit(body);
    return { ...answer, body: stringifyJson(body) };
  };
}

let reference: RunningServer;
beforeAll(async () => {
  reference = await startReference();
});
afterAll(async () => {
  await reference.close();
});

/** The failing interactions of a run (by description) and their mismatch lines, from the summary. */
function failures(run: Run): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  let current: string[] | undefined;
  for (const line of summary(run).split('\n').slice(1)) {
    const failed = /^ {2}FAILED .* - (.+)$/.exec(line);
    if (failed?.[1] !== undefined) found[failed[1]] = current = [];
    else if (line.startsWith('      ')) current?.push(line.trim());
    else current = undefined;
  }
  return found;
}

const WITH_TAG = 'a request to create a plant with a tag';
const WITHOUT_TAG = 'a request to create a plant without a tag';
const REPLACE = 'a request to replace a stored plant';
const BEYOND_INT64 = 'a request with an id beyond int64';
const NO_CREDENTIALS = 'a request without credentials';

describe('plant-store verify against implementations', () => {
  it('exits 0 when the reference implementation holds every interaction', async () => {
    const run = await verify(['--base-url', reference.url, '--token', TEST_TOKEN]);
    expect(run.stderr).toBe('');
    expect(summary(run)).toBe(`plant-store verify: all 5 interactions hold against ${reference.url}\n`);
    expect(run.stdout).not.toContain(TEST_TOKEN);
    expect(run.code).toBe(0);
  });

  it('takes the token from PLANT_STORE_TOKENS without --token, as conform does', async () => {
    const run = await verify(['--base-url', reference.url], { PLANT_STORE_TOKENS: `${TEST_TOKEN},another` });
    expect(summary(run), run.stdout + run.stderr).toBe(`plant-store verify: all 5 interactions hold against ${reference.url}\n`);
    expect(run.code).toBe(0);
  });

  // Concurrent: each case is a child process that mostly waits on sockets.
  it.concurrent.for<[string, Fault, Record<string, string[]>]>([
    [
      'whose 200 body lacks name',
      editBody(200, (body) => delete body.name),
      {
        [WITH_TAG]: ['body $: Actual map is missing the following keys: name'],
        [WITHOUT_TAG]: ['body $: Actual map is missing the following keys: name'],
        [REPLACE]: ['body $: Actual map is missing the following keys: name'],
      },
    ],
    [
      'whose Error carries error as a string',
      editBody(400, (body) => (body.error = '400')),
      { [BEYOND_INT64]: ["body $.error: Expected '400' (String) to be an integer"] },
    ],
    [
      'whose 401 body is plain text',
      (_request, correct) => {
        const answer = correct();
        return answer.status === 401 ? { status: 401, headers: { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }, body: 'Unauthorized' } : answer;
      },
      {
        [NO_CREDENTIALS]: [
          "body type: Expected a body of 'application/json' but the actual content type was 'text/plain'",
          "header Content-Type: Mismatch with header 'Content-Type': Expected 'text/plain' to match '^application/json(;.*)?$'",
        ],
      },
    ],
    [
      'that drops the tag it was sent',
      editBody(200, (body) => delete body.tag),
      {
        [WITH_TAG]: ['body $: Actual map is missing the following keys: tag'],
        [REPLACE]: ['body $: Actual map is missing the following keys: tag'],
      },
    ],
  ])('exits 1 against an implementation %s, naming each failing interaction and its mismatch', async ([, fault, expected], { expect }) => {
    const faulty = await startFaulty(fault);
    try {
      const run = await verify(['--base-url', faulty.url, '--token', TEST_TOKEN]);
      expect(failures(run), run.stdout + run.stderr).toEqual(expected);
      expect(summary(run)).toMatch(new RegExp(`^plant-store verify: ${Object.keys(expected).length} of 5 interactions failed against ${faulty.url}\n`));
      expect(run.stdout).not.toContain(TEST_TOKEN);
      expect(run.code).toBe(1);
    } finally {
      await faulty.close();
    }
  });

  it.concurrent.for<[string, Fault, string[], string]>([
    ['resets the connection', (request, correct) => (request.method === 'POST' ? 'reset' : correct()), [], 'failed to answer (ECONNRESET)'],
    ['never answers', (request, correct) => (request.method === 'POST' ? 'hang' : correct()), ['--timeout', '300'], 'did not answer within 300 ms'],
  ])('exits 1, without hanging, against an implementation that %s', async ([, fault, args, reason], { expect }) => {
    const faulty = await startFaulty(fault);
    try {
      const run = await verify(['--base-url', faulty.url, '--token', TEST_TOKEN, ...args]);
      const failed = failures(run);
      expect(Object.keys(failed).sort(), run.stdout + run.stderr).toEqual([WITH_TAG, WITHOUT_TAG, REPLACE, BEYOND_INT64, NO_CREDENTIALS].sort());
      expect(failed[WITH_TAG]).toContainEqual(expect.stringMatching(/^status: expected 200 but was 50[24]$/));
      expect(summary(run)).toContain(`POST /plants: the target ${reason}`);
      expect(run.code).toBe(1);
    } finally {
      await faulty.close();
    }
  });

  it('keeps a path prefix of the base URL, for the states as for the interactions', async () => {
    const paths: string[] = [];
    const prefixed = await startFaulty((request, _correct, app) => {
      paths.push(`${request.method} ${request.url}`);
      return app.request({ ...request, url: request.url.replace(/^\/api(?=\/)/, '') });
    });
    try {
      const run = await verify(['--base-url', `${prefixed.url}/api`, '--token', TEST_TOKEN]);
      expect(summary(run)).toBe(`plant-store verify: all 5 interactions hold against ${prefixed.url}/api\n`);
      expect(new Set(paths)).toEqual(new Set(['GET /api', 'POST /api/plants']));
      expect(run.code).toBe(0);
    } finally {
      await prefixed.close();
    }
  });

  it('holds against the Prism mock every interaction a mock can hold, and names the two that need an echo', async () => {
    // The mock answers the contract's first example (Monstera, tropical): it stores nothing, so
    // it cannot echo "Fern" or a replaced plant. No --token: the pact's example token is sent,
    // and the mock accepts any well-formed one.
    const mock = await startMock();
    try {
      const run = await verify(['--base-url', mock.url]);
      const failed = failures(run);
      expect(Object.keys(failed).sort(), run.stdout + run.stderr).toEqual([REPLACE, WITHOUT_TAG].sort());
      expect(failed[WITHOUT_TAG]?.join('\n')).toMatch(/Fern/);
      expect(summary(run)).toMatch(new RegExp(`^plant-store verify: 2 of 5 interactions failed against ${mock.url}\n`));
      expect(run.code).toBe(1);
    } finally {
      await mock.close();
    }
  });

  describe('with pact files given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
    let file: string;
    beforeAll(async () => {
      file = await recordPacts(dir);
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('verifies a pact file, or every pact in a directory', async () => {
      const run = await verify(['--base-url', reference.url, '--token', TEST_TOKEN, '--pact', file]);
      expect(summary(run)).toBe(`plant-store verify: all 5 interactions hold against ${reference.url}\n`);
      expect(run.code).toBe(0);
      const wrongToken = await verify(['--base-url', reference.url, '--token', 'not-the-token', '--pact', dir]);
      expect(failures(wrongToken)[WITH_TAG]).toContain('status: expected 200 but was 401');
      expect(wrongToken.code).toBe(1);
    });
  });
});

/** The full-store example with other names: the collection /trees, the key serial, the text property kind. */
function rename(value: unknown): unknown {
  const names: Record<string, string> = { id: 'serial', tag: 'kind' };
  if (typeof value === 'string') return names[value] ?? value.replace(/#\/id$/, '#/serial').replace(/^\/plants/, '/trees').replace('{id}', '{serial}');
  if (Array.isArray(value)) return value.map(rename);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key) as string, rename(item)]));
}

describe('plant-store verify --contract: the consumer contract of the given contract, linted against it', () => {
  const file = fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url));
  const contract = loadContract(file);
  const READ = 'a request to read a stored plant';

  it('holds all ten interactions of the full-store example against the reference serving it', async () => {
    const full = await startReference({ contract });
    try {
      const run = await verify(['--base-url', full.url, '--token', TEST_TOKEN, '--contract', file]);
      expect(summary(run), run.stdout + run.stderr).toBe(`plant-store verify: all 10 interactions hold against ${full.url}\n`);
      expect(run.code).toBe(0);
    } finally {
      await full.close();
    }
  });

  it('exits 1 naming the read of an implementation that does not find the plant the state stored', async () => {
    const forgetful = await startFaulty(
      (request, correct) => (request.method === 'GET' && /\/\d+$/.test(request.url) ? { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":404,"message":"not found"}' } : correct()),
      { contract },
    );
    try {
      const run = await verify(['--base-url', forgetful.url, '--token', TEST_TOKEN, '--contract', file]);
      expect(Object.keys(failures(run)), run.stdout + run.stderr).toEqual([READ]);
      expect(failures(run)[READ]).toContain('status: expected 200 but was 404');
      expect(run.code).toBe(1);
    } finally {
      await forgetful.close();
    }
  });

  it('exits 1 naming the read of a missing plant when it is not a 404 Error', async () => {
    const careless = await startFaulty((_request, correct) => {
      const answer = correct();
      return answer.status === 404 ? { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":500,"message":"no such row"}' } : answer;
    }, { contract });
    try {
      const run = await verify(['--base-url', careless.url, '--token', TEST_TOKEN, '--contract', file]);
      expect(failures(run), run.stdout + run.stderr).toEqual({ 'a request to read a plant that is not stored': ['status: expected 404 but was 500'] });
      expect(run.code).toBe(1);
    } finally {
      await careless.close();
    }
  });

  it('exits 1 naming the list of an implementation that wraps its array in an object', async () => {
    const wrapping = await startFaulty((request, correct) => {
      const answer = correct();
      return request.method === 'GET' && answer.status === 200 && answer.body.startsWith('[') ? { ...answer, body: `{"items":${answer.body}}` } : answer;
    }, { contract });
    try {
      const run = await verify(['--base-url', wrapping.url, '--token', TEST_TOKEN, '--contract', file]);
      expect(Object.keys(failures(run)), run.stdout + run.stderr).toEqual(['a request to list the plants']);
      expect(run.code).toBe(1);
    } finally {
      await wrapping.close();
    }
  });

  it('holds against the reference serving a contract with other names (collection, key, text property)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-contract-'));
    const renamed = join(dir, 'orchard.yaml');
    writeFileSync(renamed, stringify(rename(parse(readFileSync(file, 'utf8')))));
    const orchard = await startReference({ contract: loadContract(renamed) });
    try {
      const run = await verify(['--base-url', orchard.url, '--token', TEST_TOKEN, '--contract', renamed]);
      expect(summary(run), run.stdout + run.stderr).toBe(`plant-store verify: all 10 interactions hold against ${orchard.url}\n`);
      // Pact's own report: the interactions were made from the renamed contract.
      expect(run.stdout).toContain('a request with a serial beyond int64');
      expect(run.code).toBe(0);
    } finally {
      await orchard.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 1 before any request when the pacts ask for what the given contract does not have", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
    try {
      const pact = await recordPacts(dir, contract);
      const run = await verify(['--base-url', reference.url, '--token', TEST_TOKEN, '--pact', pact, '--contract', 'openapi.yaml']);
      expect(run.stdout).toMatch(/^The pacts ask for what OpenAPI Plant Store 1\.0\.0 .* does not allow:$/m);
      expect(run.stdout).toContain(' - a request to read a stored plant: [operation-declared] GET /plants/3 is not an operation of ');
      expect(run.stdout).not.toContain('plant-store verify:');
      expect(run.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('plant-store verify exits 2', () => {
  it.each<[string, string[], Record<string, string>, RegExp]>([
    ['without --base-url', [], {}, /required option '--base-url <url>' not specified/],
    ['with a base URL that is not http(s)', ['--base-url', 'ftp://127.0.0.1/'], {}, /expected an absolute http:\/\/ or https:\/\/ URL/],
    ['with a malformed token', ['--base-url', 'http://127.0.0.1:1', '--token', 'a b'], {}, /RFC 6750 b64token/],
    ['with a pact file that does not exist', ['--base-url', 'http://127.0.0.1:1', '--pact', 'no-such-pact.json'], {}, /--pact no-such-pact.json: no such file or directory/],
    ['when asked to publish without a broker', ['--base-url', 'http://127.0.0.1:1', '--publish'], {}, /publishing verification results needs a broker/],
    ['with a broker but no broker credentials', ['--base-url', 'http://127.0.0.1:1'], { PACT_BROKER_BASE_URL: 'http://127.0.0.1:1' }, /set PACT_BROKER_TOKEN/],
  ])('%s', async (_, args, extraEnv, message) => {
    const run = await verify(args, extraEnv);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
  });

  it('when no pact can be loaded: a broker that does not answer', async () => {
    const gone = await startReference();
    await gone.close();
    const run = await verify(['--base-url', reference.url, '--token', TEST_TOKEN], { PACT_BROKER_BASE_URL: gone.url, PACT_BROKER_TOKEN: 'broker-token' });
    expect(run.stderr).toMatch(/^plant-store: no interaction was verified: Failed to load pact; error: No pacts found for provider 'plant-store' .* Failed to access pact broker/m);
    expect(run.code).toBe(2);
  });

  it('with a contract the consumer contract cannot be made from (no request example to send)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-contract-'));
    try {
      const document = parse(readFileSync('openapi.yaml', 'utf8')) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { examples?: unknown }> } }>> };
      for (const item of Object.values(document.paths)) for (const operation of Object.values(item)) for (const media of Object.values(operation.requestBody?.content ?? {})) delete media.examples;
      const file = join(dir, 'no-examples.yaml');
      writeFileSync(file, stringify(document));
      const run = await verify(['--base-url', reference.url, '--token', TEST_TOKEN, '--contract', file]);
      expect(run.stderr).toMatch(/--contract: addPlant of .*no-examples\.yaml shows no request example for the consumer to send; give the pacts with --pact/);
      expect(run.code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when nothing answers at the base URL', async () => {
    const gone = await startReference();
    await gone.close();
    const run = await verify(['--base-url', gone.url, '--token', TEST_TOKEN]);
    expect(run.stderr).toBe(`plant-store: cannot reach ${gone.url}: ECONNREFUSED; is it running?\n`);
    expect(run.code).toBe(2);
  });
});
