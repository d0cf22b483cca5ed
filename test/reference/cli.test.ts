/**
 * `plant-store serve` as a user runs it: the built command (`node bin/plant-store.js`, what
 * `npx plant-store` runs) in a child process on port 0, read from what it prints. Exit codes are
 * docs/DESIGN.md's: 0 done, 2 bad usage or a port that cannot be had.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../support/expect-answer.js';
import { run, type Run } from '../support/cli.js';
import { connectOutcome, occupiedPort, RawConnection, rawRequest } from '../support/http.js';

interface Serving extends Run {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly banner: string;
}

/** Starts `serve` and waits for the URL and the token it prints. */
async function serve(args: readonly string[], env: Record<string, string> = {}): Promise<Serving> {
  const started = run(['serve', '--port', '0', ...args], env);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const out = started.stdout();
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const token = /token: (\S+)/.exec(out)?.[1];
    if (url !== undefined && token !== undefined && out.includes('try:')) {
      return { ...started, url, port: Number(new URL(url).port), token, banner: out.slice(0, out.indexOf('\n', out.indexOf('try:')) + 1) };
    }
    if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${out}${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function post(url: string, authorization: string | undefined, body = '{"name":"a","id":1}', path = '/plants'): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) }, body });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The request log: every line after the banner. */
const logLines = (s: Serving): string[] => s.stdout().slice(s.banner.length).split('\n').filter(Boolean);

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});

// Each case is a process of its own: run them side by side.
describe.concurrent('plant-store --help and bad usage', () => {
  it('--help exits 0 and lists serve; serve --help documents its options', async ({ expect }) => {
    const [top, sub] = [run(['--help']), run(['serve', '--help'])];
    expect(await top.exit).toBe(0);
    expect(top.stdout()).toMatch(/serve/);
    expect(await sub.exit).toBe(0);
    for (const option of ['--port', '--host', '--token', 'PLANT_STORE_TOKENS', '--max-body-bytes', '--max-depth', '--max-entries', 'generated']) expect(sub.stdout()).toContain(option);
  });

  it.for([
    [['serve', '--port', 'abc'], {}, /--port/],
    [['serve', '--token', 'not a token'], {}, /--token/],
    [['serve', '--bogus'], {}, /unknown option/],
    [['nope'], {}, /unknown command/],
    [['serve', '--port', '0'], { PLANT_STORE_TOKENS: 'good,b@d' }, /PLANT_STORE_TOKENS/],
  ] as const)('%j %j exits 2 with a message', async ([args, env, message], { expect }) => {
    const result = run(args, env);
    expect(await result.exit).toBe(2);
    expect(result.stderr()).toMatch(message);
  });

  it('a port already taken exits 2 saying so', async ({ expect }) => {
    const { port, close } = await occupiedPort();
    try {
      const result = run(['serve', '--port', String(port), '--token', 'secret']);
      expect(await result.exit).toBe(2);
      expect(result.stderr()).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr()).not.toMatch(/\n\s+at /); // a message, not a stack trace
    } finally {
      close();
    }
  });
});

describe('serve --port 0 --token secret', () => {
  let s: Serving;
  beforeAll(async () => {
    s = await serve(['--token', 'secret']);
  });
  afterAll(() => {
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });

  it('prints the URL with the port it really got', () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.port).toBeGreaterThan(0);
    expect(s.token).toBe('secret');
    expect(s.banner).not.toContain('generated');
  });

  it('accepts that token and no other', async () => {
    expectAnswer(await post(s.url, 'Bearer secret', '{"name":"a","id":9223372036854775807}'), { status: 200, plant: { name: 'a', id: '9223372036854775807' } });
    expectAnswer(await post(s.url, 'Bearer secreT'), { status: 401, code: 'unauthorized', message: 'not accepted' });
    expectAnswer(await post(s.url, undefined), { status: 401, code: 'unauthorized', message: 'missing' });
  });

  it('SIGTERM lets a request in flight finish, then exits 0; one log line per request, never the token', async () => {
    await post(s.url, 'Bearer secret', '{"name":"a","id":2}', '/plants?access_token=secret');
    await post(s.url, 'Bearer secret', '{}', '/nowhere');
    const inFlight = await RawConnection.open(s.port);
    // The 100 Continue says the server has admitted the head: the request is in flight.
    inFlight.send(rawRequest('POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer secret\nContent-Type: application/json\nContent-Length: 20\nExpect: 100-continue'));
    expect((await inFlight.next()).status).toBe(100);
    s.child.kill('SIGTERM');
    // Shutdown has begun once new connections are refused; the process still waits for the request in flight.
    await until(async () => (await connectOutcome(s.port)) === 'ECONNREFUSED');
    expect(s.child.exitCode).toBeNull();
    inFlight.send('{"name":"a","id":31}');
    expectAnswer(await inFlight.next(), { status: 200, plant: { name: 'a', id: '31' } });
    expect(await s.exit).toBe(0);
    const lines = logLines(s);
    // 3 requests in the test above, 2 here, the one in flight: the log is written in batches, so it is read after the exit.
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+Z POST \/\S* \d{3} \d+\.\d\dms$/);
    expect(lines.map((line) => line.split(' ')[3])).toEqual(['200', '401', '401', '200', '404', '200']);
    // Neither the header's token nor one in a query string (RFC 6750 section 2.3) reaches the log.
    expect(lines.join('\n')).not.toMatch(/secret|access_token|Bearer/i);
  });
});

describe('the request log', () => {
  it('is written off the request path, yet the lines of a burst answered just before SIGTERM are all on stdout', async () => {
    const s = await serve(['--token', 'secret']);
    try {
      const n = 300;
      const statuses = await Promise.all(Array.from({ length: n }, async (_, i) => (await post(s.url, 'Bearer secret', `{"name":"a","id":${i}}`)).status));
      expect(statuses.every((status) => status === 200)).toBe(true);
      // At once: the last lines may still be gathered in the process (written every 50 ms or 16 KiB;
      // test/http/request-log.test.ts shows close() writes them).
      s.child.kill('SIGTERM');
      expect(await s.exit).toBe(0);
      const lines = logLines(s);
      expect(lines).toHaveLength(n);
      for (const line of lines) expect(line).toMatch(/^\S+Z POST \/plants 200 \d+\.\d\dms$/);
    } finally {
      s.child.kill('SIGKILL');
    }
  });
});

describe('where the tokens come from', () => {
  it('PLANT_STORE_TOKENS and repeated --token are all accepted', async () => {
    const s = await serve(['--token', 'one', '--token', 'two', '--quiet'], { PLANT_STORE_TOKENS: 'three, four' });
    try {
      const statuses = await Promise.all(['one', 'two', 'three', 'four', 'five'].map(async (token) => (await post(s.url, `Bearer ${token}`)).status));
      expect(statuses).toEqual([200, 200, 200, 200, 401]);
      s.child.kill('SIGINT');
      expect(await s.exit).toBe(0);
      expect(logLines(s)).toEqual([]); // --quiet
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('with none configured, a random token is generated, printed and required', async () => {
    const s = await serve([]);
    try {
      expect(s.banner).toContain('generated');
      expect(s.token).toMatch(/^[A-Za-z0-9\-._~+/]{16,}=*$/);
      expect((await post(s.url, `Bearer ${s.token}`)).status).toBe(200);
      expect((await post(s.url, undefined)).status).toBe(401);
      expect((await post(s.url, `Bearer ${s.token.slice(1)}`)).status).toBe(401);
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exit).toBe(0);
    }
  });
});

describe('serve --cors', () => {
  const preflight = { method: 'OPTIONS', headers: { origin: 'http://page.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } };

  it('grants a page on another origin its preflight and lets it read every answer, WWW-Authenticate included; without --cors a preflight is a 405', async () => {
    const [open, closed] = await Promise.all([serve(['--token', 'secret', '--cors', '--quiet']), serve(['--token', 'secret', '--quiet'])]);
    try {
      expect(open.banner).toContain('CORS on');
      const granted = await fetch(`${open.url}/plants`, preflight);
      expect(granted.status).toBe(204);
      expect(Object.fromEntries(granted.headers)).toMatchObject({ 'access-control-allow-origin': 'http://page.test', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'authorization, content-type' });
      const refused = await fetch(`${open.url}/plants`, { method: 'POST', headers: { origin: 'http://page.test', 'content-type': 'application/json' }, body: '{"name":"a","id":1}' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('http://page.test');
      expect(refused.headers.get('access-control-expose-headers')).toContain('www-authenticate');
      expect(closed.banner).not.toContain('CORS');
      expect((await fetch(`${closed.url}/plants`, preflight)).status).toBe(405);
    } finally {
      open.child.kill('SIGKILL');
      closed.child.kill('SIGKILL');
    }
  });
});

describe('the journal and the admin path', () => {
  const journalOf = async (s: Serving): Promise<Response> => fetch(`${s.url}/__plant-store/requests`);

  it('--journal --journal-size 2: the last two requests, with their verdicts, credentials masked; the banner says where', async () => {
    const s = await serve(['--token', 'secret', '--journal', '--journal-size', '2', '--quiet']);
    try {
      expect(s.stdout()).toContain(`journal: ${s.url}/__plant-store/ (live page; the last 2 requests as JSON at ${s.url}/__plant-store/requests)`);
      await post(s.url, 'Bearer secret', '{"name":"a","id":1}');
      await post(s.url, 'Bearer secret', '{"name":"b","id":2}');
      await post(s.url, 'secret', '{"name":"c","id":3}');
      const text = await (await journalOf(s)).text();
      expect(text).not.toContain('secret');
      const journal = JSON.parse(text) as { capacity: number; dropped: number; requests: { request: { headers: Record<string, string> }; verdict: unknown }[] };
      expect([journal.capacity, journal.dropped]).toEqual([2, 1]);
      expect(journal.requests.map(({ request, verdict }) => [request.headers.authorization, verdict])).toEqual([
        ['Bearer ***', { outcome: 'accepted' }],
        ['***', { outcome: 'refused', rule: 'credentials', status: 401, code: 'unauthorized', message: 'authorization: the *** scheme is not accepted; use Bearer' }],
      ]);
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('without --journal, the admin path says how to keep one; with --no-admin, it is the contract’s 404', async () => {
    const [plain, noAdmin] = await Promise.all([serve(['--quiet']), serve(['--journal', '--no-admin', '--quiet'])]);
    try {
      expect(plain.stdout()).not.toContain('journal:');
      expect(noAdmin.stdout()).not.toContain('journal:');
      expect(await (await journalOf(plain)).json()).toEqual({ error: 404, message: 'journal: no request journal is kept; start the reference with --journal (startReference({ journal: true }))' });
      expect(await (await journalOf(noAdmin)).json()).toEqual({ error: 404, message: expect.stringMatching(/^path: no operation at \/__plant-store\/requests/) as string });
    } finally {
      plain.child.kill('SIGKILL');
      noAdmin.child.kill('SIGKILL');
    }
  });
});
