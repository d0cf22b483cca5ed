/**
 * The security-scheme registry (src/openapi/security/): which securityScheme objects each type
 * serves, where it reads its credential, how it judges one, and the challenge of each refusal:
 * HTTP bearer (RFC 6750, section 3) exactly as the servers have always sent it, HTTP basic (RFC
 * 7617), API keys, and OAuth 2 / OpenID Connect access tokens with their scopes.
 */
import { describe, expect, it } from 'vitest';
import { apiKey, compileContract, httpBasic, httpBearer, loadContract, oauth2, openIdConnect, SECURITY_SCHEMES, securitySchemeTypeFor, UnsupportedContractError, type CredentialJudgement, type Schema } from '../../src/openapi/index.js';

const accept = (token: string): boolean => token === 'good-token';
const judge = (authorization: string | undefined): CredentialJudgement => httpBearer.judge(authorization, accept);

describe('the registry', () => {
  it('has HTTP bearer as its first member, for http bearer schemes in any case', () => {
    expect(SECURITY_SCHEMES).toEqual([httpBearer, httpBasic, apiKey, oauth2, openIdConnect]);
    expect(securitySchemeTypeFor({ type: 'http', scheme: 'bearer' })).toBe(httpBearer);
    expect(securitySchemeTypeFor({ type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' })).toBe(httpBearer);
  });

  it.each<[Schema, unknown]>([
    [{ type: 'http', scheme: 'basic' }, httpBasic],
    [{ type: 'http', scheme: 'Basic' }, httpBasic],
    [{ type: 'apiKey', in: 'header', name: 'X-Key' }, apiKey],
    [{ type: 'apiKey', in: 'query', name: 'key' }, apiKey],
    [{ type: 'apiKey', in: 'cookie', name: 'session' }, apiKey],
    [{ type: 'oauth2', flows: {} }, oauth2],
    [{ type: 'openIdConnect', openIdConnectUrl: 'https://example.com/.well-known/openid-configuration' }, openIdConnect],
  ])('serves %j', (scheme, type) => {
    expect(securitySchemeTypeFor(scheme)).toBe(type);
  });

  it.each<Schema>([{ type: 'mutualTLS' }, { type: 'http' }, { type: 'http', scheme: 'digest' }, { type: 'http', scheme: 'negotiate' }, { type: 'apiKey', in: 'body', name: 'k' }, { type: 'apiKey', in: 'header' }])('serves no %j', (scheme) => {
    expect(securitySchemeTypeFor(scheme)).toBeUndefined();
  });

  it('gives the bundled contract’s operation its scheme, read from the Authorization header', () => {
    const operation = loadContract().findOperation('POST', '/plants');
    expect(operation?.securedBy).toEqual([[{ name: 'bearerAuth', type: httpBearer, credential: { in: 'header', name: 'authorization' } }]]);
  });

  it('refuses a contract with a scheme no type serves, by its name and type', () => {
    const document = structuredClone(loadContract().document) as Schema & { components: { securitySchemes: Schema } };
    document.components.securitySchemes.bearerAuth = { type: 'http', scheme: 'digest' };
    expect(() => compileContract(document)).toThrow(UnsupportedContractError);
    expect(() => compileContract(document)).toThrow('the security scheme bearerAuth (http digest; the kit serves http bearer, http basic, apiKey, oauth2, openIdConnect only) at /components/securitySchemes/bearerAuth');
    document.components.securitySchemes.bearerAuth = { type: 'mutualTLS' };
    expect(() => compileContract(document)).toThrow('the security scheme bearerAuth (mutualTLS; the kit serves');
  });
});

describe('HTTP bearer (RFC 6750)', () => {
  it('accepts a token the policy accepts, whatever the case of the scheme word and the blanks around', () => {
    for (const value of ['Bearer good-token', 'bearer good-token', 'BEARER good-token', ' \tBearer good-token\t ']) expect(judge(value)).toEqual({ outcome: 'accepted' });
  });

  it.each([
    [undefined, 'absent', 'authorization: missing bearer credentials'],
    ['', 'absent', 'authorization: missing bearer credentials'],
    ['Basic dXNlcjpwYXNz', 'absent', 'authorization: the Basic scheme is not accepted; use Bearer'],
    ['Bearer', 'malformed', 'authorization: empty bearer token'],
    ['Bearer\tgood-token', 'malformed', 'authorization: malformed bearer credentials; separate Bearer and the token with a space'],
    ['Bearer a b', 'malformed', 'authorization: malformed bearer token (RFC 6750 b64token)'],
    ['Bearer good-token\u00a0', 'malformed', 'authorization: malformed bearer token (RFC 6750 b64token)'],
    ['Bearer other-token', 'rejected', 'authorization: bearer token not accepted'],
  ])('judges %j %s', (authorization, outcome, reason) => {
    expect(judge(authorization)).toEqual({ outcome, reason });
  });

  it('writes a token as the Authorization header carries it, and reads it back accepted', () => {
    expect(httpBearer.write('good-token')).toBe('Bearer good-token');
    expect(judge(httpBearer.write('good-token'))).toEqual({ outcome: 'accepted' });
  });

  it('challenges without an error code when no bearer credentials came, with invalid_token otherwise', () => {
    expect(httpBearer.challenge({ outcome: 'absent', reason: '' })).toBe('Bearer realm="plant-store"');
    expect(httpBearer.challenge({ outcome: 'malformed', reason: '' })).toBe('Bearer realm="plant-store", error="invalid_token"');
    expect(httpBearer.challenge({ outcome: 'rejected', reason: '' })).toBe('Bearer realm="plant-store", error="invalid_token"');
  });
});

const basic = (pair: string): string => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
const acceptPair = (pair: string): boolean => pair === 'ann:s3cret:x' || pair === 'zoë:pässwörd';

describe('HTTP basic (RFC 7617)', () => {
  it('accepts a user-id:password pair the policy accepts (a colon in the password, UTF-8 in both), whatever the case of Basic', () => {
    expect(httpBasic.judge(basic('ann:s3cret:x'), acceptPair)).toEqual({ outcome: 'accepted' });
    expect(httpBasic.judge(`basic ${Buffer.from('ann:s3cret:x').toString('base64')}`, acceptPair)).toEqual({ outcome: 'accepted' });
    expect(httpBasic.judge(basic('zoë:pässwörd'), acceptPair)).toEqual({ outcome: 'accepted' });
  });

  it.each([
    [undefined, 'absent', 'authorization: missing basic credentials'],
    ['Bearer abc', 'absent', 'authorization: the Bearer scheme is not accepted; use Basic'],
    ['Basic', 'malformed', 'authorization: empty basic credentials'],
    ['Basic\tYW5uOng=', 'malformed', 'authorization: malformed basic credentials; separate Basic and the credentials with a space'],
    ['Basic YW5uOng', 'malformed', 'authorization: malformed basic credentials (RFC 7617: base64 of UTF-8 user-id:password)'],
    ['Basic !!!!', 'malformed', 'authorization: malformed basic credentials (RFC 7617: base64 of UTF-8 user-id:password)'],
    [`Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`, 'malformed', 'authorization: malformed basic credentials (RFC 7617: base64 of UTF-8 user-id:password)'],
    [basic('annpassword'), 'malformed', 'authorization: malformed basic credentials (RFC 7617): no colon between the user-id and the password'],
    [basic('ann:pa\nss'), 'malformed', 'authorization: malformed basic credentials (RFC 7617): a control character in the user-id or the password'],
    [basic('ann:wrong'), 'rejected', 'authorization: basic credentials not accepted'],
  ])('judges %j %s', (authorization, outcome, reason) => {
    expect(httpBasic.judge(authorization, acceptPair)).toEqual({ outcome, reason });
  });

  it('writes a pair as Basic credentials (UTF-8, then base64), challenges naming UTF-8, and compares the password with the server’s tokens', () => {
    expect(httpBasic.write('zoë:pässwörd')).toBe(basic('zoë:pässwörd'));
    expect(httpBasic.judge(httpBasic.write('zoë:pässwörd'), acceptPair)).toEqual({ outcome: 'accepted' });
    expect(httpBasic.challenge({ outcome: 'absent', reason: '' })).toBe('Basic realm="plant-store", charset="UTF-8"');
    expect(httpBasic.challenge({ outcome: 'rejected', reason: '' })).toBe('Basic realm="plant-store", charset="UTF-8"');
    expect(httpBasic.tokenPart?.('ann:to:ken')).toBe('to:ken');
    expect(httpBasic.given?.('ann:pw')).toEqual({ credential: 'ann:pw' });
    expect(httpBasic.given?.('annpw')).toBe('no colon between the user-id and the password');
  });
});

describe('API keys', () => {
  const header = { name: 'keyHeader', credential: apiKey.credentialIn({ type: 'apiKey', in: 'header', name: 'X-API-Key' }) };
  const query = { name: 'keyQuery', credential: apiKey.credentialIn({ type: 'apiKey', in: 'query', name: 'api_key' }) };
  const cookie = { name: 'keyCookie', credential: apiKey.credentialIn({ type: 'apiKey', in: 'cookie', name: 'Session' }) };
  const acceptKey = (key: string): boolean => key === 'k-1';

  it('reads the key where the scheme says: a header (by its lower-case name), a query parameter, a cookie (by their exact names)', () => {
    expect([header.credential, query.credential, cookie.credential]).toEqual([
      { in: 'header', name: 'x-api-key' },
      { in: 'query', name: 'api_key' },
      { in: 'cookie', name: 'Session' },
    ]);
  });

  it.each([
    [undefined, 'absent', 'header x-api-key: missing api key'],
    ['', 'malformed', 'header x-api-key: empty api key'],
    ['k-2', 'rejected', 'header x-api-key: api key not accepted'],
  ])('judges %j %s, naming where the key goes', (key, outcome, reason) => {
    expect(apiKey.judge(key, acceptKey, header)).toEqual({ outcome, reason });
  });

  it('accepts a key the policy accepts, and challenges saying where the key goes', () => {
    expect(apiKey.judge('k-1', acceptKey, query)).toEqual({ outcome: 'accepted' });
    expect(apiKey.challenge({ outcome: 'absent', reason: '' }, query)).toBe('ApiKey realm="plant-store", in="query", name="api_key"');
    expect(apiKey.challenge({ outcome: 'rejected', reason: '' }, cookie)).toBe('ApiKey realm="plant-store", in="cookie", name="Session"');
    expect(apiKey.given?.('')).toBe('an api key is not empty');
  });
});

describe('OAuth 2 and OpenID Connect access tokens (RFC 6750)', () => {
  const scoped = Object.assign((token: string) => token === 'reader' || token === 'anyone', { scopesOf: (token: string) => (token === 'reader' ? new Set(['read']) : undefined) });
  const use = { name: 'oauth', credential: { in: 'header', name: 'authorization' } as const, scopes: ['read', 'write'] };

  it.each([oauth2, openIdConnect])('%#: reads a bearer token, as HTTP bearer does', (type) => {
    expect(type.judge('Bearer anyone', scoped, use)).toEqual({ outcome: 'accepted' });
    expect(type.judge(undefined, scoped, use)).toEqual({ outcome: 'absent', reason: 'authorization: missing bearer credentials' });
    expect(type.judge('Bearer other', scoped, use)).toEqual({ outcome: 'rejected', reason: 'authorization: bearer token not accepted' });
    expect(type.write('tok')).toBe('Bearer tok');
  });

  it('refuses a token that lacks a scope the requirement names, with insufficient_scope naming them all', () => {
    const refusal = oauth2.judge('Bearer reader', scoped, use);
    expect(refusal).toMatchObject({ outcome: 'insufficient_scope', reason: 'authorization: the token lacks the scope write' });
    if (refusal.outcome === 'accepted') throw new Error('accepted');
    expect(oauth2.challenge(refusal, use)).toBe('Bearer realm="plant-store", error="insufficient_scope", scope="read write"');
    expect(oauth2.judge('Bearer reader', scoped, { ...use, scopes: ['read'] })).toEqual({ outcome: 'accepted' });
    // Scopes the user did not give: the token has every scope.
    expect(openIdConnect.judge('Bearer anyone', scoped, use)).toEqual({ outcome: 'accepted' });
  });

  it('reads a token given with its scopes, token:scope1,scope2', () => {
    expect(oauth2.given?.('tok')).toEqual({ credential: 'tok' });
    expect(oauth2.given?.('tok:read,write:pets')).toEqual({ credential: 'tok', scopes: ['read', 'write:pets'] });
    expect(oauth2.given?.('t k')).toMatch(/b64token/);
    expect(oauth2.given?.('tok:re"ad')).toMatch(/RFC 6749/);
  });

  it('gives an operation the scopes its requirement names, and none for a scheme without scopes', () => {
    const contract = compileContract({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      components: { securitySchemes: { oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://example.com', scopes: { read: '', write: '' } } } }, key: { type: 'apiKey', in: 'query', name: 'key' } } },
      paths: { '/a': { get: { security: [{ oauth: ['read'] }, { key: ['role'] }], responses: { '200': { description: 'ok' } } } } },
    });
    expect(contract.operations[0]?.securedBy).toEqual([[{ name: 'oauth', type: oauth2, credential: { in: 'header', name: 'authorization' }, scopes: ['read'] }], [{ name: 'key', type: apiKey, credential: { in: 'query', name: 'key' } }]]);
  });
});
