/**
 * Playwright brings the Plant Store mock up before the tests and down after them.
 *
 * `port`, not `url`: Playwright's `url` waits for a GET answered 2xx, 3xx or 400-403, and the kit's
 * servers answer every GET 404 or 405 (only POST /plants exists), so it would wait forever.
 */
import { defineConfig } from '@playwright/test';

const port = Number(process.env.PLANT_STORE_MOCK_PORT ?? 4010);

export default defineConfig({
  testDir: '.',
  webServer: {
    command: `npx plant-store mock --port ${port}`,
    port,
    reuseExistingServer: !process.env.CI,
  },
  use: { baseURL: `http://127.0.0.1:${port}` },
});
