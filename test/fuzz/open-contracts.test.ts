/**
 * What a contract leaves open stays open (issue 29, item 6), on small contracts written here:
 * a read-only API is tested with the phases that apply, not crashed on; string parameters with a
 * format get valid values (and the run ends); `default` covers every status the operation does
 * not list; an optional request body may be absent; `echo` lets the server fill what it may
 * (readOnly, default, a key it assigns).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract, type Contract } from '../../src/openapi/index.js';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { judgeExchange } from '../../oracle/index.js';
import type { HttpOutcome, RequestCase } from '../../oracle/types.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';

const compile = (yaml: string, name: string): Contract => compileContract(parseYaml(yaml) as Record<string, unknown>, name);

const ERROR_DEFAULT = `
        default:
          description: an error
          content: { application/json: { schema: { type: object } } }`;

/** Weather stations: reads only, a uuid path parameter, a date-time and a date query parameter, errors only under default. */
const STATIONS = compile(
  `
openapi: 3.1.0
info: { title: Weather stations, version: '1' }
security: [{ bearer: [] }]
paths:
  /stations:
    get:
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
        - { name: on, in: query, schema: { type: string, format: date } }
      responses:
        '200':
          description: stations
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Station' } } } }${ERROR_DEFAULT}
  /stations/{stationId}:
    get:
      parameters:
        - { name: stationId, in: path, required: true, schema: { type: string, format: uuid } }
        - { name: since, in: query, schema: { type: string, format: date-time } }
      responses:
        '200':
          description: a station
          content: { application/json: { schema: { $ref: '#/components/schemas/Station' } } }${ERROR_DEFAULT}
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    Station:
      type: object
      required: [id, name]
      properties:
        id: { type: string, format: uuid }
        name: { type: string }
`,
  '<stations>',
);

/** Events: a create with an optional body, a server-assigned readOnly id, a defaulted property, errors only under default. */
const EVENTS_YAML = (required: boolean, item = ''): string => `
openapi: 3.1.0
info: { title: Events, version: '1' }
security: [{ bearer: [] }]
paths:
  /events:
    post:
      requestBody:
        required: ${required}
        content: { application/json: { schema: { $ref: '#/components/schemas/Event' } } }
      responses:
        '200':
          description: the event
          content: { application/json: { schema: { $ref: '#/components/schemas/Event' } } }${ERROR_DEFAULT}${item}
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    Event:
      type: object
      required: [title]
      properties:
        eventId: { type: string, format: uuid, readOnly: true }
        title: { type: string }
        level: { type: string, default: info }
        note: { type: string }
`;
const EVENTS = compile(EVENTS_YAML(false), '<events>');

const answer = (status: number, body: string): HttpOutcome => ({ kind: 'response', status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), durationMs: 1 });
const post = (body: string, content: RequestCase['content'] = 'valid', extra: Partial<RequestCase> = {}): RequestCase => ({
  method: 'POST',
  path: '/events',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_TOKEN}` },
  body: Buffer.from(body),
  kind: content === 'valid' ? 'valid' : 'invalid-body',
  variant: '',
  content,
  credentials: 'valid',
  setup: [],
  ...extra,
});

describe('a read-only contract with formatted string parameters, errors under default (the kit\'s reference)', () => {
  let server: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    server = await startReference({ contract: STATIONS });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends only valid values of a format as valid parameters', () => {
    const valid = coverageCases(STATIONS, { token: TEST_TOKEN }).filter((c) => c.content === 'valid' && c.credentials === 'valid' && c.open === undefined && c.path.startsWith('/stations/'));
    expect(valid.length).toBeGreaterThan(0);
    for (const c of valid) expect(c.path, c.variant).toMatch(/^\/stations\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\?|$)/);
  });

  it('is tested with the phases that apply (no capacity phase: nothing to store), and passes', async () => {
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: STATIONS, seed: 29, runs: 300 });
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(report.capacity).toBeUndefined();
    expect(report.requests).toBeGreaterThan(300);
    for (const kind of ['valid-parameters', 'invalid-parameter', 'bad-auth-no-body']) expect(report.kinds[kind] ?? 0, kind).toBeGreaterThan(0);
  }, 120_000);
});

describe('default covers every status the operation does not list', () => {
  it('takes any 4xx under default as declared, for an invalid request and for one whose acceptance is left open', () => {
    for (const status of [400, 409, 413, 422]) {
      expect(judgeExchange('rejects-invalid', post('{"title":5}', 'invalid'), answer(status, '{"error":"bad"}'), EVENTS), String(status)).toEqual([]);
      const open = post('{"title":"a","title":"b"}', 'valid', { open: { reason: 'RFC 8259, section 4', readings: [Buffer.from('{"title":"a"}'), Buffer.from('{"title":"b"}')] } });
      expect(judgeExchange('accepts-valid', open, answer(status, '{"error":"duplicate"}'), EVENTS), String(status)).toEqual([]);
    }
    // A success is still owed to a plain valid request; a 2xx to an invalid one is still wrong.
    expect(judgeExchange('accepts-valid', post('{"title":"a"}'), answer(422, '{}'), EVENTS)).toMatchObject([{ severity: 'failure' }]);
    expect(judgeExchange('rejects-invalid', post('{"title":5}', 'invalid'), answer(200, '{"title":5}'), EVENTS)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/declared 4xx \(default\)/) as unknown }]);
  });
});

describe('an optional request body may be absent', () => {
  const emptyBodies = (contract: Contract): RequestCase[] => coverageCases(contract, { token: TEST_TOKEN }).filter((c) => c.kind === 'malformed-json' && c.body.length === 0);
  it('is not sent an empty body as malformed JSON; a required one is', () => {
    expect(emptyBodies(EVENTS)).toEqual([]);
    expect(emptyBodies(compile(EVENTS_YAML(true), '<events, body required>')).length).toBeGreaterThan(0);
  });
});

/** The events with an item path: POST /events is then the create of a collection/item pattern, which stores what it is sent. */
const STORED_EVENTS = compile(
  EVENTS_YAML(
    false,
    `
  /events/{eventId}:
    get:
      parameters: [{ name: eventId, in: path, required: true, schema: { type: string, format: uuid } }]
      responses:
        '200': { description: the event, content: { application/json: { schema: { $ref: '#/components/schemas/Event' } } } }${ERROR_DEFAULT}`,
  ),
  '<events with an item>',
);

describe('echo lets the server fill what it may', () => {
  it('passes a readOnly id the server assigned and a default it stored; fails a property nobody sent that came back', () => {
    const sent = post('{"title":"rain"}');
    expect(judgeExchange('echo', sent, answer(200, '{"title":"rain","eventId":"dad4bce8-1b54-4d4b-9c3e-8a0a4e1f2b3c","level":"info"}'), STORED_EVENTS)).toEqual([]);
    expect(judgeExchange('echo', sent, answer(200, '{"title":"rain","note":"from nowhere"}'), STORED_EVENTS)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/note was not sent/) as unknown }]);
    expect(judgeExchange('echo', sent, answer(200, '{"title":"snow"}'), STORED_EVENTS)).toMatchObject([{ severity: 'failure' }]);
  });

  it('holds only the writes of a collection/item pattern to what they were sent: of another POST the contract says no such thing', () => {
    // Without an item path POST /events stores nothing the kit can name (src/openapi/resources.ts): its answer is its own.
    expect(judgeExchange('echo', post('{"title":"rain"}'), answer(200, '{"title":"snow","note":"from the server"}'), EVENTS)).toEqual([]);
  });
});

/** Shelves: a client-keyed collection whose item PUT also carries the key in its body. */
const SHELVES = compile(
  `
openapi: 3.1.0
info: { title: Shelves, version: '1' }
paths:
  /shelves:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Shelf' } } } }
      responses:
        '200': { description: stored, content: { application/json: { schema: { $ref: '#/components/schemas/Shelf' } } } }
  /shelves/{shelfId}:
    put:
      parameters: [{ name: shelfId, in: path, required: true, schema: { type: integer, format: int64 } }]
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Shelf' } } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Shelf' } } } }
components:
  schemas:
    Shelf:
      type: object
      required: [id, label]
      properties: { id: { type: integer, format: int64 }, label: { type: string } }
`,
  '<shelves>',
);

describe('echo lets a write to an item keep the key its target names', () => {
  const put = (path: string, body: string): RequestCase => ({ ...post(body), method: 'PUT', path, headers: { 'content-type': 'application/json' } });
  it('passes the target key or the body key where they disagree (RFC 9110, section 9.3.4), and fails a third', () => {
    const sent = put('/shelves/9007199254740993', '{"id":9007199254740994,"label":"oak"}');
    expect(judgeExchange('echo', sent, answer(200, '{"id":9007199254740993,"label":"oak"}'), SHELVES)).toEqual([]);
    expect(judgeExchange('echo', sent, answer(200, '{"id":9007199254740994,"label":"oak"}'), SHELVES)).toEqual([]);
    expect(judgeExchange('echo', sent, answer(200, '{"id":9007199254740992,"label":"oak"}'), SHELVES)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/id was sent as 9007199254740994/) as unknown }]);
    expect(judgeExchange('echo', sent, answer(200, '{"id":9007199254740993,"label":"pine"}'), SHELVES)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/label/) as unknown }]);
  });
});

/** Comics by number: one read, a number in its path, and no client error declared at all (as many public contracts are). */
const COMICS = compile(
  `
openapi: 3.1.0
info: { title: Comics, version: '1' }
paths:
  /{comicId}/info.json:
    get:
      parameters:
        - { name: comicId, in: path, required: true, schema: { type: number } }
      responses:
        '200':
          description: a comic
          content: { application/json: { schema: { type: object }, example: { num: 1 } } }
`,
  '<comics>',
);

describe('an operation that declares no client error leaves refusals open (OpenAPI 3.1, section 4.8.16)', () => {
  it("the kit's reference passes, its 400s to invalid requests warned of by status-declared only", async () => {
    const server = await startReference({ contract: COMICS });
    try {
      const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: COMICS, seed: 7, runs: 100, capacity: 0 });
      expect(report.failures.map((f) => `${f.check}: ${f.message}`)).toEqual([]);
      expect(new Set(report.warnings.map((w) => w.check))).toEqual(new Set(['status-declared']));
      expect(report.checks['rejects-invalid'].requests).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});

/** A form search that declares only 200 and 404 (a missing dataset), as many public contracts do: no status for refusing invalid input. */
const SEARCH_YAML = (refusal: string): string => `
openapi: 3.1.0
info: { title: Records search, version: '1' }
paths:
  /{dataset}/records:
    post:
      parameters:
        - { name: dataset, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [criteria]
              properties:
                criteria: { type: string, minLength: 1 }
                rows: { type: integer, minimum: 1, maximum: 100 }
      responses:
        '200':
          description: the records found
          content: { application/json: { schema: { type: array, items: { type: object } } } }
        '404':
          description: no such dataset
          content: { application/json: { schema: { type: object } } }${refusal}
`;
const SEARCH = compile(SEARCH_YAML(''), '<search>');
const SEARCH_400 = compile(SEARCH_YAML(`
        '400':
          description: a search it does not take
          content: { application/json: { schema: { type: object } } }`), '<search, 400>');

const search = (body: string): RequestCase => ({ ...post(body, 'invalid'), path: '/oa/records', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('an operation that declares no status for refusing invalid input (no 400, 422, 4XX, default) leaves refusals open', () => {
  it('takes any 4xx to an invalid request, status-declared warning of an undeclared one, never failing it', () => {
    for (const status of [400, 422, 409]) {
      expect(judgeExchange('rejects-invalid', search('rows=7'), answer(status, '{}'), SEARCH), String(status)).toEqual([]);
      expect(judgeExchange('status-declared', search('rows=7'), answer(status, '{}'), SEARCH), String(status)).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/no 400, 422, 4XX or default/) as unknown }]);
    }
    // A 2xx to an invalid request and a 5xx are still wrong; a declared 404 is declared.
    expect(judgeExchange('rejects-invalid', search('rows=7'), answer(200, '[]'), SEARCH)).toMatchObject([{ severity: 'failure' }]);
    expect(judgeExchange('status-declared', search('rows=7'), answer(404, '{}'), SEARCH)).toEqual([]);
  });

  it('holds an operation that declares a 400 to its declared refusals: another 4xx fails both checks', () => {
    expect(judgeExchange('rejects-invalid', search('rows=7'), answer(400, '{}'), SEARCH_400)).toEqual([]);
    expect(judgeExchange('rejects-invalid', search('rows=7'), answer(422, '{}'), SEARCH_400)).toMatchObject([{ severity: 'failure', message: expect.stringMatching(/expected a declared 4xx \(400, 404\)/) as unknown }]);
    expect(judgeExchange('status-declared', search('rows=7'), answer(422, '{}'), SEARCH_400)).toMatchObject([{ severity: 'failure' }]);
  });

  it("the kit's reference, refusing invalid forms with 400, passes: status-declared warns, nothing fails", async () => {
    const server = await startReference({ contract: SEARCH });
    try {
      const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, contract: SEARCH, seed: 11, runs: 50, capacity: 0, phases: ['coverage', 'random'] });
      expect(report.failures.map((f) => `${f.check}: ${f.message}`)).toEqual([]);
      expect(report.warnings.map((w) => w.check)).toContain('status-declared');
      expect(report.checks['rejects-invalid'].requests).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
