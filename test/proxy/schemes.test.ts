/**
 * The proxy, the journal and verify's request filter on a contract with an API key in a header
 * whose name looks like no secret (`X-Shed-Key`) and HTTP basic (test/conformance/fixtures/shed-keys.yaml):
 * the proxy judges those operations by the credentials it is told the upstream accepts (`credentials`,
 * --auth), and no key leaves it in clear; verify puts the real credential in place of a pact's example.
 */
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProxy, startReference as startReferenceServer } from '../../api/servers.js';
import { credentialFilter, type FilteredRequest } from '../../contracts/verification.js';
import { loadContract } from '../../src/openapi/index.js';
import { maskRequestHeaders, maskTarget, placedCredentials, secretNamesOf, type Hidden } from '../../src/http/index.js';
import { send } from '../support/http.js';
import { startFaulty, TEST_TOKEN } from '../support/servers.js';

const file = resolve(import.meta.dirname, '../conformance/fixtures/shed-keys.yaml');
const contract = loadContract(file);
const KEY = 'shed-key-4711';
const PAIR = 'ann:pw-1';
const credentials = { shedKey: KEY, shedBasic: PAIR };
const tool = Buffer.from('{"name":"rake","id":7}');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

describe("the contract's API key names are secret, whatever they look like", () => {
  it('a header and a query parameter named by an apiKey scheme are masked; other names stay in clear', () => {
    const names = secretNamesOf(loadContract(resolve(import.meta.dirname, '../../examples/contracts/greenhouse-security.yaml')));
    expect([...names.headers]).toEqual(['x-api-key']);
    expect([...names.query]).toEqual(['api_key']);
    const shed = secretNamesOf(contract);
    const hidden: Hidden = [];
    expect(maskRequestHeaders({ 'x-shed-key': KEY, 'x-trace': 'abc' }, hidden, shed)).toEqual({ 'x-shed-key': '***', 'x-trace': 'abc' });
    expect(hidden).toEqual([KEY]);
    // Without the contract's names, the same header is no secret by its name: the reason for them.
    expect(maskRequestHeaders({ 'x-shed-key': KEY }, [])).toEqual({ 'x-shed-key': KEY });
    expect(maskTarget('/sensors?api_key=k1&page=2', [], names)).toBe('/sensors?api_key=***&page=2');
  });

  it("the reference's journal masks X-Shed-Key", async () => {
    const server = await startReferenceServer({ contract: file, credentials, journal: true });
    closers.push(() => server.close());
    const answer = await send(server.url, { method: 'POST', path: '/tools', headers: { 'content-type': 'application/json', 'x-shed-key': KEY }, body: tool });
    expect(answer.status).toBe(200);
    const [entry] = server.requests();
    expect(entry?.request.headers['x-shed-key']).toBe('***');
    expect(JSON.stringify(server.requests())).not.toContain(KEY);
  });
});

describe('the proxy judges API key and basic operations by the credentials it is told', () => {
  it('a 2xx to a request without the key is a requires-auth failure; with the key, the exchange passes; the key is nowhere in what it tells', async () => {
    // An upstream that forgot the key on POST /tools: the key is added before the reference sees it.
    const upstream = await startFaulty((request, _correct, app) => app.request({ ...request, headers: { ...request.headers, 'x-shed-key': KEY } }), { contract, credentials });
    closers.push(() => upstream.close());
    const proxy = await startProxy({ upstream: upstream.url, contract: file, credentials, tokens: [TEST_TOKEN] });
    closers.push(() => proxy.close());
    const keyed = await send(proxy.url, { method: 'POST', path: '/tools', headers: { 'content-type': 'application/json', 'x-shed-key': KEY }, body: tool });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['plant-store-violations']).toBeUndefined();
    const bare = await send(proxy.url, { method: 'POST', path: '/tools', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"hoe","id":8}') });
    expect(bare.status).toBe(200);
    expect(bare.headers['plant-store-violations']).toContain('requires-auth');
    const [first, second] = proxy.requests();
    expect(first?.verdict.outcome).toBe('passed');
    expect(first?.request.headers['x-shed-key']).toBe('***');
    expect(second?.verdict.outcome).toBe('violated');
    expect(JSON.stringify(proxy.requests())).not.toContain(KEY);
  });
});

describe("verify's request filter: each --auth credential in place of the pact's example", () => {
  const placed = placedCredentials(contract, credentials);

  it('replaces a key where the request carries one and basic credentials where it carries Basic; adds --header fields', () => {
    const request: FilteredRequest = { headers: { 'x-shed-key': 'example-key', authorization: 'Basic ZXhhbXBsZTpleGFtcGxl' }, url: '/tools/1' };
    credentialFilter(undefined, placed, { 'x-tenant': 'shed' })(request, {}, () => undefined);
    expect(request.headers['x-shed-key']).toBe(KEY);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(PAIR).toString('base64')}`);
    expect(request.headers['x-tenant']).toBe('shed');
  });

  it('leaves a request without credentials without them (a refusal recorded in a pact stays one)', () => {
    const request: FilteredRequest = { headers: {}, url: '/tools/1' };
    credentialFilter(TEST_TOKEN, placed)(request, {}, () => undefined);
    expect(request.headers).toEqual({});
  });
});
