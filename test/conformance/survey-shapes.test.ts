/**
 * Shapes seen in public OpenAPI documents (the survey of docs/contracts.md), each in a small
 * contract written here: an operation that only redirects (`302` alone), one that declares no
 * response (OpenAPI 3.1 makes `responses` optional), security without a declared 401, an answer
 * in XML, an example that breaks its own schema, an optional form body with a required field,
 * an API key in the query, a POST outside the collection/item pattern, and contracts with
 * nothing to send. The kit's reference of it passes a focused run; the checks still catch a
 * server that answers a redirect-only operation with 200, one that takes any API key, and one
 * that answers XML with no Content-Type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract, successStatuses, type Contract } from '../../src/openapi/index.js';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { formatReport, NothingToTestError, runConformance, type Report } from '../../fuzz/index.js';
import { judgeExchange } from '../../oracle/index.js';
import type { HttpOutcome, RequestCase } from '../../oracle/types.js';
import { exitCode, outcomeOf } from '../../cli/outcome.js';
import { planReference } from '../../src/reference/index.js';
import { startFaulty, startReference, type Fault } from '../support/servers.js';

const KEY = 'survey-key-1';
const SURVEY = compileContract(
  parseYaml(`
openapi: 3.1.0
info: { title: Survey shapes, version: '1' }
security: [{ key: [] }]
paths:
  /go:
    get:
      parameters: [{ name: url, in: query, required: true, schema: { type: string } }]
      responses: { '302': { description: a redirection } }
  /silent:
    get: { summary: declares no response }
  /feed:
    get:
      responses:
        '200': { description: a feed, content: { application/xml: { schema: { $ref: '#/components/schemas/Feed' } } } }
  /tenants:
    get:
      responses:
        '200':
          description: the tenants
          content: { application/json: { schema: { type: array, items: { type: string } }, example: '[ "a", "b" ]' } }
  /search:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, required: [criteria], properties: { criteria: { type: string }, rows: { type: integer } } }
      responses:
        '200': { description: found, content: { application/json: { schema: { type: object, properties: { criteria: { type: string } } } } } }
        '404': { description: nothing }
components:
  securitySchemes:
    key: { type: apiKey, in: query, name: api-key }
  schemas:
    Feed: { type: object, xml: { name: feed }, properties: { title: { type: string } } }
`) as Record<string, unknown>,
  '<survey shapes>',
);

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const failed = (report: Report): string[] => report.failures.map((f) => f.check);

async function focused(url: string, contract: Contract = SURVEY): Promise<Report> {
  return runConformance({ baseUrl: url, contract, credentials: { key: KEY }, seed: 7, runs: 40, capacity: 0, phases: ['coverage', 'random'], shrinkTimeMs: 1000, timeoutMs: 2500 });
}

async function faulty(fault: Fault): Promise<string> {
  const server = await startFaulty(fault, { contract: SURVEY, credentials: { key: KEY } });
  closers.push(() => server.close());
  return server.url;
}

describe("the kit's reference of the survey's shapes", () => {
  let url = '';
  beforeAll(async () => {
    const server = await startReference({ contract: SURVEY, credentials: { key: KEY } });
    closers.push(() => server.close());
    url = server.url;
  });

  it('passes a focused run; a 401 nobody declared is a warning, not a failure', { timeout: 30_000 }, async () => {
    const report = await focused(url);
    expect(failed(report), formatReport(report)).toEqual([]);
    expect(report.warnings.map((w) => w.check)).toContain('status-declared');
    expect(report.security?.notTested).toEqual([]);
  });

  it('is caught answering the redirect-only operation with 200', { timeout: 30_000 }, async () => {
    const ok: Fault = (request, correct) => (request.url.startsWith('/go') && correct().status === 302 ? { status: 200, headers: {}, body: '' } : correct());
    expect(failed(await focused(await faulty(ok)))).toEqual(expect.arrayContaining(['status-declared', 'accepts-valid']));
  });

  it('is caught taking any API key, the query key spelled otherwise included', { timeout: 30_000 }, async () => {
    const anyKey: Fault = (request, correct, app) => (/[?&]api-key=/.test(request.url) ? app.request({ ...request, url: request.url.replace(/api-key=[^&]*/, `api-key=${KEY}`) }) : correct());
    expect(failed(await focused(await faulty(anyKey)))).toContain('requires-auth');
  });

  it('is caught answering XML without its Content-Type', { timeout: 30_000 }, async () => {
    const bare: Fault = (request, correct) => {
      const answer = correct();
      return request.url.startsWith('/feed') && answer.status === 200 ? { ...answer, headers: {}, body: '' } : answer;
    };
    expect(failed(await focused(await faulty(bare)))).toContain('response-shape');
  });
});

describe('what the engine holds the shapes to', () => {
  const get = (path: string, extra: Partial<RequestCase> = {}): RequestCase => ({ method: 'GET', path, headers: { accept: 'application/json' }, body: new Uint8Array(0), kind: 'valid-parameters', variant: '', content: 'valid', credentials: 'valid', setup: [], ...extra });
  const answer = (status: number, headers: Record<string, string> = {}): HttpOutcome => ({ kind: 'response', status, headers, body: new Uint8Array(0), durationMs: 1 });

  it('takes the redirect an operation declares alone as its success', () => {
    const redirect = SURVEY.findOperation('GET', '/go');
    expect(redirect && successStatuses(redirect)).toEqual([302]);
    expect(judgeExchange('accepts-valid', get('/go?url=x'), answer(302), SURVEY)).toEqual([]);
    const lenient = get('/go?url=x#f', { content: 'invalid', lenient: 'RFC 9112, section 3.2', lenientAbout: 'target' });
    expect(judgeExchange('rejects-invalid', lenient, answer(302), SURVEY).map((f) => f.severity)).toEqual(['warning']);
  });

  it('holds an operation that declares no response to no status, and names it unchecked', () => {
    expect(judgeExchange('status-declared', get('/silent'), answer(200), SURVEY)).toEqual([]);
    expect(judgeExchange('method-semantics', get('/silent', { method: 'HEAD', tags: ['method:HEAD'] }), answer(204), SURVEY)).toEqual([]);
    expect(SURVEY.unchecked.map((u) => `${u.feature} ${u.pointer}`)).toContainEqual(expect.stringMatching(/declares no responses.*\/paths\/~1silent\/get$/));
  });

  it('warns of a 401 to bad credentials the contract does not declare, and still fails one to good credentials', () => {
    expect(judgeExchange('status-declared', get('/feed', { credentials: 'missing' }), answer(401), SURVEY).map((f) => f.severity)).toEqual(['warning']);
    expect(judgeExchange('status-declared', get('/feed'), answer(401), SURVEY).map((f) => f.severity)).toEqual(['failure']);
  });

  it('lets HEAD get the 406 its GET would get for an Accept none of its successes fits, and only then', () => {
    const head = (accept: string): RequestCase => get('/feed', { method: 'HEAD', headers: { accept }, tags: ['method:HEAD'] });
    expect(judgeExchange('method-semantics', head('application/json'), answer(406), SURVEY)).toEqual([]);
    expect(judgeExchange('method-semantics', head('application/xml'), answer(406), SURVEY).map((f) => f.severity)).toEqual(['failure']);
  });

  it('sends a form that writes no field to an optional body as valid (no body), and one with a field missing as invalid', () => {
    const forms = coverageCases(SURVEY, { token: '', credentials: { schemes: { key: KEY }, headers: {} }, kinds: ['media-bodies'] }).filter((c) => c.path.startsWith('/search') && c.headers['content-type'] === 'application/x-www-form-urlencoded');
    const empty = forms.filter((c) => c.body.length === 0);
    expect(empty.length).toBeGreaterThan(0);
    for (const c of empty) expect(c.content, c.variant).toBe('valid');
    expect(forms.some((c) => c.body.length > 0 && c.content === 'invalid' && !new TextDecoder().decode(c.body).includes('criteria='))).toBe(true);
  });

  it('spells the target of a request without credentials without the API key the valid one carries in its query', () => {
    const spelled = coverageCases(SURVEY, { token: '', credentials: { schemes: { key: KEY }, headers: {} }, kinds: ['target-spellings'] }).filter((c) => c.tags?.some((t) => t.endsWith(':no-credentials')));
    expect(spelled.length).toBeGreaterThan(0);
    for (const c of spelled) {
      expect(c.credentials).not.toBe('valid');
      expect(c.framing?.target, c.variant).not.toContain(KEY);
    }
  });
});

describe('what the reference answers for the shapes', () => {
  it('answers its declared redirect, 200 where nothing is declared, XML as a document of its type, and a broken example not at all', async () => {
    const { createStoreApp } = await import('../../src/reference/index.js');
    const app = createStoreApp(SURVEY, { tokens: ['t'], credentials: { key: KEY } });
    const get = (url: string, accept = '*/*') => app.request({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}api-key=${KEY}`, headers: { accept } });
    expect(get('/go?url=x')).toMatchObject({ status: 302, body: '' });
    expect(get('/silent')).toMatchObject({ status: 200, body: '' });
    expect(get('/feed')).toMatchObject({ status: 200, headers: { 'content-type': 'application/xml' }, body: expect.stringMatching(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<feed\/>\n$/) as unknown });
    const tenants = get('/tenants');
    expect(tenants).toMatchObject({ status: 200 });
    expect(Array.isArray(JSON.parse((tenants as { body: string }).body))).toBe(true);
    expect(planReference(SURVEY).brokenExamples.map((o) => o.path)).toEqual(['/tenants']);
  });
});

describe('a run with nothing to send', () => {
  it('is a usage error naming why (exit 2), not a defect of the kit: no operation, or no credentials for any', async () => {
    const hooks = compileContract({ openapi: '3.1.0', info: { title: 'hooks', version: '1' }, webhooks: { ping: { post: { responses: { '200': { description: 'ok' } } } } } });
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:9', contract: hooks, token: 't' })).rejects.toThrow(/declares no operation/);
    const locked = runConformance({ baseUrl: 'http://127.0.0.1:9', contract: SURVEY, token: 't' });
    await expect(locked).rejects.toBeInstanceOf(NothingToTestError);
    await expect(locked).rejects.toThrow(/no credentials for key \(--auth <scheme>=<value>\)/);
    expect(exitCode(outcomeOf(new NothingToTestError('x')))).toBe(2);
  });
});
