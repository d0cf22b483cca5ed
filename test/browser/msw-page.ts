/**
 * The MSW example page (examples/msw-browser) opened in headless Chromium from a built site:
 * served by a small static server that records every path it is asked for, in a browser context
 * that records and refuses anything beyond the page's own origin. Used by the browser test
 * (the page bundled from the checkout) and the package test (bundled in a project that installed
 * the packed kit).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import type { assertRequests, PlantStoreHandlers } from '../../msw/index.js';
import { launchChromium } from './chromium.js';

/** The example page's token (examples/msw-browser/main.ts). */
export const PAGE_TOKEN = 'browser-token';

/** What the example page puts on its window; the tests' program has no DOM types. */
export interface PageGlobal {
  readonly plantStoreKit: { readonly ready: Promise<unknown>; readonly plantStore: PlantStoreHandlers; readonly assertRequests: typeof assertRequests };
}

export interface ExamplePage {
  readonly page: Page;
  readonly origin: string;
  /** Every path the static server was asked for. */
  readonly served: readonly string[];
  /** Every URL the page asked for beyond its origin (refused). */
  readonly outside: readonly string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' };

function serve(site: string, served: string[]): Promise<Server> {
  const server = createServer((request, response) => {
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
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

/** Serves `site` (the page's build, MSW's worker script in it), opens it, and waits for its worker. */
export async function openExamplePage(site: string): Promise<ExamplePage> {
  const served: string[] = [];
  const outside: string[] = [];
  const server = await serve(site, served);
  const closeServer = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const chromium = await launchChromium().catch(async (error: unknown) => {
    await closeServer();
    throw error;
  });
  const close = async (): Promise<void> => {
    await chromium.close();
    await closeServer();
  };
  try {
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
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.evaluate(() => (globalThis as unknown as PageGlobal).plantStoreKit.ready);
    return { page, origin, served, outside, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface Seen {
  readonly status: number;
  readonly text: string;
  readonly challenge: string | null;
}

/** A fetch the page makes to its store, and what its script can read of the answer. */
export function callStore(page: Page, body: string, token: string | null = PAGE_TOKEN): Promise<Seen> {
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
