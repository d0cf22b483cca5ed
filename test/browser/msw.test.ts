/**
 * plant-store-kit/msw in headless Chromium: the page of examples/msw-browser, bundled by Vite
 * from the built kit (`npm run test:browser` builds first), with MSW's worker script generated
 * now by `msw init`. The page's fetches to /api are answered by the reference inside the
 * browser: an int64 id digit for digit, the 400 Error, the 401 with its challenge, a replaced
 * plant, the journal asserted in the page. Nothing leaves the page's origin, and the static
 * server behind it never sees /api.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { assertRequests, PlantStoreHandlers } from '../../msw/index.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'browser-token'; // the example page's
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' };

let dir: string;
let server: Server | undefined;
let origin: string;
let running: RunningBrowser | undefined;
let page: Page;
const served: string[] = [];

/** What the example page puts on its window (examples/msw-browser/main.ts); the test's program has no DOM types. */
interface PageGlobal {
  readonly plantStoreKit: { readonly ready: Promise<unknown>; readonly plantStore: PlantStoreHandlers; readonly assertRequests: typeof assertRequests };
}
const outside: string[] = [];

/** The example page bundled for the browser, the kit taken from dist/ as the package gives it; the worker script from `msw init`. */
async function bundlePage(): Promise<string> {
  for (const built of ['dist/msw/index.js', 'dist/openapi.json']) if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run npm run build first (npm run test:browser does)`);
  const site = join(dir, 'site');
  const workerDir = join(dir, 'public');
  // msw init reads the package.json of its working directory (the kit's; --save=false leaves it alone).
  execFileSync(join(ROOT, 'node_modules/.bin/msw'), ['init', workerDir, '--save=false'], { cwd: ROOT, stdio: 'pipe' });
  await build({
    root: join(ROOT, 'examples/msw-browser'),
    configFile: false,
    logLevel: 'silent',
    publicDir: workerDir,
    resolve: {
      alias: [
        { find: /^plant-store-kit\/msw$/, replacement: join(ROOT, 'dist/msw/index.js') },
        { find: /^plant-store-kit\/openapi\.json$/, replacement: join(ROOT, 'dist/openapi.json') },
      ],
    },
    build: { outDir: site, emptyOutDir: true, minify: false },
  });
  return site;
}

function serve(site: string): Promise<Server> {
  const static_ = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    served.push(path);
    const file = normalize(join(site, path === '/' ? 'index.html' : path));
    if (!file.startsWith(site) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => {
    static_.listen(0, '127.0.0.1', () => {
      resolve(static_);
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plant-store-msw-'));
  const listening = await serve(await bundlePage());
  server = listening;
  origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  const chromium = await launchChromium();
  running = chromium;
  const context = await chromium.browser.newContext();
  // Anything but the page's own origin is recorded and refused: the store must answer in the page.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) {
      await route.continue();
      return;
    }
    outside.push(url);
    await route.abort();
  });
  page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.evaluate(() => (globalThis as unknown as PageGlobal).plantStoreKit.ready);
});

afterAll(async () => {
  await running?.close();
  await new Promise<void>((resolve) => {
    if (server) server.close(() => {
      resolve();
    });
    else resolve();
  });
  rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  readonly status: number;
  readonly text: string;
  readonly challenge: string | null;
}

/** A fetch the page makes, and what its script can read of the answer. */
function call(body: string, token: string | null = TOKEN): Promise<Seen> {
  return page.evaluate(
    async ([body, token]) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const response = await fetch('/api/plants', { method: 'POST', headers, body });
      return { status: response.status, text: await response.text(), challenge: response.headers.get('www-authenticate') };
    },
    [body, token] as const,
  );
}

test('the page adds a plant with the largest int64 id and reads it back digit for digit', async () => {
  await page.click('button');
  await page.waitForFunction("document.querySelector('#answer').textContent !== ''");
  expect(await page.textContent('#answer')).toBe('200 {"name":"Monstera","id":9223372036854775807}');
});

test('the 400 Error for a plant without an id, the 401 and its challenge without a token', async () => {
  expect(await call('{"name":"Fern"}')).toEqual({ status: 400, text: '{"error":400,"message":"id: is required"}', challenge: null });
  const unauthorized = await call('{"name":"Fern","id":2}', null);
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.challenge).toBe('Bearer realm="plant-store"');
});

test('the same id again replaces the plant, and the journal in the page says what was sent', async () => {
  await call('{"name":"Monstera","id":7}');
  expect((await call('{"name":"Fern","id":7}')).text).toBe('{"name":"Fern","id":7}');
  const found = await page.evaluate(() => {
    const { plantStore, assertRequests } = (globalThis as unknown as PageGlobal).plantStoreKit;
    assertRequests(plantStore, { method: 'POST', path: '/plants', body: { id: 9223372036854775807n }, status: 200 });
    return { plants: plantStore.store?.size, replaced: assertRequests(plantStore, { body: { id: 7 }, status: 200 }, 2).length };
  });
  expect(found).toEqual({ plants: 2, replaced: 2 });
});

test('nothing left the page’s origin, and its server never saw the store’s requests', () => {
  expect(outside).toEqual([]);
  expect(served.filter((path) => path.startsWith('/api'))).toEqual([]);
  expect(served).toContain('/mockServiceWorker.js');
});
