/**
 * A page whose fetches the Plant Store answers inside the browser: MSW's service worker hands
 * every request under /api to `plantStoreHandlers`, the kit's reference implementation, and the
 * network is never used. Before serving the page, put MSW's worker script beside it:
 *
 *   npx msw init public --save=false
 */
import { setupWorker } from 'msw/browser';
import { assertRequests, plantStoreHandlers } from 'plant-store-kit/msw';
import contract from 'plant-store-kit/openapi.json' with { type: 'json' };

const TOKEN = 'browser-token';

const plantStore = plantStoreHandlers({ baseUrl: '/api', contract, tokens: [TOKEN] });
const worker = setupWorker(...plantStore.handlers);

/** For tests driving the page (Playwright): the store, its journal, and when the worker is ready. */
declare global {
  interface Window {
    plantStoreKit: { plantStore: typeof plantStore; assertRequests: typeof assertRequests; ready: Promise<unknown> };
  }
}
window.plantStoreKit = { plantStore, assertRequests, ready: worker.start({ onUnhandledRequest: 'error', quiet: true }) };

const form = document.querySelector<HTMLFormElement>('#add');
const answer = document.querySelector<HTMLPreElement>('#answer');
form?.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const field = (name: string): string => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  // The id written as typed, never through a JavaScript number: an int64 stays exact.
  const body = `{"name":${JSON.stringify(field('name'))},"id":${field('id')}}`;
  void fetch('/api/plants', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body })
    .then(async (response) => `${response.status} ${await response.text()}`)
    .then((text) => {
      if (answer) answer.textContent = text;
    });
});
