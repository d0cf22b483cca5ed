/**
 * The plan of an operation's credentials and the attacks per scheme (fuzz/generation/tables/
 * scheme-credentials.ts), on the greenhouse example (every scheme the kit serves, alternatives,
 * an AND requirement, an open operation): what docs/credentials.md's table "Every security scheme" says.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract, type OperationContract } from '../../src/openapi/index.js';
import { alternativeSpellings, credentialPlan, schemeAttacks, validSpelling, type EngineCredentials } from '../../fuzz/generation/tables/scheme-credentials.js';

const contract = loadContract(resolve(import.meta.dirname, '../../examples/contracts/greenhouse-security.yaml'));
const operation = (id: string): OperationContract => contract.operations.find((o) => o.operationId === id) as OperationContract;
const given: EngineCredentials = { schemes: { keyHeader: 'k-head-1', keyQuery: 'k-query-1', keyCookie: 'k-cookie-1', basicAuth: 'ann:pw-1', oauth: 'tok-1', oidc: 'tok-2' }, headers: {} };

describe('the plan of an operation', () => {
  it('an open operation needs nothing; the bundled contract keeps its bearer path', () => {
    expect(credentialPlan(operation('status'), '', given, 'reference').kind).toBe('open');
    expect(credentialPlan(loadContract().operations[0] as OperationContract, 'tok', given, 'reference').kind).toBe('bearer');
  });

  it('without credentials for any alternative the operation is unreachable, naming what it needs', () => {
    const plan = credentialPlan(operation('listSensors'), '', { schemes: {}, headers: {} }, 'reference');
    expect(plan).toMatchObject({ kind: 'unreachable', reason: expect.stringContaining('keyHeader, or keyQuery, or keyCookie') as unknown });
    // The bearer token serves OAuth 2 and OpenID Connect schemes given none.
    expect(credentialPlan(operation('readings'), 'tok', { schemes: {}, headers: {} }, 'reference').kind).toBe('schemes');
  });

  it('each key in its place; each other alternative alone, valid', () => {
    const plan = credentialPlan(operation('listSensors'), '', given, 'reference');
    expect(validSpelling(plan.kind === 'schemes' ? plan.parts : [])).toMatchObject({ fields: { 'x-api-key': 'k-head-1' }, credentials: 'valid' });
    const alone = alternativeSpellings(plan);
    expect(alone.map((a) => [a.query, a.fields?.cookie, a.credentials])).toEqual([
      ['api_key=k-query-1', undefined, 'valid'],
      [undefined, 'greenhouse_session=k-cookie-1', 'valid'],
    ]);
  });
});

describe('the attacks per scheme', () => {
  const attacks = (id: string, profile: 'reference' | 'mock' = 'reference') => schemeAttacks(credentialPlan(operation(id), '', given, profile), profile);

  it('an API key: missing, empty, near misses, and the key in each wrong place', () => {
    const sent = attacks('listSensors');
    expect(sent.map((a) => a.credentials)).toEqual(['missing', 'malformed', 'wrong-token', 'wrong-token', 'missing', 'missing']);
    expect(sent.every((a) => a.attacked === 'apiKey')).toBe(true);
    const wrongPlaces = sent.slice(-2);
    expect(wrongPlaces.map((a) => [a.query, a.fields?.cookie, a.fields?.['x-api-key']])).toEqual([
      // The header's name as HTTP compares it (lower case), now in the query and in a cookie.
      ['x-api-key=k-head-1', undefined, undefined],
      [undefined, 'x-api-key=k-head-1', undefined],
    ]);
    // A mock accepts any key: no wrong keys, the rest stays.
    expect(attacks('listSensors', 'mock').map((a) => a.credentials)).toEqual(['missing', 'malformed', 'missing', 'missing']);
  });

  it('HTTP basic: a wrong password, no colon, bad base64, another scheme', () => {
    // The test contract's getTool: basic, or the key (the greenhouse has basic only with a key, or optional).
    const shed = loadContract(resolve(import.meta.dirname, '../conformance/fixtures/shed-keys.yaml'));
    const getTool = shed.operations.find((o) => o.operationId === 'getTool') as OperationContract;
    const sent = schemeAttacks(credentialPlan(getTool, '', { schemes: { shedBasic: 'ann:pw-1', shedKey: 'k' }, headers: {} }, 'reference'), 'reference');
    expect(sent.map((a) => [a.credentials, a.header?.split(' ')[0]])).toEqual([
      ['missing', undefined],
      ['wrong-token', 'Basic'],
      ['malformed', 'Basic'],
      ['malformed', 'Basic'],
      ['other-scheme', 'Bearer'],
    ]);
    expect(Buffer.from(sent[1]?.header?.slice(6) ?? '', 'base64').toString()).toBe('ann:pw-1x');
    expect(Buffer.from(sent[2]?.header?.slice(6) ?? '', 'base64').toString()).toBe('annpw-1');
  });

  it('an AND requirement: each part missing in turn, the other sent valid', () => {
    const both = contract.operations.find((o) => o.securedBy.some((alternative) => alternative.length > 1));
    expect(both).toBeDefined();
    const sent = schemeAttacks(credentialPlan(both as OperationContract, '', given, 'reference'), 'reference');
    const missing = sent.filter((a) => a.credentials === 'missing' && a.shown.startsWith('one part missing'));
    expect(missing.length).toBe((both as OperationContract).securedBy[0]?.length);
  });
});
