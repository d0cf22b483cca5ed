/**
 * The HTML report as a person sees it: `plant-store conform --html` run against a faulty
 * implementation, the page opened in headless Chromium with the network blocked. The verdict, a
 * failure's curl command and both plots must render; the target's `<script>` must stay text.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../conformance/common.js';
import { startFaulty, TEST_TOKEN, type RunningFaulty } from '../support/servers.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

/** A framework's HTML error page for every 400, with a script and a stack trace in it: hostile, and long, text for the report. */
const ERROR_PAGE = `<!doctype html><title>400</title><script>document.title = "pwned"; document.body.dataset.pwned = "yes"</script><h1>Bad Request</h1>\n<pre>${Array.from({ length: 20 }, (_, i) => `    at handler${i} (/srv/app/routes.js:${i + 10}:7)`).join('\n')}</pre>`;

let browser: RunningBrowser;
let target: RunningFaulty;
let run: CliRun;
let dir: string;
/** Requests the page tried to make (every one refused). */
const requested: string[] = [];
let page: Page;

/** A number cell or header as laid out: the lines its text takes, its height and the line height. */
interface NumberCell {
  readonly text: string;
  readonly lines: number;
  readonly height: number;
  readonly lineHeight: number;
}

beforeAll(async () => {
  target = await startFaulty((_request, correct) => {
    const answer = correct();
    return answer.status === 400 ? { status: 400, headers: { 'content-type': 'text/html; charset=utf-8' }, body: ERROR_PAGE } : answer;
  });
  run = await runCli(['conform', '--base-url', target.url, '--token', TEST_TOKEN, '--seed', '3', '--runs', '200', '--capacity', '500'], { files: true });
  dir = await mkdtemp(join(tmpdir(), 'plant-store-html-'));
  const file = join(dir, 'report.html');
  await writeFile(file, run.html ?? '');
  browser = await launchChromium();
  const context = await browser.browser.newContext({ offline: true, viewport: { width: 1200, height: 900 } });
  // Everything but the page itself is refused, and noted.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === pathToFileURL(file).href) return route.continue();
    requested.push(url);
    return route.abort();
  });
  page = await context.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe('conform --html in Chromium', () => {
  it('was written by a run that broke the contract', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.html).toBeDefined();
  });

  it('shows the verdict and the seed, and loaded nothing', async () => {
    expect(await page.getByRole('status').first().innerText()).toMatch(/^The target broke the contract: response-shape\b/);
    expect(await page.locator('.facts').innerText()).toMatch(/Seed\s+3/);
    expect(requested).toEqual([]);
  });

  it("shows each failure's curl command exactly as the command line printed it", async () => {
    const printed = [...run.stdout.matchAll(/^ {4}(curl .*|printf .*)$/gm)].map((m) => m[1]);
    const shown = await page.locator('.finding.failure pre.command').allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(printed);
  });

  it("shows the target's script as text and never runs it", async () => {
    expect(await page.title()).toMatch(/^Broken: plant-store conform of/);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('body').getAttribute('data-pwned')).toBeNull();
    const response = page.locator('#failure-response-shape details pre, #failure-response-shape .exchange pre').last();
    expect(await response.textContent()).toContain('<script>document.title = "pwned";');
  });

  it('renders both plots, with their bars and points', async () => {
    for (const id of ['histogram', 'latency']) {
      const box = await page.locator(`svg#${id}`).boundingBox();
      expect(box?.width, id).toBeGreaterThan(300);
      expect(box?.height, id).toBeGreaterThan(100);
    }
    const bars = page.locator('svg#histogram rect.bar');
    expect(await bars.count()).toBeGreaterThan(3);
    expect((await bars.first().boundingBox())?.height).toBeGreaterThan(0);
    expect(await page.locator('svg#latency circle.point.median').count()).toBeGreaterThan(3);
  });

  it('unfolds folded bodies on paper', async () => {
    const folded = page.locator('details > pre').first();
    expect(await folded.isVisible()).toBe(false);
    await page.emulateMedia({ media: 'print' });
    expect(await folded.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
  });

  // Numbers are read whole: "2484" broken into "24" and "84", or the header "requests" into
  // "re / qu / es / ts", is what a narrow window did to the checks table while the descriptions
  // beside them had room to wrap.
  it.each([360, 768])('keeps every number cell and its header on one line at a %i px wide viewport', async (width) => {
    const narrow = await page.context().newPage();
    try {
      await narrow.setViewportSize({ width, height: 900 });
      await narrow.goto(page.url(), { waitUntil: 'load' });
      // Each cell's text as the browser laid it out: the lines its rectangles start on, and their height.
      const cells = await narrow.evaluate<NumberCell[]>(`Array.from(document.querySelectorAll('td.n, th.n'), (cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        return { text: cell.textContent, lines: tops.size, height: range.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(cell).lineHeight) };
      })`);
      expect(cells.length).toBeGreaterThan(20);
      expect(cells.filter((cell) => cell.lines !== 1 || cell.height > cell.lineHeight)).toEqual([]);
      await narrow.screenshot({ fullPage: true, path: join(process.env.PLANT_STORE_SCREENSHOTS ?? dir, `report-${width}.png`) });
    } finally {
      await narrow.close();
    }
  });

  it('takes a full-page screenshot', async () => {
    const png = await page.screenshot({ fullPage: true, path: join(dir, 'report.png') });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The PNG header: width and height, big-endian, at bytes 16 and 20.
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBeGreaterThan(2000);
    expect(png.length).toBeGreaterThan(100_000);
  });
});
