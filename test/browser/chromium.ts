/**
 * Debian's Chromium, headless, driven by playwright-core: the browser of the kit's browser tests
 * (`npm run test:browser`). Browsers that download themselves (Playwright's or Puppeteer's own
 * builds) are not used: `.ci/run` installs Debian's `chromium` package, and so can a developer
 * (`apt-get install chromium`); PLANT_STORE_CHROMIUM points at another executable.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.PLANT_STORE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags for a closed machine: no background networking, component updates, sync or first-run
 * work, which would otherwise try to reach hosts outside this machine at every start.
 */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps'];

export interface RunningBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Starts headless Chromium (Playwright gives it an empty profile of its own); `close()` stops it. */
export async function launchChromium(): Promise<RunningBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set PLANT_STORE_CHROMIUM`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return { browser, close: () => browser.close() };
}
