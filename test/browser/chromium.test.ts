/** The browser tests' own footing: Debian's Chromium starts headless and renders a page it was given, offline. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, type RunningBrowser } from './chromium.js';

let running: RunningBrowser;
beforeAll(async () => {
  running = await launchChromium();
});
afterAll(async () => {
  await running.close();
});

it('renders a page and takes a screenshot of it', async () => {
  const page = await running.browser.newPage();
  await page.setContent('<!doctype html><title>t</title><p id="p" style="color:rgb(200,0,0)">Plant Store Kit</p>');
  expect(await page.locator('#p').innerText()).toBe('Plant Store Kit');
  // The page's own script (the kit's tests have no DOM types): the style the browser computed.
  expect(await page.evaluate('getComputedStyle(document.getElementById("p")).color')).toBe('rgb(200, 0, 0)');
  const png = await page.screenshot();
  // A PNG signature, and more than a blank page's few hundred bytes.
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(1000);
});
