/**
 * Every security scheme over a real socket, as a user runs it: the built `serve --contract` of the
 * example greenhouse (examples/contracts/greenhouse-security.yaml: API keys in a header, the query
 * and a cookie, HTTP basic, OAuth 2 with scopes, OpenID Connect, an AND requirement, an optional
 * one), credentials given per scheme name with --auth and PLANT_STORE_AUTH_<SCHEME>. Each refusal
 * is a 401 with its schemes' challenges, or a 403 for a missing scope; the right credentials a 200.
 * The same contract through the API's startMock checks that the mock sits behind the same rules.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedServer } from '../../api/index.js';
import { run, type Run } from '../support/cli.js';

const GREENHOUSE = fileURLToPath(new URL('../../examples/contracts/greenhouse-security.yaml', import.meta.url));
const basic = (pair: string): string => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
const AUTH = ['oauth=reader:sensors:read', 'oauth=admin:sensors:read,sensors:write', 'oidc=id-token', 'basicAuth=ann:s3cret', 'keyHeader=header-key', 'keyQuery=query-key'];

let served: Run;
let url = '';

beforeAll(async () => {
  served = run(['serve', '--port', '0', '--token', 'server-token', '--contract', GREENHOUSE, ...AUTH.flatMap((a) => ['--auth', a])], { PLANT_STORE_AUTH_KEYCOOKIE: 'cookie-key' });
  const deadline = Date.now() + 15_000;
  while (!served.stdout().includes('operations:')) {
    if (served.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${served.stdout()}${served.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  url = /listening on (http:\/\/\S+)/.exec(served.stdout())?.[1] ?? '';
});

afterAll(async () => {
  served.child.kill('SIGTERM');
  await served.exit;
});

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; challenge: string | null; body: string }> {
  const answer = await fetch(`${url}${path}`, { headers });
  return { status: answer.status, challenge: answer.headers.get('www-authenticate'), body: await answer.text() };
}

const KEY_CHALLENGES = 'ApiKey realm="plant-store", in="header", name="x-api-key", ApiKey realm="plant-store", in="query", name="api_key", ApiKey realm="plant-store", in="cookie", name="greenhouse_session"';

describe('serve --contract with every security scheme, over a socket', () => {
  it('serves an open operation to everyone', async () => {
    expect(await get('/status')).toMatchObject({ status: 200, body: '{"ok":true}' });
  });

  it('takes an API key in its header, its query parameter or its cookie (from PLANT_STORE_AUTH_KEYCOOKIE), and nowhere else', async () => {
    expect(await get('/sensors', { 'x-api-key': 'header-key' })).toMatchObject({ status: 200 });
    expect(await get('/sensors?api_key=query-key')).toMatchObject({ status: 200 });
    expect(await get('/sensors', { cookie: 'theme=dark; greenhouse_session=cookie-key' })).toMatchObject({ status: 200 });
    // The header's key in the query is in the wrong place: absent.
    expect(await get('/sensors?api_key=header-key')).toMatchObject({ status: 401, challenge: KEY_CHALLENGES });
    expect(await get('/sensors')).toEqual({ status: 401, challenge: KEY_CHALLENGES, body: '{"error":401,"message":"header x-api-key: missing api key"}' });
    // Given keys replace the server's token for their scheme.
    expect(await get('/sensors', { 'x-api-key': 'server-token' })).toMatchObject({ status: 401, body: '{"error":401,"message":"header x-api-key: api key not accepted"}' });
  });

  it('takes an OAuth 2 or OpenID Connect access token, and answers 403 insufficient_scope to one without the scopes', async () => {
    expect(await get('/readings', { authorization: 'Bearer reader' })).toMatchObject({ status: 200, body: '{"humidity":61}' });
    expect(await get('/readings', { authorization: 'Bearer id-token' })).toMatchObject({ status: 200 });
    expect(await get('/calibration', { authorization: 'Bearer admin' })).toMatchObject({ status: 200 });
    expect(await get('/calibration', { authorization: 'Bearer reader' })).toEqual({
      status: 403,
      challenge: 'Bearer realm="plant-store", error="insufficient_scope", scope="sensors:read sensors:write"',
      body: '{"error":403,"message":"authorization: the token lacks the scope sensors:write"}',
    });
    expect(await get('/readings')).toMatchObject({ status: 401, challenge: 'Bearer realm="plant-store"' });
    expect(await get('/readings', { authorization: 'Bearer stranger' })).toMatchObject({ status: 401, challenge: 'Bearer realm="plant-store", error="invalid_token"' });
  });

  it('holds an AND requirement only with both HTTP basic and the key, challenging for the one missing', async () => {
    expect(await get('/vault', { authorization: basic('ann:s3cret'), 'x-api-key': 'header-key' })).toMatchObject({ status: 200, body: '{"seeds":12}' });
    expect(await get('/vault', { authorization: basic('ann:s3cret') })).toMatchObject({ status: 401, challenge: 'ApiKey realm="plant-store", in="header", name="x-api-key"' });
    expect(await get('/vault', { 'x-api-key': 'header-key' })).toMatchObject({ status: 401, challenge: 'Basic realm="plant-store", charset="UTF-8"' });
    expect(await get('/vault', { authorization: 'Basic bm9jb2xvbg==', 'x-api-key': 'header-key' })).toMatchObject({ status: 401, body: '{"error":401,"message":"authorization: malformed basic credentials (RFC 7617): no colon between the user-id and the password"}' });
  });

  it('lets a request without credentials through an optional requirement ({}), and any with them', async () => {
    expect(await get('/greeting')).toMatchObject({ status: 200 });
    expect(await get('/greeting', { authorization: basic('ann:s3cret') })).toMatchObject({ status: 200 });
  });
});

describe('the mock of the same contract (the API), behind the same rules', () => {
  let mock: StartedServer;
  beforeAll(async () => {
    mock = await startMock({ contract: GREENHOUSE, credentials: { oauth: 'reader:sensors:read' }, journal: false });
  });
  afterAll(() => mock.close());

  it('accepts any well-formed credential of a scheme given none, exactly those given for the others, with their scopes', async () => {
    const at = (path: string, headers: Record<string, string> = {}) => fetch(`${mock.url}${path}`, { headers }).then((a) => ({ status: a.status, challenge: a.headers.get('www-authenticate') }));
    expect(await at('/sensors', { 'x-api-key': 'anything' })).toMatchObject({ status: 200 });
    expect(await at('/sensors')).toEqual({ status: 401, challenge: KEY_CHALLENGES });
    expect(await at('/vault', { authorization: basic('who:ever'), 'x-api-key': 'k' })).toMatchObject({ status: 200 });
    expect(await at('/readings', { authorization: 'Bearer reader' })).toMatchObject({ status: 200 });
    expect(await at('/calibration', { authorization: 'Bearer reader' })).toMatchObject({ status: 403 });
  });

  it('refuses credentials for a scheme the contract does not declare', async () => {
    await expect(startMock({ contract: GREENHOUSE, credentials: { nope: 'x' } })).rejects.toThrow('credentials: credentials for nope: the contract declares no security scheme nope the kit serves');
  });
});
