/**
 * The credentials rule (src/http/rules.ts) over the security registry: it reads each scheme's
 * credential where the scheme says (a header, the query, a cookie), combines requirements as
 * OpenAPI does (alternatives OR, schemes of one alternative AND), and refuses with the first
 * alternative's first refusal and the challenge of every refused scheme (a 403 where an alternative
 * fails only for scopes). The bundled contract has one bearer scheme; made-up schemes test the
 * combining, the registry's own (basic, apiKey, oauth2) the policies per scheme name.
 */
import { describe, expect, it } from 'vitest';
import { acceptAnyToken, acceptTokens, credentialsRule, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, schemePolicies, type GivenCredentials, type RequestHead } from '../../src/http/index.js';
import { compileContract, CREDENTIAL_ACCEPTED, httpBearer, loadContract, type CredentialLocation, type OperationContract, type SchemeInUse, type SecuritySchemeType } from '../../src/openapi/index.js';
import { addPlant } from '../support/expect-answer.js';

/** A scheme that accepts exactly `secret`, wherever it is read from. */
const exact = (name: string, credential: CredentialLocation): SchemeInUse => {
  const type: SecuritySchemeType = {
    name: `test ${name}`,
    serves: () => true,
    credentialIn: () => credential,
    write: (value) => value,
    judge: (value) => (value === undefined ? { outcome: 'absent', reason: `${name}: missing` } : value === 'secret' ? CREDENTIAL_ACCEPTED : { outcome: 'rejected', reason: `${name}: not accepted` }),
    challenge: (refusal) => `Test-${name} ${refusal.outcome}`,
  };
  return { name, type, credential };
};
const bearer: SchemeInUse = { name: 'bearerAuth', type: httpBearer, credential: { in: 'header', name: 'authorization' } };
const settings = { accept: acceptAnyToken, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, maxDepth: DEFAULT_MAX_DEPTH };
const securedBy = (alternatives: SchemeInUse[][]): OperationContract => ({ ...addPlant, securedBy: alternatives });
const judged = (operation: OperationContract, request: Partial<RequestHead>): { message: string; challenge: unknown } | 'accepted' => {
  const refusal = credentialsRule({ method: 'POST', url: '/plants', headers: {}, ...request }, operation, settings);
  return refusal === undefined ? 'accepted' : { message: refusal.message, challenge: refusal.headers['www-authenticate'] };
};

const header = exact('header', { in: 'header', name: 'x-key' });
const query = exact('query', { in: 'query', name: 'key' });
const cookie = exact('cookie', { in: 'cookie', name: 'session' });

describe('the credentials rule over the security registry', () => {
  it('reads a credential from a header, the query (absolute-form too) or a cookie', () => {
    expect(judged(securedBy([[header]]), { headers: { 'x-key': 'secret' } })).toBe('accepted');
    expect(judged(securedBy([[query]]), { url: '/plants?a=1&key=secret' })).toBe('accepted');
    expect(judged(securedBy([[query]]), { url: 'http://example.com/plants?key=secret' })).toBe('accepted');
    expect(judged(securedBy([[cookie]]), { headers: { cookie: 'theme=dark; session=secret' } })).toBe('accepted');
    expect(judged(securedBy([[cookie]]), { headers: { cookie: 'theme=dark; notsession=secret' } })).toEqual({ message: 'cookie: missing', challenge: 'Test-cookie absent' });
  });

  it('takes any alternative that holds whole, and refuses with the first alternative’s first refusal and every refused scheme’s challenge', () => {
    const operation = securedBy([[header, query], [cookie]]);
    expect(judged(operation, { headers: { cookie: 'session=secret' } })).toBe('accepted');
    expect(judged(operation, { url: '/plants?key=secret', headers: { 'x-key': 'secret' } })).toBe('accepted');
    expect(judged(operation, { url: '/plants?key=wrong', headers: { 'x-key': 'secret' } })).toEqual({ message: 'query: not accepted', challenge: 'Test-query rejected, Test-cookie absent' });
    expect(judged(operation, {})).toEqual({ message: 'header: missing', challenge: 'Test-header absent, Test-query absent, Test-cookie absent' });
  });

  it('holds an AND requirement only with every scheme of it, and says each challenge once', () => {
    const operation = securedBy([[header, query]]);
    expect(judged(operation, { headers: { 'x-key': 'secret' } })).toEqual({ message: 'query: missing', challenge: 'Test-query absent' });
    expect(judged(operation, { url: '/plants?key=secret' })).toEqual({ message: 'header: missing', challenge: 'Test-header absent' });
    expect(judged(operation, { url: '/plants?key=secret', headers: { 'x-key': 'secret' } })).toBe('accepted');
    expect(judged(securedBy([[header], [header]]), {})).toEqual({ message: 'header: missing', challenge: 'Test-header absent' });
  });

  it('judges the bundled contract’s bearer exactly as before: the challenge of each refusal', () => {
    expect(judged(securedBy([[bearer]]), { headers: { authorization: 'Bearer any-token' } })).toBe('accepted');
    expect(judged(securedBy([[bearer]]), {})).toEqual({ message: 'authorization: missing bearer credentials', challenge: 'Bearer realm="plant-store"' });
    expect(judged(securedBy([[bearer]]), { headers: { authorization: 'Bearer a b' } })).toEqual({
      message: 'authorization: malformed bearer token (RFC 6750 b64token)',
      challenge: 'Bearer realm="plant-store", error="invalid_token"',
    });
  });

  it('lets every request through an open operation', () => {
    expect(judged(securedBy([]), {})).toBe('accepted');
  });
});

const schemesContract = compileContract({
  openapi: '3.1.0',
  info: { title: 'schemes', version: '1' },
  components: {
    securitySchemes: {
      basicAuth: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.com/token', scopes: { read: '', write: '' } } } },
    },
  },
  paths: {
    '/either': { get: { security: [{ basicAuth: [] }, { key: [] }], responses: { '200': { description: 'ok' } } } },
    '/optional': { get: { security: [{ key: [] }, {}], responses: { '200': { description: 'ok' } } } },
    '/write': { get: { security: [{ oauth: ['write'] }], responses: { '200': { description: 'ok' } } } },
    '/write-and-key': { get: { security: [{ oauth: ['write'], key: [] }], responses: { '200': { description: 'ok' } } } },
    '/write-or-key': { get: { security: [{ oauth: ['write'] }, { key: [] }], responses: { '200': { description: 'ok' } } } },
  },
});

describe('the credentials rule with the credentials given per scheme name', () => {
  const tokens = acceptTokens(['server-token']);
  const judgedWith = (given: GivenCredentials, path: string, headers: Record<string, string>): { status: number; message: string; challenge: unknown } | 'accepted' => {
    const operation = schemesContract.findOperation('GET', path);
    if (operation === undefined) throw new Error(path);
    const credentials = schemePolicies(schemesContract, tokens, given);
    const refusal = credentialsRule({ method: 'GET', url: path, headers }, operation, { ...settings, accept: tokens, credentials });
    return refusal === undefined ? 'accepted' : { status: refusal.status, message: refusal.message, challenge: refusal.headers['www-authenticate'] };
  };
  const basic = (pair: string): string => `Basic ${Buffer.from(pair).toString('base64')}`;

  it('takes either alternative (OR), and challenges with both schemes when neither holds', () => {
    const given = { basicAuth: 'ann:pw', key: ['k-1', 'k-2'] };
    expect(judgedWith(given, '/either', { authorization: basic('ann:pw') })).toBe('accepted');
    expect(judgedWith(given, '/either', { 'x-api-key': 'k-2' })).toBe('accepted');
    expect(judgedWith(given, '/either', { authorization: basic('ann:nope') })).toEqual({
      status: 401,
      message: 'authorization: basic credentials not accepted',
      challenge: 'Basic realm="plant-store", charset="UTF-8", ApiKey realm="plant-store", in="header", name="x-api-key"',
    });
  });

  it('opens an operation whose requirements include the empty one ({}), credentials or none', () => {
    expect(schemesContract.findOperation('GET', '/optional')?.securedBy).toEqual([]);
    expect(judgedWith({ key: 'k-1' }, '/optional', {})).toBe('accepted');
  });

  it('accepts the server’s tokens for a scheme given nothing: the key itself, the password of any user', () => {
    expect(judgedWith({}, '/either', { 'x-api-key': 'server-token' })).toBe('accepted');
    expect(judgedWith({}, '/either', { authorization: basic('whoever:server-token') })).toBe('accepted');
    expect(judgedWith({}, '/either', { authorization: basic('whoever:other') })).toMatchObject({ status: 401 });
    // Given credentials replace the server's tokens for that scheme; the message names the credential sent.
    expect(judgedWith({ key: 'k-1' }, '/either', { 'x-api-key': 'server-token' })).toMatchObject({ status: 401, message: 'header x-api-key: api key not accepted' });
  });

  it('answers 403 insufficient_scope where the only failing alternative lacks a scope, and lets another alternative hold', () => {
    const given = { oauth: ['reader:read', 'writer:read,write', 'unscoped'], key: 'k-1' };
    expect(judgedWith(given, '/write', { authorization: 'Bearer writer' })).toBe('accepted');
    expect(judgedWith(given, '/write', { authorization: 'Bearer unscoped' })).toBe('accepted');
    expect(judgedWith(given, '/write', { authorization: 'Bearer reader' })).toEqual({
      status: 403,
      message: 'authorization: the token lacks the scope write',
      challenge: 'Bearer realm="plant-store", error="insufficient_scope", scope="write"',
    });
    expect(judgedWith(given, '/write-or-key', { authorization: 'Bearer reader', 'x-api-key': 'k-1' })).toBe('accepted');
    // The key alternative fails for a key never sent, the token's for a scope: the 403, with the scope's challenge alone.
    expect(judgedWith(given, '/write-or-key', { authorization: 'Bearer reader' })).toEqual({
      status: 403,
      message: 'authorization: the token lacks the scope write',
      challenge: 'Bearer realm="plant-store", error="insufficient_scope", scope="write"',
    });
    expect(judgedWith(given, '/write-or-key', { authorization: 'Bearer reader', 'x-api-key': 'wrong' })).toMatchObject({ status: 403 });
    // An alternative of a token and a key, the key missing: a 401 naming the key, whatever the token's scopes.
    expect(judgedWith(given, '/write-and-key', { authorization: 'Bearer reader' })).toEqual({
      status: 401,
      message: 'header x-api-key: missing api key',
      challenge: 'Bearer realm="plant-store", error="insufficient_scope", scope="write", ApiKey realm="plant-store", in="header", name="x-api-key"',
    });
    expect(judgedWith(given, '/write', { authorization: 'Bearer nobody' })).toMatchObject({ status: 401, challenge: 'Bearer realm="plant-store", error="invalid_token"' });
  });

  it('refuses credentials for a scheme the contract does not declare, or that its type cannot read, naming the scheme', () => {
    expect(() => schemePolicies(schemesContract, tokens, { nope: 'x' })).toThrow('credentials for nope: the contract declares no security scheme nope the kit serves (it has basicAuth, key, oauth)');
    expect(() => schemePolicies(schemesContract, tokens, { basicAuth: 'no-colon' })).toThrow('credentials for basicAuth (http basic): no colon between the user-id and the password');
    expect(schemePolicies(loadContract(), tokens)).toBeUndefined();
  });
});
