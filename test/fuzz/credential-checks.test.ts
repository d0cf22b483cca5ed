/**
 * The checks of the credential family on single exchanges: `requires-auth` (what each kind of bad
 * credentials may get, warnings where the RFCs leave it open, challenges as RFC 9110 lists them)
 * and `credentials-first` (a double fault answered about its body is a warning, never a failure).
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { challengeSchemes } from '../../oracle/challenges.js';
import { challenges, judgeExchange, runChecks } from '../../oracle/index.js';
import type { Content, Credentials, HttpOutcome, RequestCase } from '../../oracle/types.js';

const contract = loadContract();
const ERROR_400 = '{"error":400,"message":"malformed JSON"}';
const ERROR_401 = '{"error":401,"message":"authorization: missing bearer credentials"}';

function request(credentials: Credentials, content: Content = 'valid', lenient?: string): RequestCase {
  return { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"Fern"}'), kind: content === 'valid' ? 'bad-auth' : 'double-fault', variant: '', content, credentials, setup: [], ...(lenient === undefined ? {} : { lenient }) };
}

function response(status: number, headers: Record<string, string> = {}, body = status === 400 ? ERROR_400 : ERROR_401): HttpOutcome {
  return { kind: 'response', status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body), durationMs: 1 };
}

const bearer = { 'www-authenticate': 'Bearer realm="plant-store"' };
const requiresAuth = (r: RequestCase, o: HttpOutcome) => judgeExchange('requires-auth', r, o, contract);
const credentialsFirst = (r: RequestCase, o: HttpOutcome) => judgeExchange('credentials-first', r, o, contract);

describe('requires-auth', () => {
  it.each(['missing', 'wrong-token', 'other-scheme', 'malformed'] as const)('holds for 401 with a Bearer challenge, and fails a 2xx, for %s credentials', (credentials) => {
    expect(requiresAuth(request(credentials), response(401, bearer))).toEqual([]);
    expect(requiresAuth(request(credentials), response(200, {}, '{"name":"Fern"}'))).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/accepted with 200/) as unknown }]);
  });

  it('lets malformed credentials get a declared 400; warns about one for another scheme; fails one for no credentials or a wrong token', () => {
    expect(requiresAuth(request('malformed'), response(400))).toEqual([]);
    expect(requiresAuth(request('other-scheme'), response(400))).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/RFC 6750, section 3\.1/) as unknown }]);
    expect(requiresAuth(request('missing'), response(400))).toMatchObject([{ severity: 'failure' }]);
    expect(requiresAuth(request('wrong-token'), response(400))).toMatchObject([{ severity: 'failure' }]);
    // 403 and 422 are no declared 4xx here, for malformed credentials neither.
    expect(requiresAuth(request('malformed'), response(403))).toMatchObject([{ severity: 'failure' }]);
    expect(requiresAuth(request('malformed'), response(422))).toMatchObject([{ severity: 'failure' }]);
  });

  it('makes a 2xx a warning where the credentials are left open (two fields, a token in the query), and only a 2xx', () => {
    const open = request('malformed', 'valid', 'RFC 9110 does not say which field a recipient reads');
    expect(requiresAuth(open, response(200, {}, '{"name":"Fern"}'))).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/allowed: RFC 9110 does not say/) as unknown }]);
    expect(requiresAuth(open, response(401))).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/without a WWW-Authenticate/) as unknown }]);
  });

  it('takes a Bearer challenge among several, on one line or on two (joined by the client), in any case', () => {
    for (const header of ['Basic realm="x", Bearer realm="y"', 'Basic realm="x", bearer realm="y"', 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", BEARER scope="plants"']) {
      expect(requiresAuth(request('missing'), response(401, { 'www-authenticate': header })), header).toEqual([]);
    }
  });

  it('warns about a bare Bearer challenge (RFC 6750, section 3), and fails an unquoted value with a space (RFC 9110, section 5.6.4)', () => {
    expect(requiresAuth(request('missing'), response(401, { 'www-authenticate': 'Bearer' }))).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/bare Bearer challenge/) as unknown }]);
    expect(requiresAuth(request('missing'), response(401, { 'www-authenticate': 'Bearer realm=Plant Store' }))).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/quoted-string/) as unknown }]);
  });

  it('finds a 401 whose challenges are all of other schemes, even where "Bearer" is written inside a parameter', () => {
    for (const header of ['Basic realm="x"', 'Basic realm="x, Bearer y"', 'Basic realm="x", bearer=1', 'Bearerish realm="x"']) {
      expect(requiresAuth(request('missing'), response(401, { 'www-authenticate': header })), header).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/no bearer challenge/) as unknown }]);
    }
  });
});

describe('the schemes of a WWW-Authenticate value (RFC 9110, section 11.6.1)', () => {
  it('lists each challenge once, parameters and quoted commas aside', () => {
    expect(challengeSchemes('Bearer')).toEqual(['Bearer']);
    expect(challengeSchemes('Bearer realm="plant-store", error="invalid_token"')).toEqual(['Bearer']);
    expect(challengeSchemes('Newauth realm="apps", type=1, title="Login to \\"apps\\", Basic", Basic realm="simple"')).toEqual(['Newauth', 'Basic']);
    expect(challengeSchemes('Basic dGVzdA==, Bearer')).toEqual(['Basic', 'Bearer']);
    expect(challengeSchemes('realm="x"')).toEqual([]);
    expect(challenges('Basic realm="x", Bearer realm="y"', 'bearer')).toBe(true);
  });
});

describe('credentials-first', () => {
  it.each(['missing', 'wrong-token'] as const)('warns, never fails, when a double fault with %s credentials gets a declared 4xx about its body', (credentials) => {
    const findings = runChecks(request(credentials, 'invalid'), response(400), contract);
    expect(findings.filter((f) => f.check === 'credentials-first')).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/RFC 6750, section 3 and RFC 9110, section 11\.6\.1/) as unknown }]);
    // The contract allows the 400: no check fails it.
    expect(findings.filter((f) => f.severity === 'failure')).toEqual([]);
  });

  it('is quiet for a 401, and leaves a 2xx and an undeclared status to the other checks', () => {
    expect(credentialsFirst(request('missing', 'invalid'), response(401, bearer))).toEqual([]);
    expect(credentialsFirst(request('missing', 'invalid'), response(200, {}, '{"name":"Fern"}'))).toEqual([]);
    expect(credentialsFirst(request('missing', 'invalid'), response(422))).toEqual([]);
  });

  it('does not judge malformed credentials or another scheme (a 400 may be about them), nor requests with one fault', () => {
    for (const credentials of ['malformed', 'other-scheme'] as const) expect(credentialsFirst(request(credentials, 'invalid'), response(400))).toEqual([]);
    expect(credentialsFirst(request('missing', 'valid'), response(400))).toEqual([]);
    expect(credentialsFirst({ ...request('valid', 'invalid'), kind: 'invalid-body' }, response(400))).toEqual([]);
  });
});
