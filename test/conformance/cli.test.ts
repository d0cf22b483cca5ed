/** `plant-store conform` as a user runs it: output, report files and exit codes 0, 1 and 2. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_NAMES, type Report } from '../../fuzz/index.js';
import { isCi } from '../../cli/run/conform.js';
import { exactText, render } from '../../fuzz/reports/html.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';
import { runCli } from './common.js';
import { assertBuildIsFresh } from './engine-pool.js';

const closers: (() => Promise<void>)[] = [];
let reference = '';

beforeAll(async () => {
  assertBuildIsFresh();
  const server = await startReference();
  closers.push(() => server.close());
  reference = server.url;
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

describe('plant-store conform', () => {
  it('exits 0 on the reference implementation after a default run, with the seed, a line per check and both report files', { timeout: 60_000 }, async () => {
    const run = await runCli(['conform', '--base-url', reference, '--token', TEST_TOKEN, '--seed', '11'], { files: true });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('profile reference, 1000 runs, seed 11');
    expect(run.stdout).toMatch(/^echo\s+\d+\s+0\s+0\s+ok$/m);
    expect(run.stdout).toContain('The target kept the contract (seed 11');
    const report = JSON.parse(run.json ?? '{}') as Report;
    expect(report).toMatchObject({ passed: true, seed: 11, runs: 1000, failures: [] });
    // The checks' suite, then a suite of a case per operation (issue 29): the total counts both.
    expect(run.junit).toContain(`<testsuites name="plant-store conform" tests="${CHECK_NAMES.length + (report.operations?.length ?? 0)}" failures="0" errors="0"`);
    expect(run.junit).toContain(`<testsuite name="operations" tests="${report.operations?.length ?? 0}" failures="0" errors="0"`);
    expect(run.html).toContain('<strong>The target kept the contract.</strong>');
    // No progress bar under CI=true (the runner sets it for children).
    expect(run.stderr).toBe('');
  });

  it('exits 1 on an implementation that breaks the contract, printing the minimal request as curl without the token', { timeout: 60_000 }, async () => {
    const faulty = FAULTY_IMPLEMENTATIONS.find((f) => f.name === 'accepts-missing-token');
    const server = await faulty?.start();
    if (!server) throw new Error('accepts-missing-token is missing from the collection');
    closers.push(() => server.close());
    const run = await runCli(['conform', '--base-url', server.url, '--token', TEST_TOKEN, '--seed', '5', '--runs', '300'], { files: true });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAILED requires-auth: bad-auth request \(no Authorization header\): accepted with 200/m);
    // The coverage phase's request without credentials: a plain NewPlant, no Authorization header.
    expect(run.stdout).toMatch(/curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/plants' -H 'accept: application\/json' -H 'content-type: application\/json' --data-binary '\{"name":"[^"]*",("tag":"[^"]*",)?"id":\d+\}'/);
    expect(run.stdout).toContain('replay with: plant-store conform --base-url');
    expect(run.stdout).not.toContain(TEST_TOKEN);
    const report = JSON.parse(run.json ?? '{}') as Report;
    expect(report.failures.map((f) => f.check)).toEqual(['requires-auth']);
    expect(run.junit).toContain('<failure message="bad-auth request (no Authorization header): accepted with 200');
    // The page: the verdict, the failure with the same curl command, the plots; and no token.
    const page = run.html ?? '';
    expect(page).toContain('<strong>The target broke the contract</strong>: requires-auth.');
    expect(page).toContain('<article class="finding failure" id="failure-requires-auth"');
    const curl = /^ {4}(curl .*)$/m.exec(run.stdout)?.[1] ?? 'no curl printed';
    expect(page).toContain(`<pre class="command"><code>${render(exactText(curl))}</code></pre>`);
    expect(page).toContain('<svg class="plot" id="histogram"');
    expect(page).toContain('<svg class="plot" id="latency"');
    expect(page).not.toContain(TEST_TOKEN);
  });

  it('passes an implementation with warnings only (exit 0), and fails it under --strict (exit 1)', { timeout: 60_000 }, async () => {
    // Decodes bodies leniently, as many frameworks do: bytes that are not UTF-8 inside a string
    // become U+FFFD and the plant is stored - which RFC 8259, section 9 allows a parser to do.
    const server = await startFaulty((request, _correct, app) => app.request({ ...request, body: Buffer.from(request.body ?? '').toString('utf8') }));
    closers.push(() => server.close());
    const args = ['conform', '--base-url', server.url, '--token', TEST_TOKEN, '--seed', '8', '--runs', '200'];
    const lenient = await runCli(args, { files: true });
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(0);
    expect(lenient.stdout).toMatch(/^WARNING rejects-invalid: malformed-json request \(.* inside a string value\) got 200/m);
    expect(lenient.stdout).toMatch(/The target kept the contract .*1 warning \(rejects-invalid\)/);
    expect(lenient.junit).toContain('failures="0"');
    const strict = await runCli([...args, '--strict'], { files: true });
    expect(strict.code, strict.stdout + strict.stderr).toBe(1);
    expect(strict.stdout).toContain('failing the run under --strict');
    expect(strict.junit).toContain('type="rejects-invalid (warning, --strict)"');
  });

  it('takes the token from PLANT_STORE_TOKENS', { timeout: 30_000 }, async () => {
    const run = await runCli(['conform', '--base-url', reference, '--runs', '100', '--seed', '3'], { env: { PLANT_STORE_TOKENS: `${TEST_TOKEN},other` } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('exits 2 when the target cannot be reached', async () => {
    const server = await startReference();
    await server.close();
    const run = await runCli(['conform', '--base-url', server.url, '--token', TEST_TOKEN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; is it running\?/);
  });

  it.each([
    ['no --base-url', ['conform', '--token', TEST_TOKEN], /required option '--base-url <url>'/],
    ['a base URL that is not http', ['conform', '--base-url', 'ftp://127.0.0.1/', '--token', TEST_TOKEN], /expected an absolute http:\/\/ or https:\/\/ URL, not ftp:/],
    ['an unknown profile', ['conform', '--base-url', 'http://127.0.0.1:1', '--token', TEST_TOKEN, '--profile', 'prism'], /Allowed choices are reference, mock/],
    ['zero runs', ['conform', '--base-url', 'http://127.0.0.1:1', '--token', TEST_TOKEN, '--runs', '0'], /expected a whole number from 1/],
    ['a token that is not a b64token', ['conform', '--base-url', 'http://127.0.0.1:1', '--token', 'a b'], /b64token/],
    ['no token for the reference profile', ['conform', '--base-url', 'http://127.0.0.1:1'], /needs a bearer token/],
  ])('exits 2 on bad usage: %s', async (_what, args, message) => {
    const run = await runCli(args, { env: { PLANT_STORE_TOKENS: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('documents itself with --help', async () => {
    const run = await runCli(['conform', '--help']);
    expect(run.code).toBe(0);
    for (const option of ['--base-url', '--token', '--profile', '--runs', '--seed', '--json', '--junit', '--html']) expect(run.stdout).toContain(option);
    expect(run.stdout).toContain('Exit codes: 0');
  });
});

describe('isCi', () => {
  it('is true for CI=true and other non-empty values, false for none, empty, false and 0', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: '' })).toBe(false);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({ CI: '0' })).toBe(false);
  });
});
