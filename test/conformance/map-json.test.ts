/**
 * The map's rows on JSON texts (RFC 8259) and challenges (RFC 9110, section 11; RFC 6750, section
 * 3), proven: each faulty implementation of test/faulty/map-json.ts is caught by the check its row
 * names, in a run focused on the row's request kinds (the coverage phase only); the reference and
 * framework stores pass the same focused run. The grammar's reader is held to its classes here too.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverageCases, DEFAULT_CONFORM_TIMEOUT_MS, formatReport, runConformance, type KindName, type Report } from '../../fuzz/index.js';
import { BODY_LIMITS } from '../../fuzz/generation/kinds/open-texts.js';
import { JSON_WHITESPACE, WHITESPACE_PLACES, writeSpaced, type JsonModel } from '../../fuzz/generation/json-text.js';
import { challengeProblem, parseChallenges } from '../../oracle/challenge-grammar.js';
import { judgeExchange, type HttpOutcome, type RequestCase } from '../../oracle/index.js';
import { loadContract } from '../../src/openapi/index.js';
import fc from 'fast-check';
import { requestArbitrary } from '../../fuzz/index.js';
import { CHALLENGE_REQUIREMENTS } from '../../oracle/requirements/challenges.js';
import { JSON_TEXT_REQUIREMENTS } from '../../oracle/requirements/json-texts.js';
import { isTested } from '../../oracle/requirements/requirement.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { MAP_JSON_FAULTS } from '../faulty/map-json.js';
import { startExpressStore } from '../frameworks/express-store.js';
import { pythonVersion, startPythonStore } from '../frameworks/python-store.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

const SEED = 30;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function focusedRun(url: string, kinds: readonly KindName[], timeoutMs = 2500): Promise<Report> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, seed: SEED, phases: ['coverage'], kinds, timeoutMs, shrinkTimeMs: 0 });
}

/** Every kind the rows' faults are focused on. */
const ALL_KINDS = [...new Set(MAP_JSON_FAULTS.flatMap((f) => f.kinds))];

describe('each faulty implementation is caught by the check its row names, in a focused run', () => {
  it.each(MAP_JSON_FAULTS.map((f) => [f.name, f] as const))('%s', { timeout: 120_000 }, async (_name, fault) => {
    const server = await fault.start();
    closers.push(() => server.close());
    const report = await focusedRun(server.url, fault.kinds);
    const text = formatReport(report);
    expect(report.passed, text).toBe(fault.caughtAs === 'warning');
    const findings = fault.caughtAs === 'warning' ? report.warnings : report.failures;
    expect(findings.map((f) => f.check), text).toContain(fault.caughtBy);
  });
});

describe('the same focused run passes the reference and framework stores', () => {
  type Store = [string, () => Promise<{ url: string; close(): Promise<void> }>, number?];
  const stores: Store[] = [
    ['the reference', () => startReference()],
    ['the Express store', () => startExpressStore({ token: TEST_TOKEN })],
    // At the engine's own timeout: socketserver's listen backlog of 5 may drop one of 8 connections
    // opened at once on a loaded machine, sent again a second or more later (a correct answer, late).
    ...(pythonVersion() === undefined ? [] : [['the Python store', () => startPythonStore({ token: TEST_TOKEN }), DEFAULT_CONFORM_TIMEOUT_MS] as Store]),
  ];
  it.each(stores)('%s', { timeout: 180_000 }, async (_name, start, timeoutMs) => {
    const server = await start();
    closers.push(() => server.close());
    const report = await focusedRun(server.url, ALL_KINDS, timeoutMs);
    expect(report.failures, formatReport(report)).toEqual([]);
    // The warnings the rows decide (a framework's defaults) are theirs to show, never these rows' faults.
    expect(report.warnings.filter((w) => w.check === 'requires-auth' || w.check === 'no-server-error'), formatReport(report)).toEqual([]);
  });
});

describe('the requests the rows name', () => {
  const contract = loadContract();
  const cases = coverageCases(contract, { token: TEST_TOKEN, kinds: ['json-whitespace', 'open-texts', 'malformed-json', 'invalid-body'] });
  const tagged = (prefix: string): RequestCase[] => cases.filter((c) => c.tags?.some((t) => t.startsWith(prefix)) === true);

  it('whitespace at each of the grammar places, all four characters, and each character at every place; all of it whitespace RFC 8259 allows', () => {
    const spaced = tagged('json-whitespace:');
    expect(spaced).toHaveLength(WHITESPACE_PLACES.length + JSON_WHITESPACE.length);
    for (const request of spaced) expect(() => JSON.parse(Buffer.from(request.body).toString('utf8')) as unknown, request.variant).not.toThrow();
    const model: JsonModel = { kind: 'object', members: [{ key: 'a', keyStyle: 'plain', value: { kind: 'array', items: [{ kind: 'literal', text: 'null' }, { kind: 'number', text: '1' }] } }, { key: 'b', keyStyle: 'plain', value: { kind: 'object', members: [] } }] };
    expect(writeSpaced(model, Object.fromEntries(WHITESPACE_PLACES.map((p, i) => [p, String(i)])))).toBe('0{2"a"4:5[2null6,713]6,7"b"4:5{23}3}1');
  });

  it('nesting sized to each body limit fits it, and is deeper than a recursive parser holds', () => {
    const deep = tagged('open-text:depth:');
    expect(deep).toHaveLength(BODY_LIMITS.length);
    deep.forEach((request, i) => {
      const limit = BODY_LIMITS[i]?.[1] ?? 0;
      expect(request.body.length).toBeLessThanOrEqual(limit);
      expect(request.body.length).toBeGreaterThan(limit - 64);
      expect(request.open?.reason).toMatch(/section 9/);
    });
    expect(tagged('open-text:whole-body-depth')[0]).toMatchObject({ content: 'invalid' });
    // The reference's own limit is the largest: what it accepts, the engine fills.
    expect(BODY_LIMITS.at(-1)?.[1]).toBe(1024 * 1024);
  });

  it('other whitespace around the value, two values in a text (lenient), an exponent of a billion', () => {
    expect(tagged('malformation:not-whitespace-before:').length).toBeGreaterThanOrEqual(5);
    expect(tagged('malformation:not-whitespace-after:').length).toBeGreaterThanOrEqual(6);
    expect(tagged('malformation:two-values')[0]?.lenient).toMatch(/Jackson/);
    expect(tagged('probe:id/integer:huge-exponent')[0]).toMatchObject({ content: 'invalid' });
  });
});

describe("the challenge's grammar: what it refused and should accept, what it accepted and should refuse", () => {
  const fails = (header: string, pattern: RegExp): void => {
    expect(challengeProblem(header, 'bearer'), header).toMatchObject({ severity: 'failure', message: expect.stringMatching(pattern) as unknown });
  };

  it('reads every list of challenges the grammar generates (property, seed printed)', () => {
    const tchar = fc.constantFrom(...Array.from("!#$%&'*+-.^_`|~09AZaz"));
    const token = fc.string({ unit: tchar, minLength: 1, maxLength: 5 });
    const token68 = fc.tuple(fc.string({ unit: fc.constantFrom(...Array.from('AZaz09-._~+/')), minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constant('='), maxLength: 2 })).map(([a, b]) => a + b);
    const quoted = fc.string({ unit: fc.constantFrom('\t', ' ', '!', '#', 'a', '[', ']', '~', '\x80', '\xff', '\\"', '\\\\', '\\a', ','), maxLength: 6 }).map((q) => `"${q}"`);
    const ows = fc.constantFrom('', ' ', '\t', ' \t');
    const param = fc.tuple(token, ows, ows, fc.oneof(token, quoted)).map(([n, a, b, v]) => `${n === 'realm' ? 'x' : n}${a}=${b}${v}`);
    const params = fc.uniqueArray(param, { minLength: 1, maxLength: 3, selector: (p) => p.split(/[ \t]*=/)[0]?.toLowerCase() });
    const body = fc.oneof(fc.constant(''), fc.tuple(fc.constantFrom(' ', '  '), token68).map(([sp, t]) => sp + t), fc.tuple(fc.constantFrom(' ', '  '), params, ows, ows).map(([sp, ps, a, b]) => sp + ps.join(`${a},${b}`)));
    const list = fc.tuple(fc.array(fc.tuple(token, body).map(([scheme, rest]) => scheme + rest), { minLength: 1, maxLength: 3 }), ows, ows).map(([cs, a, b]) => cs.join(`${a},${b}`));
    const seed = Date.now() % 0x7fffffff;
    console.log(`challenge grammar property: seed ${seed}`);
    fc.assert(fc.property(list, (header) => !('error' in parseChallenges(header))), { seed, numRuns: 2000 });
  });

  it('refuses a tab between the scheme and its parameters (1*SP), and padding alone as a token68', () => {
    fails('Bearer\t realm="plants"', /1\*SP/);
    expect(parseChallenges('Basic =')).toHaveProperty('error');
    expect(parseChallenges('Basic dGVzdA==')).toEqual({ challenges: [{ scheme: 'Basic', token68: 'dGVzdA==', params: [] }] });
  });

  it('refuses a realm written as a token (RFC 9110, section 11.5), other parameters may be tokens', () => {
    fails('Bearer realm=plants', /section 11\.5/);
    expect(challengeProblem('Bearer realm="plants", error=invalid_token', 'bearer')).toBeUndefined();
  });

  it.each([
    ['error_description', 'Bearer realm="p", error="invalid_token", error_description="the token \\"x\\" expired"'],
    ['error', 'Bearer error="invalid\\\\token"'],
    ['error', 'Bearer error="caf\u00e9"'],
    ['error_uri', 'Bearer error="invalid_token", error_uri="https://example.com/a b"'],
    ['scope', 'Bearer scope="plants:read  plants:write"'],
    ['scope', 'Bearer scope=""'],
  ])("refuses a Bearer %s outside RFC 6750, section 3's set: %s", (name, header) => {
    fails(header, new RegExp(`Bearer ${name} of`));
  });

  it('accepts the values RFC 6750 allows', () => {
    expect(challengeProblem('Bearer realm="p", error="insufficient_scope", error_description="needs plants:write", error_uri="https://example.com/e", scope="plants:read plants:write"', 'bearer')).toBeUndefined();
  });

  const contract = loadContract();
  const outcome = (header: string): HttpOutcome => ({ kind: 'response', status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': header }, body: Buffer.from('{"error":401,"message":"no"}'), durationMs: 1 });
  const refused = (credentials: RequestCase['credentials']): RequestCase => ({ method: 'POST', path: '/plants', headers: {}, body: Buffer.from('{}'), kind: 'bad-auth', variant: '', content: 'valid', credentials, setup: [] });

  it('takes a challenge for another scheme the operation accepts (RFC 9110, section 11.6.1: one applicable to the resource), where it failed it before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'map-json-'));
    const file = join(dir, 'either.yaml');
    await writeFile(
      file,
      [
        'openapi: 3.1.0',
        'info: { title: either, version: "1" }',
        'components: { securitySchemes: { basic: { type: http, scheme: basic }, bearer: { type: http, scheme: bearer } } }',
        'paths:',
        '  /things:',
        '    get:',
        '      security: [ { basic: [] }, { bearer: [] } ]',
        "      responses: { '200': { description: ok }, '401': { description: no } }",
      ].join('\n'),
    );
    const either = loadContract(file);
    const request: RequestCase = { ...refused('missing'), method: 'GET', path: '/things', attacked: 'http basic' };
    // Basic was attacked (the run's first alternative); the server challenges Bearer, the other: applicable.
    expect(judgeExchange('requires-auth', request, outcome('Bearer realm="things"'), either)).toEqual([]);
    expect(judgeExchange('requires-auth', request, outcome('Basic realm="things"'), either)).toEqual([]);
    expect(judgeExchange('requires-auth', request, outcome('Newauth realm="things"'), either)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/no basic challenge/) as unknown }]);
    await rm(dir, { recursive: true });
  });

  it('warns about an error code to a request without credentials (RFC 6750, section 3.1), not to one with a wrong token', () => {
    const header = 'Bearer realm="plants", error="invalid_token"';
    expect(judgeExchange('requires-auth', refused('missing'), outcome(header), contract)).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/section 3\.1/) as unknown }]);
    expect(judgeExchange('requires-auth', refused('wrong-token'), outcome(header), contract)).toEqual([]);
  });
});

describe("the rows of json-texts.ts and challenges.ts", () => {
  const rows = [...JSON_TEXT_REQUIREMENTS, ...CHALLENGE_REQUIREMENTS];
  const contract = loadContract();
  const sample = fc.sample(requestArbitrary(contract, { token: TEST_TOKEN }), { seed: SEED, numRuns: 3000 });
  const sent = [...coverageCases(contract, { token: TEST_TOKEN }), ...sample].flatMap((c) => c.tags ?? []);
  const faults = new Map<string, { caughtBy: string; caughtAs?: string }>([...FAULTY_IMPLEMENTATIONS, ...MAP_JSON_FAULTS].map((f) => [f.name, f]));

  it('have unique ids of the form <rfc>-<section>-<name>', () => {
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of rows) expect(row.id).toMatch(new RegExp(`^${row.rfc.slice(4)}-${row.section.replaceAll('.', '\\.')}-[a-z0-9-]+$`));
  });

  it.each(rows.filter(isTested).map((r) => [r.id, r] as const))('%s: its tags are on requests the engine sends, its faults are caught by its check', (_id, row) => {
    for (const tag of row.provoke.tags) expect(sent.some((t) => (tag.endsWith(':') ? t.startsWith(tag) : t === tag)), tag).toBe(true);
    expect(row.faults.length).toBeGreaterThan(0);
    for (const name of row.faults) {
      const fault = faults.get(name);
      expect(fault, name).toBeDefined();
      expect(fault?.caughtBy, name).toBe(row.judge.check);
    }
    if (row.judge.severity === 'warning') expect(row.judge.why).toBeDefined();
  });

  it('every fault of map-json.ts proves a row', () => {
    const named = new Set(rows.filter(isTested).flatMap((r) => r.faults));
    expect(MAP_JSON_FAULTS.map((f) => f.name).filter((name) => !named.has(name))).toEqual([]);
  });
});
