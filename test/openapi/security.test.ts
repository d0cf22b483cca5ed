/**
 * The security-scheme registry (src/openapi/security/): which securityScheme objects HTTP bearer
 * serves, where it reads its credential, how it judges one, and the challenge of each refusal
 * (RFC 6750, section 3), exactly as the servers have always sent it.
 */
import { describe, expect, it } from 'vitest';
import { compileContract, httpBearer, loadContract, SECURITY_SCHEMES, securitySchemeTypeFor, UnsupportedContractError, type CredentialJudgement, type Schema } from '../../src/openapi/index.js';

const accept = (token: string): boolean => token === 'good-token';
const judge = (authorization: string | undefined): CredentialJudgement => httpBearer.judge(authorization, accept);

describe('the registry', () => {
  it('has HTTP bearer as its first member, for http bearer schemes in any case', () => {
    expect(SECURITY_SCHEMES).toEqual([httpBearer]);
    expect(securitySchemeTypeFor({ type: 'http', scheme: 'bearer' })).toBe(httpBearer);
    expect(securitySchemeTypeFor({ type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' })).toBe(httpBearer);
  });

  it.each<Schema>([{ type: 'http', scheme: 'basic' }, { type: 'apiKey', in: 'header', name: 'X-Key' }, { type: 'oauth2' }, { type: 'openIdConnect' }, { type: 'mutualTLS' }, { type: 'http' }])('serves no %j yet', (scheme) => {
    expect(securitySchemeTypeFor(scheme)).toBeUndefined();
  });

  it('gives the bundled contract’s operation its scheme, read from the Authorization header', () => {
    const operation = loadContract().findOperation('POST', '/plants');
    expect(operation?.securedBy).toEqual([[{ name: 'bearerAuth', type: httpBearer, credential: { in: 'header', name: 'authorization' } }]]);
  });

  it('refuses a contract with a scheme no type serves, by its name and type', () => {
    const document = structuredClone(loadContract().document) as Schema & { components: { securitySchemes: Schema } };
    document.components.securitySchemes.bearerAuth = { type: 'http', scheme: 'basic' };
    expect(() => compileContract(document)).toThrow(UnsupportedContractError);
    expect(() => compileContract(document)).toThrow('the security scheme bearerAuth (http basic; the kit serves http bearer only) at /components/securitySchemes/bearerAuth');
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
