/**
 * Classifying observed requests (oracle/classify.ts): an observed request is what the engine says
 * its own request is - the same content, credentials and leniency - for every coverage case and
 * for random ones, and gets the findings `conform` gives it, for the reference's answers and for
 * faulty ones; then what only an observer meets (another path, a content coding, a byte order
 * mark, duplicate names, a body not kept whole, a token it does not know), each with the rule's
 * reason, and the readings: a finding stands only where every reading gives it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject, isLosslessNumber, LosslessNumber, loadContract, parseJson, stringifyJson } from '../../src/openapi/index.js';
import { createApp, type AppResponse } from '../../src/reference/index.js';
import { CREDENTIAL_VARIANTS } from '../../oracle/credential-table.js';
import { classifyRequest, coverageCases, judgeObserved, interpretationsOf, requestArbitrary, runChecks, type Finding, type HttpOutcome, type HttpRequest, type RequestCase } from '../../fuzz/index.js';
import { fullStore } from '../support/contracts.js';
import { fcParameters } from '../support/seed.js';

const contract = loadContract();
const TOKEN = 'classify-token_1';

function response(status: number, body = '', headers: Record<string, string> = { 'content-type': 'application/json' }): HttpOutcome {
  return { kind: 'response', status, headers, body: Buffer.from(body), durationMs: 1 };
}

function request(overrides: Partial<Omit<HttpRequest, 'body'>> & { readonly body?: string | Uint8Array } = {}): HttpRequest {
  const { body, ...rest } = overrides;
  return {
    method: 'POST',
    path: '/plants',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...rest,
    body: typeof body === 'string' ? Buffer.from(body) : (body ?? Buffer.from('{"name":"Fern","id":1}')),
  };
}

/** A token in the query that is not the token: the observer cannot tell it from the token (it reads it as the answer shows). */
const TOKEN_IN_QUERY_LENIENCY = CREDENTIAL_VARIANTS.find((v) => v.name === 'token-in-query')?.lenient;
function wrongTokenInQuery(c: RequestCase): boolean {
  const query = new URLSearchParams(c.path.split('?')[1] ?? '').get('access_token');
  return c.headers.authorization === undefined && query !== null && query !== TOKEN;
}

/** What the observer must conclude of an engine request: its class, the wrong token read as unknown. */
function expectSameClass(c: RequestCase): void {
  const classified = classifyRequest(contract, c, { tokens: [TOKEN] });
  const what = `${c.kind}: ${c.variant}`;
  expect(classified.operation?.operationId, what).toBe('addPlant');
  // A body whose meaning the RFC leaves open (duplicate names: RFC 8259, section 4) the observer reads
  // both ways, as the engine's own request allows either reading.
  expect(classified.content, what).toBe(c.open !== undefined && classified.content === 'open' ? 'open' : c.content);
  expect(classified.credentials, what).toBe(c.credentials === 'wrong-token' ? 'unknown-token' : c.credentials);
  const [reading] = interpretationsOf(c, classified, response(c.credentials === 'wrong-token' ? 401 : 200));
  expect(reading?.credentials, what).toBe(c.credentials);
  expect(reading?.lenient, what).toBe(wrongTokenInQuery(c) && c.content === 'valid' ? TOKEN_IN_QUERY_LENIENCY : c.lenient);
}

describe('an observed request is what the engine says its own request is', () => {
  // Without Host, with an absolute-form target, one written exactly (target-spellings) or spelt
  // otherwise (RequestFraming.spelling), what a request is lies on the wire (RFC 9112), where the
  // engine judges it; an observer classifies fields, body and credentials.
  const coverage = coverageCases(contract, { token: TOKEN }).filter((c) => c.framing?.noHost !== true && c.framing?.absoluteForm !== true && c.framing?.spelling === undefined && c.framing?.target === undefined);

  it('every coverage case (setup requests included): content, credentials (a wrong token is one the observer does not know) and leniency', () => {
    expect(coverage.length).toBeGreaterThan(200);
    // A request of another method is for no operation: the observer classifies it as none (method-semantics judges the engine's own).
    for (const c of [...coverage, ...coverage.flatMap((k) => k.setup)].filter((k) => k.kind !== 'other-method')) expectSameClass(c);
  });

  it('random requests of every kind', () => {
    fc.assert(
      fc.property(requestArbitrary(contract, { token: TOKEN }), (c) => {
        expectSameClass(c);
      }),
      fcParameters('observed requests: the engine class', 300),
    );
  });

  /** Answers of a faulty implementation, made from the reference's. */
  const ANSWERS: readonly (readonly [string, (answer: AppResponse) => AppResponse])[] = [
    ['the reference', (answer) => answer],
    ['201 for a new plant', (answer) => (answer.status === 200 ? { ...answer, status: 201 } : answer)],
    ['the tag dropped', (answer) => onPlant(answer, (plant) => Object.fromEntries(Object.entries(plant).filter(([key]) => key !== 'tag')))],
    ['the id rounded through a double', (answer) => onPlant(answer, (plant) => (isLosslessNumber(plant.id) ? { ...plant, id: new LosslessNumber(String(Number(plant.id.value))) } : plant))],
    ['a 401 without its challenge', (answer) => (answer.status === 401 ? { ...answer, headers: { 'content-type': 'application/json' } } : answer)],
    ['a 500 for everything', () => ({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":500,"message":"down"}' })],
    ['problem+json errors', (answer) => (answer.status === 200 ? answer : { ...answer, headers: { ...answer.headers, 'content-type': 'application/problem+json' } })],
  ];

  it.for(ANSWERS.map(([name]) => name))('gets the findings conform gives it, every coverage case answered with %s', (name) => {
    const change = ANSWERS.find(([n]) => n === name)?.[1] ?? ((a: AppResponse) => a);
    const app = createApp({ tokens: [TOKEN] });
    const findings = (list: readonly Finding[]): string[] => list.map((f) => `${f.check} ${f.severity}`).sort();
    let found = 0;
    for (const c of coverage) {
      for (const setup of c.setup) answerOf(app, setup);
      const outcome = toOutcome(change(answerOf(app, c)));
      const expected = findings(runChecks(c, outcome, contract));
      found += expected.length;
      expect(findings(judgeObserved(contract, c, classifyRequest(contract, c, { tokens: [TOKEN] }), outcome).findings), `${c.kind}: ${c.variant}`).toEqual(expected);
    }
    // The faulty answers are caught, the reference's are not: the comparison saw findings where there are some.
    if (name === 'the reference') expect(found).toBe(0);
    else expect(found).toBeGreaterThan(0);
  });
});

function onPlant(answer: AppResponse, change: (plant: Record<string, unknown>) => Record<string, unknown>): AppResponse {
  if (answer.status !== 200) return answer;
  const plant = parseJson(answer.body);
  return isJsonObject(plant) ? { ...answer, body: stringifyJson(change(plant)) } : answer;
}

/** The reference's answer, without a socket; a second Authorization field joined to the first, as its socket layer does. */
function answerOf(app: ReturnType<typeof createApp>, c: RequestCase): AppResponse {
  const more = (c.extraLines ?? []).filter(([name]) => name === 'authorization').map(([, value]) => value);
  const headers = more.length === 0 ? c.headers : { ...c.headers, authorization: [c.headers.authorization, ...more].join(', ') };
  return app.request({ method: c.method, url: c.path, headers, body: c.body });
}

function toOutcome(answer: AppResponse): HttpOutcome {
  return response(answer.status, answer.body, answer.headers);
}

describe('the parameters of every operation (the example full store)', () => {
  const full = fullStore();
  const coverage = coverageCases(full, { token: TOKEN });

  it('every coverage case of every operation gets its content and credentials: a refused path or query parameter is invalid', () => {
    // A request without Host, or spelt as RFC 9112 refuses, is invalid by its framing, which an observer never sees (a server refuses it before any proxy or handler);
    // a target spelled otherwise (target-spellings) is what the wire says, where the engine judges it.
    const cases = [...coverage, ...coverage.flatMap((k) => k.setup)].filter((k) => k.kind !== 'other-method' && k.kind !== 'target-spellings' && k.framing?.noHost !== true && k.framing?.spelling === undefined);
    expect(cases.filter((c) => c.kind === 'invalid-parameter').length).toBeGreaterThan(10);
    for (const c of cases) {
      const classified = classifyRequest(full, c, { tokens: [TOKEN] });
      const what = `${c.kind}: ${c.variant} (${c.method} ${c.path})`;
      expect(classified.content, what).toBe(c.open !== undefined && classified.content === 'open' ? 'open' : c.content);
      expect(classified.credentials, what).toBe(c.credentials === 'wrong-token' ? 'unknown-token' : c.credentials);
    }
  });

  it('a scalar query parameter given twice is open: the form style writes it once, and which one a server takes is left open', () => {
    const list = full.operationById('listPlants');
    const twice = { method: list?.method ?? '', path: `${list?.path ?? ''}?limit=1&limit=2`, headers: { authorization: `Bearer ${TOKEN}` }, body: Buffer.alloc(0) };
    expect(classifyRequest(full, twice, { tokens: [TOKEN] }).content).toBe('open');
    expect(classifyRequest(full, { ...twice, path: `${list?.path ?? ''}?limit=0&limit=2` }, { tokens: [TOKEN] }).content).toBe('open');
    expect(classifyRequest(full, { ...twice, path: `${list?.path ?? ''}?limit=0` }, { tokens: [TOKEN] })).toMatchObject({ content: 'invalid', contentReason: 'query parameter limit: must be >= 1' });
  });
});

describe('what only an observer meets, and why', () => {
  const classify = (r: HttpRequest, options: Parameters<typeof classifyRequest>[2] = { tokens: [TOKEN] }) => classifyRequest(contract, r, options);

  it.for<[string, HttpRequest, string, string]>([
    ['another path', request({ method: 'GET', path: '/health' }), 'open', 'open'],
    ['another method on the path', request({ method: 'DELETE' }), 'open', 'open'],
    ['a gzip body: the contract names no coding, a server may decode or refuse it (RFC 9110, section 8.4)', request({ headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'gzip' } }), 'open', 'valid'],
    ['Content-Encoding: identity is no coding', request({ headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'identity' } }), 'valid', 'valid'],
    ['a byte order mark before a valid body (RFC 8259, section 8.1: a parser may ignore it)', request({ body: '\ufeff{"name":"Fern","id":1}' }), 'open', 'valid'],
    ['a byte order mark before an invalid body: invalid either way', request({ body: '\ufeff{"name":"Fern"}' }), 'invalid', 'valid'],
    ['a name twice with different values (RFC 8259, section 4)', request({ body: '{"name":"Fern","id":1,"id":2}' }), 'open', 'valid'],
    ['trailing data after the value', request({ body: '{"name":"Fern","id":1} x' }), 'invalid', 'valid'],
    ['an id beyond int64', request({ body: '{"name":"Fern","id":9223372036854775808}' }), 'invalid', 'valid'],
    ['the largest int64 id', request({ body: '{"name":"Fern","id":9223372036854775807}' }), 'valid', 'valid'],
    ['a media type with a charset', request({ headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'Application/JSON; charset=utf-8' } }), 'valid', 'valid'],
    ['text/plain', request({ headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' } }), 'invalid', 'valid'],
    ['no credentials', request({ headers: { 'content-type': 'application/json' } }), 'valid', 'missing'],
    ['Basic credentials', request({ headers: { authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' } }), 'valid', 'other-scheme'],
    ['a bearer token the observer knows', request(), 'valid', 'valid'],
    ['the scheme in lower case', request({ headers: { authorization: `bearer ${TOKEN}`, 'content-type': 'application/json' } }), 'valid', 'valid'],
    ['a bearer token the observer does not know', request({ headers: { authorization: 'Bearer someone-else', 'content-type': 'application/json' } }), 'valid', 'unknown-token'],
    ['a token that is no b64token', request({ headers: { authorization: 'Bearer a"b', 'content-type': 'application/json' } }), 'valid', 'malformed'],
  ])('%s', ([, r, content, credentials]) => {
    const classified = classify(r);
    expect(classified.content).toBe(content);
    expect(classified.credentials).toBe(credentials);
    expect(classified.contentReason).not.toBe('');
    expect(`${classified.contentReason} ${classified.credentialsReason}`).not.toContain(TOKEN);
  });

  it('without tokens, every well-formed bearer token is unknown', () => {
    expect(classify(request(), {}).credentials).toBe('unknown-token');
  });

  it('a body not kept whole is open; one nested past the limit given is open, below it judged', () => {
    expect(classify(request(), { tokens: [TOKEN], complete: false }).content).toBe('open');
    const deep = `{"name":"Fern","id":1,"x":${'['.repeat(70)}${']'.repeat(70)}}`;
    expect(classify(request({ body: deep }), { tokens: [TOKEN], maxDepth: 64 }).content).toBe('open');
    expect(classify(request({ body: deep }), { tokens: [TOKEN], maxDepth: 100 }).content).toBe('valid');
  });

  it('invalid UTF-8 inside a string is invalid and lenient as the engine has it; between tokens, only invalid', () => {
    const inString = Buffer.concat([Buffer.from('{"name":"F'), Buffer.from([0xff]), Buffer.from('ern","id":1}')]);
    const between = Buffer.concat([Buffer.from('{'), Buffer.from([0xff]), Buffer.from('"name":"Fern","id":1}')]);
    expect(classify(request({ body: inString }))).toMatchObject({ content: 'invalid', contentLenient: expect.stringContaining('RFC 8259, section 9') as unknown });
    expect(classify(request({ body: between })).contentLenient).toBeUndefined();
  });
});

describe('the readings, and the findings every reading gives', () => {
  const observe = (r: HttpRequest, outcome: HttpOutcome, tokens: readonly string[] = []) => judgeObserved(contract, r, classifyRequest(contract, r, { tokens }), outcome);
  const checks = (findings: readonly Finding[]): string[] => findings.map((f) => f.check);
  const plant = '{"name":"Fern","id":1}';
  const challenge = { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="x"' };

  it('an unknown token refused with a 401 is a wrong token: rule 1 is not asserted, the challenge is', () => {
    const refused = observe(request(), response(401, '{"error":401,"message":"no"}', challenge));
    expect(refused.interpretations.map((r) => r.credentials)).toEqual(['wrong-token']);
    expect(refused.findings).toEqual([]);
    expect(refused.judgedBy).not.toContain('accepts-valid');
    // Without its challenge the 401 breaks the contract's required header too.
    expect(checks(observe(request(), response(401, '{"error":401,"message":"no"}')).findings)).toEqual(['response-shape', 'requires-auth']);
  });

  it('the same 401 to a token the observer knows breaks rule 1', () => {
    expect(checks(observe(request(), response(401, '{"error":401,"message":"no"}', challenge), [TOKEN]).findings)).toEqual(['accepts-valid']);
  });

  it('an unknown token answered otherwise is read as accepted: a 201 breaks rule 1, a changed echo is an echo failure', () => {
    expect(checks(observe(request(), response(201, plant)).findings)).toEqual(['status-declared', 'accepts-valid']);
    expect(checks(observe(request(), response(200, '{"name":"Fern","id":2}')).findings)).toEqual(['echo']);
    expect(observe(request(), response(200, plant)).findings).toEqual([]);
  });

  it('no credentials at all and a 2xx is a requires-auth failure, token or not', () => {
    expect(checks(observe(request({ headers: { 'content-type': 'application/json' } }), response(200, plant)).findings)).toEqual(['requires-auth']);
  });

  it('a request to no operation is judged only by what every reading gives: a 404 or a 200 is fine, a 5xx is not', () => {
    const other = request({ method: 'GET', path: '/health', body: '' });
    const fine = observe(other, response(200, 'ok', { 'content-type': 'text/plain' }));
    expect(fine.interpretations.length).toBe(10);
    expect(fine.findings).toEqual([]);
    // What needs no operation judges it (a 5xx, the hygiene of the answer); what depends on what the request is does not.
    expect(fine.judgedBy).toContain('no-server-error');
    for (const check of ['response-shape', 'status-declared', 'accepts-valid', 'rejects-invalid', 'requires-auth', 'credentials-first', 'echo']) expect(fine.judgedBy).not.toContain(check);
    expect(observe(request({ method: 'GET' }), response(405, '{"error":405,"message":"no"}')).findings).toEqual([]);
    expect(checks(observe(other, response(503, 'down')).findings)).toEqual(['no-server-error']);
    expect(checks(observe(other, { kind: 'failure', failure: 'reset', message: 'reset', durationMs: 1 }).findings)).toEqual(['no-server-error']);
  });

  it('an open body (a content coding) is not judged on its content: success and refusal both stand, a 5xx does not', () => {
    const gzip = request({ headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(observe(gzip, response(200, plant), [TOKEN]).findings).toEqual([]);
    expect(observe(gzip, response(400, '{"error":400,"message":"no coding"}'), [TOKEN]).findings).toEqual([]);
    expect(observe(gzip, response(415, '{"error":415,"message":"no coding"}'), [TOKEN]).judgedBy).toContain('status-declared');
    expect(checks(observe(gzip, response(415, '{"error":415,"message":"no coding"}'), [TOKEN]).findings)).toEqual(['status-declared']);
    expect(checks(observe(gzip, response(500, '{"error":500,"message":"x"}'), [TOKEN]).findings)).toEqual(['status-declared', 'no-server-error']);
  });

  it('a lenient body with bad credentials is not lenient: a 2xx to missing credentials fails whatever the body', () => {
    const surrogate = request({ headers: { 'content-type': 'application/json' }, body: '{"name":"\\ud800","id":1}' });
    const verdict = observe(surrogate, response(200, '{"name":"\\ud800","id":1}'));
    expect(verdict.interpretations[0]?.lenient).toBeUndefined();
    expect(verdict.findings.map((f) => `${f.check} ${f.severity}`)).toEqual(['requires-auth failure']);
  });
});
