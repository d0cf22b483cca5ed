/**
 * The journal's live page (`GET /__plant-store/`) in headless Chromium: it lists the requests a
 * test sent, each with its verdict, picks up new ones without a reload, opens a row to its
 * headers and bodies, clears the journal - and shows a hostile body as text, fetches nothing but
 * the journal, and breaks no rule of its own Content-Security-Policy. The checking proxy serves the
 * same page, with its own verdicts (the findings on the upstream's answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMock, startProxy, type JournaledServer } from '../../api/index.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { TEST_TOKEN } from '../support/servers.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

let running: RunningBrowser;
let mock: JournaledServer;
beforeAll(async () => {
  [running, mock] = await Promise.all([launchChromium(), startMock()]);
});
afterAll(async () => {
  await Promise.all([running.close(), mock.close()]);
});

async function post(body: string, credentials: 'token' | 'none' = 'token'): Promise<number> {
  const response = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json', ...(credentials === 'token' ? { authorization: `Bearer ${mock.token}` } : {}) }, body });
  return response.status;
}

/** The rows the page shows, newest first: the text of each cell (the page's own script: the tests have no DOM types). */
async function rows(page: Page): Promise<string[][]> {
  return page.evaluate<string[][]>('Array.from(document.querySelectorAll("tr.entry"), (tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent))');
}

describe('the live page of the journal', () => {
  it('lists the requests sent, each with its verdict, live, and clears them', async () => {
    mock.clearRequests();
    expect(await post('{"name":"Fern","id":1}')).toBe(200);
    expect(await post('{"name":"Fern","id":2}', 'none')).toBe(401);

    const page = await running.browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));

    await page.goto(`${mock.url}/__plant-store/`);
    await page.locator('tr.entry').nth(1).waitFor();
    const [refused, accepted] = await rows(page);
    expect(refused).toEqual(['2', expect.any(String), 'POST /plants', 'refused by credentials: 401 unauthorizedauthorization: missing bearer credentials', '401', expect.stringMatching(/^\d+\.\d$/)]);
    expect(accepted?.slice(2, 5)).toEqual(['POST /plants', 'accepted', '200']);
    expect(await page.locator('tr.entry[data-id="2"]').getAttribute('data-outcome')).toBe('refused');

    // A request sent now shows up within the next polls, without a reload; a hostile body stays text.
    expect(await post('{"name":"<img src=x onerror=\\"document.title=1\\">","id":3}')).toBe(200);
    await page.locator('tr.entry[data-id="3"]').waitFor({ timeout: 5_000 });
    await page.locator('tr.entry[data-id="3"]').click();
    const details = await page.locator('tr.details').innerText();
    expect(details).toContain('{"name":"<img src=x onerror=\\"document.title=1\\">","id":3}');
    expect(details).toContain('authorization: Bearer ***');
    expect(details).not.toContain(mock.token);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.title()).toBe('Request journal · Plant Store Kit');

    await page.locator('#clear').click();
    await page.locator('tr.entry').first().waitFor({ state: 'detached', timeout: 5_000 });
    expect(mock.requests()).toEqual([]);
    expect(await page.locator('#empty').isVisible()).toBe(true);

    // Nothing but the page and its journal was fetched (no icon, no asset), so nothing else was journaled.
    expect(new Set(fetched)).toEqual(new Set(['/__plant-store/', '/__plant-store/requests']));
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the checking proxy's live page", () => {
  it("shows each exchange with the proxy's verdict: passed, or violated with each finding; the 502 the client got instead", async () => {
    const faulty = FAULTY_IMPLEMENTATIONS.find((f) => f.name === 'created-instead-of-ok');
    if (faulty === undefined) throw new Error('created-instead-of-ok is gone from test/faulty');
    const upstream = await faulty.start();
    const proxy = await startProxy({ upstream: upstream.url, errors: true });
    const page = await running.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      const send = (authorization?: string): Promise<Response> => fetch(`${proxy.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) }, body: '{"name":"Fern","id":1}' });
      expect((await send(`Bearer ${TEST_TOKEN}`)).status).toBe(502);
      expect((await send()).status).toBe(401);

      await page.goto(`${proxy.url}/__plant-store/`);
      await page.locator('tr.entry').nth(1).waitFor();
      const [passed, violated] = await rows(page);
      expect(passed?.slice(2, 5)).toEqual(['POST /plants', expect.stringMatching(/^passed \d+ checks$/), '401']);
      expect(violated?.[3]).toMatch(/^violated: status-declared, accepts-validstatus-declared: status 201 is not declared .*accepts-valid: /);
      expect(violated?.[4]).toBe('201answered 502');
      expect(await page.locator('tr.entry[data-id="1"]').getAttribute('data-outcome')).toBe('violated');
      await page.locator('tr.entry[data-id="1"]').click();
      expect(await page.locator('tr.details').innerText()).toContain('authorization: Bearer ***');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });
});
