/**
 * The credentials rule (src/http/rules.ts) over the security registry: it reads each scheme's
 * credential where the scheme says (a header, the query, a cookie), combines requirements as
 * OpenAPI does (alternatives OR, schemes of one alternative AND), and refuses with the first
 * alternative's first refusal and that scheme's challenge. The bundled contract has one bearer
 * scheme; the schemes here are made up for the test, as the contracts issue's will be real.
 */
import { describe, expect, it } from 'vitest';
import { acceptAnyToken, credentialsRule, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, type RequestHead } from '../../src/http/index.js';
import { CREDENTIAL_ACCEPTED, httpBearer, type CredentialLocation, type OperationContract, type SchemeInUse, type SecuritySchemeType } from '../../src/openapi/index.js';
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

  it('takes any alternative that holds whole, and refuses with the first alternative’s first refusal', () => {
    const operation = securedBy([[header, query], [cookie]]);
    expect(judged(operation, { headers: { cookie: 'session=secret' } })).toBe('accepted');
    expect(judged(operation, { url: '/plants?key=secret', headers: { 'x-key': 'secret' } })).toBe('accepted');
    expect(judged(operation, { url: '/plants?key=wrong', headers: { 'x-key': 'secret' } })).toEqual({ message: 'query: not accepted', challenge: 'Test-query rejected' });
    expect(judged(operation, {})).toEqual({ message: 'header: missing', challenge: 'Test-header absent' });
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
