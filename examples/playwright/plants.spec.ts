/**
 * Runs against the mock that playwright.config.ts starts. A page test would open your app pointed
 * at the mock (`page.goto(...)`); this one calls the mock with Playwright's `request`, so it needs
 * no browser.
 */
import { expect, test } from '@playwright/test';

test('the mock answers a posted plant with a Plant', async ({ request }) => {
  const response = await request.post('/plants', {
    headers: { authorization: 'Bearer any-token' }, // the mock accepts any well-formed bearer token
    data: { name: 'Monstera', id: 1, tag: 'tropical' },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ name: expect.any(String) });
});

test('the mock answers a plant without a name with a 400 Error', async ({ request }) => {
  const response = await request.post('/plants', { headers: { authorization: 'Bearer any-token' }, data: { id: 1 } });
  expect(response.status()).toBe(400);
  expect(await response.json()).toMatchObject({ error: 400 });
});
