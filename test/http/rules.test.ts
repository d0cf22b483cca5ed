/**
 * The pipeline's rules (src/http/rules.ts), through both servers without a socket: every rule in
 * HEAD_RULES and BODY_RULES has a request here that it refuses, with its code; of two head rules
 * a request breaks, the earlier one's refusal is the answer; and the reference and the mock give
 * the same refusal, since they run the same rules. A rule added to the lists without a line
 * here fails the first test of each group.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_RULES, byteOrderMarkRule, createJournal, ERROR_CATALOGUE, ROUTE_RULE, contentCodingRule, credentialsRule, declaredLengthRule, HEAD_RULES, jsonRule, mediaTypeRule, nestingRule, objectRule, presenceRule, schemaRule, sizeRule, utf8Rule, acceptAnyToken, DEFAULT_MAX_DEPTH, type AppRequest, type AppResponse, type BodyRule, type ErrorCode, type HeadRule } from '../../src/http/index.js';
import { createApp } from '../../src/reference/index.js';
import { createMock, type Mock } from '../../mock/index.js';
import { addPlant } from '../support/expect-answer.js';
import { TEST_TOKEN } from '../support/servers.js';

const LIMIT = 1024;
const VALID = '{"name":"Monstera","id":1}';
const base: AppRequest = { method: 'POST', url: '/plants', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body: VALID };
type Change = (request: AppRequest) => AppRequest;
const withHeaders =
  (headers: Record<string, string | undefined>): Change =>
  (request) => {
    const merged: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...request.headers, ...headers })) if (typeof value === 'string') merged[name] = value;
    return { ...request, headers: merged };
  };
const withBody =
  (body: string | Uint8Array): Change =>
  (request) => ({ ...request, body });

/** Each head rule, a change to a valid request that breaks it, and the code of its refusal. */
const HEAD_CASES: readonly (readonly [HeadRule, string, Change, ErrorCode])[] = [
  [credentialsRule, 'credentials', withHeaders({ authorization: undefined }), 'unauthorized'],
  [mediaTypeRule, 'media type', withHeaders({ 'content-type': 'text/plain' }), 'unsupported_media_type'],
  [contentCodingRule, 'content coding', withHeaders({ 'content-encoding': 'gzip' }), 'unsupported_encoding'],
  [declaredLengthRule, 'declared length', withHeaders({ 'content-length': String(LIMIT + 1) }), 'body_too_large'],
];

/** Each body rule, a body that breaks it, and the code of its refusal. */
const BODY_CASES: readonly (readonly [BodyRule, string, string | Uint8Array, ErrorCode])[] = [
  [sizeRule, 'size', `{"name":"${'a'.repeat(LIMIT)}","id":1}`, 'body_too_large'],
  [presenceRule, 'presence', '', 'invalid_body'],
  [utf8Rule, 'UTF-8', Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'invalid_utf8'],
  [byteOrderMarkRule, 'byte order mark', `\ufeff${VALID}`, 'malformed_json'],
  [nestingRule, 'nesting', `{"name":"a","id":1,"x":${'['.repeat(DEFAULT_MAX_DEPTH + 1)}${']'.repeat(DEFAULT_MAX_DEPTH + 1)}}`, 'too_deep'],
  [jsonRule, 'JSON', '{"name":"a",', 'malformed_json'],
  [schemaRule, 'schema', '{"name":"a"}', 'invalid_body'],
];

describe('the rules, in both servers', () => {
  const reference = createApp({ tokens: [TEST_TOKEN], maxBodyBytes: LIMIT });
  let mock: Mock;
  beforeAll(async () => {
    mock = await createMock({ maxBodyBytes: LIMIT });
  });
  const both = async (request: AppRequest): Promise<[AppResponse, AppResponse]> => [reference.request(request), await mock.request(request)];

  it('every head rule has its case here, in the lists order', () => {
    expect(HEAD_CASES.map(([rule]) => rule)).toEqual(HEAD_RULES);
  });

  it('every body rule has its case here, in the lists order (the object rule on its own below)', () => {
    expect([...BODY_CASES.map(([rule]) => rule), objectRule]).toEqual(BODY_RULES);
  });

  it.each(HEAD_CASES.map(([, name, change, code]) => [name, change, code] as const))('the %s rule refuses its case with %s', async (_name, change, code) => {
    for (const answer of await both(change(base))) expect([answer.status, answer.code]).toEqual([ERROR_CATALOGUE[code].status, code]);
  });

  it.each(HEAD_CASES.flatMap(([, first, breakFirst, code], i) => HEAD_CASES.slice(i + 1).map(([, second, breakSecond]) => [first, second, breakSecond, breakFirst, code] as const)))(
    'a request that breaks the %s rule and the %s rule gets the first one’s refusal',
    async (_first, _second, breakSecond, breakFirst, code) => {
      const [fromReference, fromMock] = await both(breakFirst(breakSecond(base)));
      expect(fromReference.code).toBe(code);
      expect(fromMock.code).toBe(code);
      expect(fromMock.body).toBe(fromReference.body);
    },
  );

  it('the route comes before every rule', async () => {
    const everything = HEAD_CASES.reduce((request, [, , change]) => change(request), { ...base, url: '/nowhere' });
    for (const answer of await both(everything)) expect(answer.code).toBe('not_found');
  });

  it.each(BODY_CASES.map(([, name, body, code]) => [name, body, code] as const))('the %s rule refuses its case with %s', async (_name, body, code) => {
    const [fromReference, fromMock] = await both(withBody(body)(base));
    expect([fromReference.status, fromReference.code]).toEqual([ERROR_CATALOGUE[code].status, code]);
    expect(fromMock.body).toBe(fromReference.body);
  });

  it('a journal names the rule that refused each case, the same in both servers; no two rules share a name', async () => {
    const [referenceJournal, mockJournal] = [createJournal(), createJournal()];
    const journaledReference = createApp({ tokens: [TEST_TOKEN], maxBodyBytes: LIMIT, journal: referenceJournal });
    const journaledMock = await createMock({ maxBodyBytes: LIMIT, journal: mockJournal });
    const cases = [...HEAD_CASES.map(([rule, , change, code]) => [rule, change(base), code] as const), ...BODY_CASES.map(([rule, , body, code]) => [rule, withBody(body)(base), code] as const)];
    for (const [, request] of cases) {
      journaledReference.request(request);
      await journaledMock.request(request);
    }
    const expected = cases.map(([rule, , code]) => ({ outcome: 'refused', rule: rule.ruleName, code }));
    expect(referenceJournal.list().map((entry) => entry.verdict)).toMatchObject(expected);
    expect(mockJournal.list().map((entry) => entry.verdict)).toMatchObject(expected);
    const names = [ROUTE_RULE, ...HEAD_RULES, ...BODY_RULES].map((rule) => (typeof rule === 'string' ? rule : rule.ruleName));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('the object rule refuses a value that is not an object (the contract’s schema refuses it first)', () => {
    const settings = { accept: acceptAnyToken, maxBodyBytes: LIMIT, maxDepth: DEFAULT_MAX_DEPTH };
    expect(objectRule({ bytes: new Uint8Array(), text: '[]', value: [] }, addPlant, settings)?.code).toBe('invalid_body');
    expect(objectRule({ bytes: new Uint8Array(), text: '{}', value: {} }, addPlant, settings)).toBeUndefined();
  });
});
