import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { challenges, CHECK_NAMES, CHECKS, judgeExchange, runChecks, sameJson, type CheckName } from '../../oracle/index.js';
import { parseJson, type Contract } from '../../src/openapi/index.js';
import type { CheckOptions, Credentials, Finding, HttpOutcome, RequestCase } from '../../oracle/types.js';

const contract = loadContract();
const JSON_TYPE = { 'content-type': 'application/json' };
const CHALLENGE = { ...JSON_TYPE, 'www-authenticate': 'Bearer realm="plant-store"' };

type Kind = 'valid' | 'invalid-body' | 'malformed-json' | 'bad-media-type' | 'bad-auth';

function request(kind: Kind, body: string, credentials: Credentials = kind === 'bad-auth' ? 'missing' : 'valid'): RequestCase {
  const content = kind === 'valid' || kind === 'bad-auth' ? 'valid' : 'invalid';
  return { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: Buffer.from(body), kind, variant: '', content, credentials, setup: [] };
}

/** One check of the registry as a function of an exchange. */
const check =
  (name: CheckName) =>
  (request: RequestCase, outcome: HttpOutcome, on: Contract, options?: CheckOptions): Finding[] =>
    judgeExchange(name, request, outcome, on, options);
const responseShape = check('response-shape');
const statusDeclared = check('status-declared');
const acceptsValid = check('accepts-valid');
const rejectsInvalid = check('rejects-invalid');
const requiresAuth = check('requires-auth');
const noServerError = check('no-server-error');
const echo = check('echo');

function response(status: number, body: string, headers: Record<string, string> = JSON_TYPE): HttpOutcome {
  return { kind: 'response', status, headers, body: Buffer.from(body), durationMs: 1 };
}

const failure: HttpOutcome = { kind: 'failure', failure: 'timeout', message: 'no complete response within 5000 ms', durationMs: 5000 };
const plant = request('valid', '{"name":"Monstera","id":1,"tag":"tropical"}');
const error400 = '{"error":400,"message":"name: is required"}';

describe('response-shape', () => {
  it('holds for a Plant with 200 and an Error with 400, application/json with or without parameters', () => {
    expect(responseShape(plant, response(200, '{"name":"Monstera","id":1}'), contract)).toEqual([]);
    expect(responseShape(plant, response(200, '{"name":"M"}', { 'content-type': 'Application/JSON; charset=utf-8' }), contract)).toEqual([]);
    expect(responseShape(request('invalid-body', '{}'), response(400, error400), contract)).toEqual([]);
  });

  it('finds a 200 that is not a Plant, and an Error whose error is a string or beyond int32', () => {
    expect(responseShape(plant, response(200, '{"id":1}'), contract)[0]?.message).toMatch(/not Plant \(name: is required\)/);
    expect(responseShape(plant, response(400, '{"error":"Bad Request","message":"x"}'), contract)[0]?.message).toMatch(/not Error \(error: must be an integer\)/);
    expect(responseShape(plant, response(400, '{"error":2147483648,"message":"x"}'), contract)[0]?.message).toMatch(/int32/);
  });

  it('finds the wrong media type, plain text, an empty body and a missing declared header', () => {
    expect(responseShape(plant, response(400, error400, { 'content-type': 'application/problem+json' }), contract)[0]?.message).toMatch(/Content-Type is "application\/problem\+json"/);
    expect(responseShape(plant, response(400, 'Bad Request', { 'content-type': 'text/plain' }), contract).map((v) => v.message).join()).toMatch(/not JSON/);
    expect(responseShape(plant, response(200, '', {}), contract).map((v) => v.message).join()).toMatch(/Content-Type is missing.*not JSON/s);
    expect(responseShape(request('bad-auth', '{}'), response(401, '{"error":401,"message":"x"}'), contract)[0]?.message).toMatch(/www-authenticate header/);
  });

  it('leaves undeclared statuses and transport failures to the other checks', () => {
    expect(responseShape(plant, response(500, '<html>'), contract)).toEqual([]);
    expect(responseShape(plant, failure, contract)).toEqual([]);
  });
});

describe('status-declared', () => {
  it('holds for 200, 400 and 401 and finds 201, 403, 415, 422 and 500', () => {
    for (const status of [200, 400, 401]) expect(statusDeclared(plant, response(status, '{}'), contract)).toEqual([]);
    for (const status of [201, 403, 415, 422, 500]) expect(statusDeclared(plant, response(status, '{}'), contract)[0]?.message).toContain(`status ${status} is not declared`);
  });
});

describe('accepts-valid', () => {
  it('holds for 200 and finds any other answer to a valid request', () => {
    expect(acceptsValid(plant, response(200, '{}'), contract)).toEqual([]);
    expect(acceptsValid(plant, response(201, '{}'), contract)[0]?.message).toMatch(/got 201, expected 200/);
    expect(acceptsValid(plant, response(400, error400), contract)[0]?.message).toContain('name: is required');
  });

  it('says nothing about invalid requests, server errors (no-server-error does) or failures', () => {
    expect(acceptsValid(request('invalid-body', '{}'), response(400, error400), contract)).toEqual([]);
    expect(acceptsValid(plant, response(503, ''), contract)).toEqual([]);
    expect(acceptsValid(plant, failure, contract)).toEqual([]);
  });
});

describe('rejects-invalid', () => {
  it('accepts any declared 4xx, not only the 400 the reference uses (decision 6)', () => {
    for (const label of ['invalid-body', 'malformed-json', 'bad-media-type'] as const) {
      expect(rejectsInvalid(request(label, '{}'), response(400, error400), contract)).toEqual([]);
      expect(rejectsInvalid(request(label, '{}'), response(401, '{}'), contract)).toEqual([]);
    }
  });

  it('finds a success and an undeclared 4xx', () => {
    expect(rejectsInvalid(request('invalid-body', '{"id":1}'), response(200, '{}'), contract)[0]?.message).toMatch(/got 200, expected a declared 4xx \(400, 401\)/);
    expect(rejectsInvalid(request('bad-media-type', '{}'), response(415, '{}'), contract)).toHaveLength(1);
    expect(rejectsInvalid(request('malformed-json', '{'), response(500, ''), contract)).toEqual([]);
  });
});

describe('requires-auth', () => {
  it('holds for a 401 with a Bearer challenge, among others and in any case', () => {
    expect(requiresAuth(request('bad-auth', '{}'), response(401, '{}', CHALLENGE), contract)).toEqual([]);
    expect(requiresAuth(request('bad-auth', '{}', 'wrong-token'), response(401, '{}', { 'www-authenticate': 'Basic realm="x", bearer error="invalid_token"' }), contract)).toEqual([]);
  });

  it('finds a success, a 401 without or with the wrong challenge, and a 403', () => {
    expect(requiresAuth(request('bad-auth', '{}'), response(200, '{}'), contract)[0]?.message).toMatch(/accepted with 200/);
    expect(requiresAuth(request('bad-auth', '{}'), response(401, '{}'), contract)[0]?.message).toMatch(/without a WWW-Authenticate/);
    expect(requiresAuth(request('bad-auth', '{}'), response(401, '{}', { 'www-authenticate': 'Basic realm="x"' }), contract)[0]?.message).toMatch(/no bearer challenge/);
    expect(requiresAuth(request('bad-auth', '{}', 'wrong-token'), response(403, '{}'), contract)[0]?.message).toMatch(/got 403, expected 401/);
  });

  it('lets malformed credentials get 400 (RFC 6750, section 3.1), but not missing or wrong ones', () => {
    expect(requiresAuth(request('bad-auth', '{}', 'malformed'), response(400, error400), contract)).toEqual([]);
    expect(requiresAuth(request('bad-auth', '{}', 'missing'), response(400, error400), contract)).toHaveLength(1);
    expect(requiresAuth(request('bad-auth', '{}', 'wrong-token'), response(400, error400), contract)).toHaveLength(1);
  });

  it('reads challenges as RFC 9110 lists them', () => {
    expect(challenges('Bearer', 'bearer')).toBe(true);
    expect(challenges('Bearerish realm="x"', 'bearer')).toBe(false);
    expect(challenges(undefined, 'bearer')).toBe(false);
  });
});

describe('no-server-error', () => {
  it('finds 5xx and every transport failure, for every kind of request', () => {
    expect(noServerError(plant, response(200, '{}'), contract)).toEqual([]);
    expect(noServerError(plant, response(502, 'Bad Gateway'), contract)[0]?.message).toMatch(/got 502; body: Bad Gateway/);
    expect(noServerError(request('malformed-json', '{'), failure, contract)[0]?.message).toMatch(/timeout/);
  });
});

describe('the target and Host framings (RFC 9112, sections 3.2 and 3.2.2)', () => {
  const absolute: RequestCase = { ...plant, kind: 'framing', framing: { absoluteForm: true }, lenient: 'RFC 9112, section 3.2.2', lenientAbout: 'target' };
  const noHost: RequestCase = { ...plant, kind: 'framing', content: 'invalid', framing: { noHost: true } };
  const http10 = (outcome: HttpOutcome): HttpOutcome => (outcome.kind === 'response' ? { ...outcome, wire: { connection: 1, exchangesBefore: 0, framing: 'content-length', receivedLength: 0, contentCodings: [], transferCodings: [], others: [], version: '1.0' } } : outcome);

  it('warns of any 4xx to an absolute-form target, an undeclared 404 included, and fails a 5xx', () => {
    const notFound = response(404, '{"error":404,"message":"not found"}');
    expect(acceptsValid(absolute, notFound, contract).map((f) => f.severity)).toEqual(['warning']);
    expect(statusDeclared(absolute, notFound, contract)).toEqual([]);
    expect(noServerError(absolute, response(500, '{"error":500,"message":"x"}'), contract).map((f) => f.severity)).toEqual(['failure']);
  });

  it('fails a 200 without Host from an HTTP/1.1 server, not from one that answers as HTTP/1.0 (RFC 9110, section 2.5)', () => {
    const ok = response(200, '{"name":"Fern","id":1}');
    expect(rejectsInvalid(noHost, ok, contract).map((f) => f.severity)).toEqual(['failure']);
    expect(rejectsInvalid(noHost, http10(ok), contract)).toEqual([]);
  });
});

describe('echo of a write in flight with others of the same resource (RequestCase.rivals)', () => {
  const write = (name: string, tag?: string): string => JSON.stringify({ name, id: 7, ...(tag === undefined ? {} : { tag }) });
  const own = write('Fern', 'green');
  const rival = write('Moss');
  const racing: RequestCase = { ...request('valid', own), rivals: [Buffer.from(rival)] };

  it('passes its own write and a rival one, as stored when it answered', () => {
    expect(echo(racing, response(200, own), contract)).toEqual([]);
    expect(echo(racing, response(200, rival), contract)).toEqual([]);
  });

  it('fails a mix of the writes, and says so', () => {
    const findings = echo(racing, response(200, write('Moss', 'green')), contract);
    expect(findings.map((f) => f.severity)).toEqual(['failure']);
    expect(findings[0]?.message).toMatch(/none of the 2 writes of this resource in flight together \(a mix of them\)/);
  });
});

describe('echo', () => {
  const sent = (body: string): RequestCase => request('valid', body);

  it('holds when name, tag and id come back exactly, ids compared as integers', () => {
    expect(echo(sent('{"name":"𝕄onstera","id":1e2,"tag":"a"}'), response(200, '{"id":100,"name":"𝕄onstera","tag":"a"}'), contract)).toEqual([]);
    expect(echo(sent('{"name":"x","id":9223372036854775807}'), response(200, '{"name":"x","id":9223372036854775807}'), contract)).toEqual([]);
    expect(echo(sent('{"name":"x","id":-0}'), response(200, '{"name":"x","id":0.0}'), contract)).toEqual([]);
  });

  it('accepts an id left out or written as the string of its digits, but never rounded', () => {
    expect(echo(sent('{"name":"x","id":5}'), response(200, '{"name":"x"}'), contract)).toEqual([]);
    expect(echo(sent('{"name":"x","id":9007199254740993}'), response(200, '{"name":"x","id":"9007199254740993"}'), contract)).toEqual([]);
    expect(echo(sent('{"name":"x","id":9007199254740993}'), response(200, '{"name":"x","id":9007199254740992}'), contract)[0]?.message).toMatch(/id was sent as 9007199254740993 but came back as 9007199254740992/);
  });

  it('finds a name changed, truncated or mangled, and a tag left out or changed', () => {
    expect(echo(sent('{"name":" x ","id":1}'), response(200, '{"name":"x","id":1}'), contract)[0]?.message).toMatch(/name was sent as " x " but came back as "x"/);
    const long = 'ab'.repeat(6000);
    expect(echo(sent(JSON.stringify({ name: long, id: 1 })), response(200, JSON.stringify({ name: long.slice(0, 255), id: 1 })), contract)[0]?.message).toMatch(/12000 vs 255 code points; first difference at 255/);
    expect(echo(sent('{"name":"🌱","id":1}'), response(200, '{"name":"\\ufffd","id":1}'), contract)[0]?.message).toMatch(/sent U\+1F331, got U\+FFFD/);
    expect(echo(sent('{"name":"x","id":1,"tag":"A"}'), response(200, '{"name":"x","id":1}'), contract)[0]?.message).toMatch(/tag was sent as "A" but came back as nothing/);
    expect(echo(sent('{"name":"x","id":1,"tag":"A"}'), response(200, '{"name":"x","id":1,"tag":"a"}'), contract)).toHaveLength(1);
  });

  it('is not run under the mock profile, nor on anything but a success', () => {
    const changed = response(200, '{"name":"y","id":1}');
    expect(echo(sent('{"name":"x","id":1}'), changed, contract)).toHaveLength(1);
    expect(echo(sent('{"name":"x","id":1}'), changed, contract, { profile: 'mock' })).toEqual([]);
    expect(echo(sent('{"name":"x","id":1}'), response(400, error400), contract)).toEqual([]);
  });
});

describe('sameJson', () => {
  it('compares integers exactly whatever their spelling, other values structurally', () => {
    const same = (a: string, b: string): boolean => sameJson(parseJson(a), parseJson(b));
    expect(same('1e2', '100')).toBe(true);
    expect(same('12.50e1', '125')).toBe(true);
    expect(same('1.5', '1.50')).toBe(true);
    expect(same('9223372036854775807', '9223372036854775806')).toBe(false);
    expect(same('[1,{"a":null}]', '[1.0,{"a":null}]')).toBe(true);
    expect(same('{"a":1}', '{"a":1,"b":2}')).toBe(false);
    expect(same('"1"', '1')).toBe(false);
  });
});

describe('runChecks', () => {
  it('runs every exchange check and returns findings as data, each naming its check and severity', () => {
    const violations = runChecks(plant, response(500, 'oops', { 'content-type': 'text/plain' }), contract);
    expect(violations.map((v) => v.check).sort()).toEqual(['no-server-error', 'status-declared']);
    expect(runChecks(plant, response(200, '{"name":"Monstera","id":1,"tag":"tropical"}'), contract)).toEqual([]);
  });
});

describe('severities: a hazard the contract allows is a warning, never a failure', () => {
  const lenient = (c: RequestCase): RequestCase => ({ ...c, lenient: 'the contract leaves it open' });

  it('a lenient valid request may be refused with a declared 4xx (a warning), but not with an undeclared one', () => {
    expect(acceptsValid(lenient(plant), response(400, error400), contract)).toMatchObject([{ check: 'accepts-valid', severity: 'warning' }]);
    expect(acceptsValid(lenient(plant), response(422, error400), contract)).toMatchObject([{ check: 'accepts-valid', severity: 'failure' }]);
    expect(acceptsValid(plant, response(400, error400), contract)).toMatchObject([{ severity: 'failure' }]);
  });

  it('a lenient valid request echoed differently is a warning; one lenient only about refusal, a failure', () => {
    expect(echo(lenient(plant), response(200, '{"name":"x","tag":"tropical","id":1}'), contract)).toMatchObject([{ check: 'echo', severity: 'warning' }]);
    const refusalOnly: RequestCase = { ...lenient(plant), lenientAbout: 'refusal' };
    expect(acceptsValid(refusalOnly, response(400, error400), contract)).toMatchObject([{ check: 'accepts-valid', severity: 'warning' }]);
    expect(echo(refusalOnly, response(200, '{"name":"x","tag":"tropical","id":1}'), contract)).toMatchObject([{ check: 'echo', severity: 'failure' }]);
  });

  it('a lenient invalid request may be accepted (a warning); a strict one may not', () => {
    const invalid = request('malformed-json', '{"name":"\u00ff","id":1}');
    expect(rejectsInvalid(lenient(invalid), response(200, '{"name":"x","id":1}'), contract)).toMatchObject([{ check: 'rejects-invalid', severity: 'warning' }]);
    expect(rejectsInvalid(invalid, response(200, '{"name":"x","id":1}'), contract)).toMatchObject([{ severity: 'failure' }]);
  });

  it('a double fault (bad credentials and an invalid body) may get 401 or a declared 4xx, never a success', () => {
    const both: RequestCase = { ...request('invalid-body', '{"id":1}'), credentials: 'missing' };
    expect(requiresAuth(both, response(400, error400), contract)).toEqual([]);
    expect(requiresAuth(both, response(401, '{"error":401,"message":"no"}', CHALLENGE), contract)).toEqual([]);
    expect(requiresAuth(both, response(200, '{"name":"x"}'), contract)).toMatchObject([{ severity: 'failure' }]);
    expect(rejectsInvalid(both, response(401, '{"error":401,"message":"no"}', CHALLENGE), contract)).toEqual([]);
  });
});

describe('the registry', () => {
  it('names every check once, each with a one-line description, exchange checks and run checks alike', () => {
    expect(new Set(CHECK_NAMES).size).toBe(CHECKS.length);
    for (const check of CHECKS) {
      expect(check.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(check.description.length, check.name).toBeGreaterThan(20);
      expect(check.description, check.name).not.toContain('\n');
    }
  });

  it('skips a check under a profile only with a reason, and then never applies it', () => {
    expect(echo(plant, response(200, '{"name":"x"}'), contract, { profile: 'mock' })).toEqual([]);
    for (const check of CHECKS) for (const reason of Object.values(check.skippedUnder ?? {})) expect(reason.length).toBeGreaterThan(10);
  });
});
