/**
 * plant-store-kit/msw in headless Chromium: the page of examples/msw-browser, bundled by Vite
 * from the built kit (`npm run test:browser` builds first), with MSW's worker script generated
 * now by `msw init`. The page's fetches to /api are answered by the reference inside the
 * browser: an int64 id digit for digit, the 400 Error, the 401 with its challenge, a replaced
 * plant, the journal asserted in the page. Nothing leaves the page's origin, and the static
 * server behind it never sees /api.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { callStore, openExamplePage, type ExamplePage, type PageGlobal } from './msw-page.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
let opened: ExamplePage | undefined;

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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plant-store-msw-'));
  opened = await openExamplePage(await bundlePage());
});

afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

function page(): ExamplePage {
  if (!opened) throw new Error('the page did not open');
  return opened;
}

test('the page adds a plant with the largest int64 id and reads it back digit for digit', async () => {
  await page().page.click('button');
  await page().page.waitForFunction("document.querySelector('#answer').textContent !== ''");
  expect(await page().page.textContent('#answer')).toBe('200 {"name":"Monstera","id":9223372036854775807}');
});

test('the 400 Error for a plant without an id, the 401 and its challenge without a token', async () => {
  expect(await callStore(page().page, '{"name":"Fern"}')).toEqual({ status: 400, text: '{"error":400,"message":"id: is required"}', challenge: null });
  const unauthorized = await callStore(page().page, '{"name":"Fern","id":2}', null);
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.challenge).toBe('Bearer realm="plant-store"');
});

test('the same id again replaces the plant, and the journal in the page says what was sent', async () => {
  await callStore(page().page, '{"name":"Monstera","id":7}');
  expect((await callStore(page().page, '{"name":"Fern","id":7}')).text).toBe('{"name":"Fern","id":7}');
  const found = await page().page.evaluate(() => {
    const { plantStore, assertRequests } = (globalThis as unknown as PageGlobal).plantStoreKit;
    assertRequests(plantStore, { method: 'POST', path: '/plants', body: { id: 9223372036854775807n }, status: 200 });
    return { plants: plantStore.store?.size, replaced: assertRequests(plantStore, { body: { id: 7 }, status: 200 }, 2).length };
  });
  expect(found).toEqual({ plants: 2, replaced: 2 });
});

test('nothing left the page’s origin, and its server never saw the store’s requests', () => {
  expect(page().outside).toEqual([]);
  expect(page().served.filter((path) => path.startsWith('/api'))).toEqual([]);
  expect(page().served).toContain('/mockServiceWorker.js');
});
