/**
 * A page on another origin calls the kit's servers with `fetch`, in headless Chromium, as a
 * frontend does: the mock (`plant-store mock`) and the reference under `plant-store serve --cors`.
 * Each grants the preflight (a POST with Authorization and a JSON body is not a "simple" request),
 * and the script reads a 200, a 400 and a 401 with its `WWW-Authenticate`, and the mock's answer to
 * `Prefer: delay=300` arrives late. Without `--cors` the reference is what issue 13 found: every
 * call a "Failed to fetch".
 *
 * The servers are the built commands (`npm run test:browser` builds first); the page is served by
 * a small static server of its own on another port, so the browser applies the CORS protocol.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type Run } from '../support/cli.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const TOKEN = 'browser-token';

/**
 * The page's script: `call(base, init)` fetches `base + '/plants'` and gives back what a script can
 * see - the status, the body, WWW-Authenticate, the time it took - or the error fetch threw.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>a frontend on another origin</title>
<script>
  async function call(base, init) {
    const started = performance.now();
    try {
      const response = await fetch(base + '/plants', init);
      return {
        status: response.status,
        body: await response.text(),
        challenge: response.headers.get('www-authenticate'),
        ms: performance.now() - started,
      };
    } catch (error) {
      return { error: String(error), ms: performance.now() - started };
    }
  }
</script>
<p>Plant Store frontend</p>`;

interface Seen {
  readonly status?: number;
  readonly body?: string;
  readonly challenge?: string | null;
  readonly error?: string;
  readonly ms: number;
}

/** The requests a frontend sends: a valid NewPlant, an invalid one, one without credentials. */
const json = { 'content-type': 'application/json' };
const CALLS = {
  ok: { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: '{"name":"Fern","id":9223372036854775807,"tag":"green"}' },
  invalid: { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: '{"name":"Fern"}' },
  unauthorized: { method: 'POST', headers: json, body: '{"name":"Fern","id":1}' },
} as const;

/** Starts a built command and waits for the URL it prints. */
async function started(args: readonly string[]): Promise<Run & { readonly url: string }> {
  const running = run(args);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(running.stdout())?.[1];
    if (url !== undefined) return { ...running, url };
    if (running.child.exitCode !== null || Date.now() > deadline) throw new Error(`${args.join(' ')} did not start: ${running.stdout()}${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let browser: RunningBrowser;
let page: Server;
let pageUrl: string;
const servers: Record<'mock' | 'reference' | 'closed', Run & { readonly url: string }> = {} as never;

beforeAll(async () => {
  page = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  const [mock, reference, closed, running] = await Promise.all([
    started(['mock', '--port', '0']),
    started(['serve', '--port', '0', '--token', TOKEN, '--cors']),
    started(['serve', '--port', '0', '--token', TOKEN]),
    launchChromium(),
  ]);
  Object.assign(servers, { mock, reference, closed });
  browser = running;
});

afterAll(async () => {
  await browser.close();
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  await Promise.all(Object.values(servers).map((server) => server.exit));
  await new Promise<void>((resolve) => {
    page.close(() => {
      resolve();
    });
  });
});

/** The page, opened fresh, calls `base` with each request; what its script saw, by name. */
async function fromThePage(base: string, calls: Readonly<Record<string, object>>): Promise<Record<string, Seen>> {
  const tab = await browser.browser.newPage();
  try {
    await tab.goto(pageUrl);
    const seen: Record<string, Seen> = {};
    for (const [name, init] of Object.entries(calls)) seen[name] = await tab.evaluate<Seen>(`call(${JSON.stringify(base)}, ${JSON.stringify(init)})`);
    return seen;
  } finally {
    await tab.close();
  }
}

describe.each(['mock', 'reference'] as const)('a page on another origin calls the %s', (name) => {
  it('the preflight is granted (204), and the script reads a 200, a 400 and a 401 with its WWW-Authenticate', async () => {
    const server = servers[name];
    expect(new URL(server.url).origin).not.toBe(new URL(pageUrl).origin);
    const seen = await fromThePage(server.url, CALLS);

    expect(seen.ok?.error).toBeUndefined();
    expect(seen.ok?.status).toBe(200);
    const plant = JSON.parse(seen.ok?.body ?? '') as Record<string, unknown>;
    expect(typeof plant.name).toBe('string');
    // The reference gives the plant back as stored: the int64 id digit for digit in the text the script read.
    if (name === 'reference') expect(seen.ok?.body).toBe('{"name":"Fern","tag":"green","id":9223372036854775807}');

    expect(seen.invalid?.status).toBe(400);
    expect(JSON.parse(seen.invalid?.body ?? '')).toEqual({ error: 400, message: 'id: is required' });

    expect(seen.unauthorized?.status).toBe(401);
    expect(seen.unauthorized?.challenge).toBe('Bearer realm="plant-store"');
    expect(JSON.parse(seen.unauthorized?.body ?? '')).toMatchObject({ error: 401 });

    // The browser asked first: the server's request log has the preflights, granted with 204.
    await expect.poll(() => server.stdout()).toMatch(/ OPTIONS \/plants 204 /);
  });
});

describe('the reference without --cors', () => {
  it('is what issue 13 found: every call from the page fails to fetch, the preflight refused (405)', async () => {
    const seen = await fromThePage(servers.closed.url, CALLS);
    expect(Object.values(seen).map((s) => s.error)).toEqual(Array(3).fill('TypeError: Failed to fetch'));
    await expect.poll(() => servers.closed.stdout()).toMatch(/ OPTIONS \/plants 405 /);
  });
});

describe('a delayed answer', () => {
  // Issue 13, items 2 and 5: the mock's per-request `Prefer: delay=<ms>`, from a page. Prefer is
  // not a CORS-safelisted request header, so the browser asks first: the preflight must allow it.
  it('arrives late when the request asks for it with Prefer: delay=300, and one without sooner', async () => {
    const mock = servers.mock;
    const late = { ...CALLS.ok, headers: { ...CALLS.ok.headers, prefer: 'delay=300' } };
    const seen = await fromThePage(mock.url, { late, prompt: CALLS.ok });
    expect(seen.late?.error).toBeUndefined();
    expect(seen.late?.status).toBe(200);
    expect(seen.late?.ms).toBeGreaterThanOrEqual(300);
    expect(seen.prompt?.error).toBeUndefined();
    expect(seen.prompt?.status).toBe(200);
    expect(seen.prompt?.ms).toBeLessThan(seen.late?.ms ?? 0);

    // The mock's journal says why: the preflight allowed Prefer, and the answer was held back 300 ms.
    const journal = (await (await fetch(`${mock.url}/__plant-store/requests`)).json()) as { requests: { verdict: { outcome: string }; request: { method: string; headers: Record<string, string> }; answer: { headers: Record<string, string>; delayMs?: number } }[] };
    const preflights = journal.requests.filter((entry) => entry.verdict.outcome === 'preflight' && /\bprefer\b/i.test(entry.request.headers['access-control-request-headers'] ?? ''));
    expect(preflights.length).toBeGreaterThan(0);
    expect(preflights[0]?.answer.headers['access-control-allow-headers']).toMatch(/\bprefer\b/i);
    const held = journal.requests.filter((entry) => entry.request.method === 'POST' && entry.request.headers.prefer === 'delay=300');
    expect(held.map((entry) => entry.answer.delayMs)).toEqual([300]);
  });
});
