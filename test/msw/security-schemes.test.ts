/**
 * plant-store-kit/msw with a contract of several security schemes (examples/contracts/greenhouse-security.yaml):
 * the handlers judge credentials per scheme name as the servers do - those given in `credentials`,
 * the tokens for a scheme given none - in both modes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plantStoreHandlers } from '../../msw/index.js';

const document = parseYaml(readFileSync(fileURLToPath(new URL('../../examples/contracts/greenhouse-security.yaml', import.meta.url)), 'utf8')) as Record<string, unknown>;
const credentials = { keyHeader: 'hk', oauth: ['reader:sensors:read'] };
const reference = plantStoreHandlers({ baseUrl: 'http://greenhouse.test', contract: document, tokens: ['msw-token'], credentials });
const examples = plantStoreHandlers({ baseUrl: 'http://examples.test', contract: document, mode: 'examples', credentials });
const server = setupServer(...reference.handlers, ...examples.handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
});

const status = (url: string, headers: Record<string, string> = {}): Promise<number> => fetch(url, { headers }).then((answer) => answer.status);

describe.each(['http://greenhouse.test', 'http://examples.test'])('the handlers at %s', (base) => {
  test('accept the credentials given per scheme, with their scopes', async () => {
    expect(await status(`${base}/sensors`, { 'x-api-key': 'hk' })).toBe(200);
    expect(await status(`${base}/sensors`, { 'x-api-key': 'other' })).toBe(401);
    expect(await status(`${base}/readings`, { authorization: 'Bearer reader' })).toBe(200);
    expect(await status(`${base}/calibration`, { authorization: 'Bearer reader' })).toBe(403);
  });
});

test('the reference mode takes its tokens for a scheme given none; the examples mode any well-formed credential', async () => {
  expect(await status('http://greenhouse.test/sensors?api_key=msw-token')).toBe(200);
  expect(await status('http://greenhouse.test/sensors?api_key=other')).toBe(401);
  expect(await status('http://examples.test/sensors?api_key=other')).toBe(200);
});
