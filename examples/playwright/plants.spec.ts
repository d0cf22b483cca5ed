/**
 * Runs against the mock that playwright.config.ts starts. A page test would open your app pointed
 * at the mock (`page.goto(...)`); this one calls the mock with Playwright's `request`, so it needs
 * no browser.
 */
import { expect, test } from '@playwright/test';
import { assertRequests, type JournalEntry } from 'plant-store-kit';

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

test('the mock keeps a journal of what was sent: assert on it', async ({ request }) => {
  await request.post('/plants', { headers: { authorization: 'Bearer any-token' }, data: { name: 'Fern from the journal test', id: 2 } });
  // The mock runs in another process: its journal is read over HTTP, at its admin path.
  const { requests } = (await (await request.get('/__plant-store/requests')).json()) as { requests: JournalEntry[] };
  const [sent] = assertRequests(requests, { method: 'POST', path: '/plants', body: { name: 'Fern from the journal test' } });
  expect(sent?.verdict).toEqual({ outcome: 'accepted' });
  expect(sent?.request.headers.authorization).toBe('Bearer ***'); // credentials are masked
});
