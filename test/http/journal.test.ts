/**
 * The request journal (src/http/journal.ts) and the pipeline's seam to it (`onExchange`), without
 * a socket where the thing tested needs none: the ring and its bounds, bodies as text or base64
 * and cut at a character boundary, credentials that never reach an entry (the whole battery run
 * through a journaled reference, and the shapes a frontend gets wrong), the verdicts, and the
 * admin path - its JSON, its errors, its page, and that it changes no answer to the contract's
 * paths and is never journaled itself. The verdict of every rule is in test/http/rules.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { loadContract } from '../../src/openapi/index.js';
import { acceptAnyToken, adminRoutes, createJournal, createPipeline, DEFAULT_JOURNAL_SIZE, isAdminPath, listen, MAX_JOURNAL_SIZE, PlantStoreError, splitTarget, type Admitted, type AppRequest, type AppResponse, type ServedExchange, type Journal, type JournalEntry, type JournalSnapshot, type ProxyVerdict } from '../../src/http/index.js';
import { createApp } from '../../src/reference/index.js';
import { createMock } from '../../mock/index.js';
import { ALL_CASES, toAppRequest, type BatteryCase } from '../battery/battery.js';
import { runnable, type Via } from '../battery/run.js';
import { RawConnection, rawRequest } from '../support/http.js';
import { TEST_TOKEN } from '../support/servers.js';

const contract = loadContract();
const HEADERS = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };
const post = (body = '{"name":"Fern","id":1}', headers: Record<string, string> = HEADERS, url = '/plants'): AppRequest => ({ method: 'POST', url, headers, body });
const get = (url: string, method = 'GET', headers: Record<string, string> = {}): AppRequest => ({ method, url, headers });
const json = (response: AppResponse): unknown => JSON.parse(response.body);
/** The battery's requests to the contract's paths: its cases on the admin path are what a journal changes (and never journals). */
const contractCases = (via: Via): BatteryCase[] => runnable(ALL_CASES, via).filter((c) => !isAdminPath(splitTarget(toAppRequest(c).url).path));

/** A reference with a journal, as `startReference({ journal: true })` makes it. */
function journaled(size?: number): { app: ReturnType<typeof createApp>; journal: Journal } {
  const journal = createJournal({ size });
  return { app: createApp({ tokens: [TEST_TOKEN], journal }), journal };
}

/** An exchange as another server (a proxy) would add it. */
function exchange(overrides: Partial<ServedExchange> = {}): ServedExchange {
  return { request: { method: 'POST', url: '/plants', headers: {} }, body: undefined, verdict: { outcome: 'accepted' }, response: { status: 200, headers: {}, body: '' }, delayMs: 0, durationMs: 1, ...overrides };
}

describe('the ring', () => {
  it('keeps the last N entries, numbered in order, and counts what it forgot', () => {
    const journal = createJournal({ size: 3 });
    for (let i = 1; i <= 5; i++) journal.add(exchange({ request: { method: 'POST', url: `/plants?n=${String(i)}`, headers: {} } }));
    expect(journal.list().map((entry) => [entry.id, entry.request.target])).toEqual([
      [3, '/plants?n=3'],
      [4, '/plants?n=4'],
      [5, '/plants?n=5'],
    ]);
    expect(journal.snapshot()).toMatchObject({ capacity: 3, held: 3, dropped: 2, next: 6 });
  });

  it('gives the entries after an id, and none after the newest', () => {
    const journal = createJournal({ size: 4 });
    for (let i = 0; i < 6; i++) journal.add(exchange());
    expect(journal.list(4).map((entry) => entry.id)).toEqual([5, 6]);
    expect(journal.list(1).map((entry) => entry.id)).toEqual([3, 4, 5, 6]);
    expect(journal.list(6)).toEqual([]);
    expect(journal.list(99)).toEqual([]);
  });

  it('clear() forgets everything and says how much, but ids go on', () => {
    const journal = createJournal({ size: 2 });
    for (let i = 0; i < 3; i++) journal.add(exchange());
    expect(journal.clear()).toBe(2);
    expect(journal.snapshot()).toEqual({ capacity: 2, held: 0, dropped: 0, next: 4, requests: [] });
    expect(journal.add(exchange()).id).toBe(4);
  });

  it(`holds ${String(DEFAULT_JOURNAL_SIZE)} by default, and refuses a size outside 1..${String(MAX_JOURNAL_SIZE)}`, () => {
    expect(createJournal().capacity).toBe(DEFAULT_JOURNAL_SIZE);
    for (const size of [0, -1, 1.5, MAX_JOURNAL_SIZE + 1, Number.NaN]) expect(() => createJournal({ size })).toThrow(RangeError);
  });
});

describe('bodies', () => {
  const kept = (body: string | Uint8Array, bodyBytes?: number): JournalEntry['request']['body'] => createJournal({ bodyBytes }).add(exchange({ body })).request.body;

  it('keeps UTF-8 as text and anything else as base64, with the whole length', () => {
    expect(kept('{"name":"Fern 🌿"}')).toEqual({ bytes: 20, text: '{"name":"Fern 🌿"}' });
    expect(kept(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))).toEqual({ bytes: 4, base64: 'e8MofQ==' });
    expect(kept('')).toEqual({ bytes: 0, text: '' });
  });

  it('cuts a long body at the limit, at a character boundary, and says so', () => {
    // "aé…": the cut at 4 bytes falls inside the second "é" (2 bytes), which is dropped whole.
    expect(kept('aéé€', 4)).toEqual({ bytes: 8, text: 'aé', truncated: true });
    expect(kept('abcdef', 4)).toEqual({ bytes: 6, text: 'abcd', truncated: true });
    expect(kept(Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb]), 2)).toEqual({ bytes: 5, base64: '//4=', truncated: true });
  });

  it('keeps a body that was not read as null, and the answer as given', () => {
    const { app, journal } = journaled();
    app.request(post('{"name":"Fern","id":1}', { 'content-type': 'application/json' }));
    app.request(post('{"name":"Fern","id":2}'));
    const [refused, accepted] = journal.list();
    expect(refused?.request.body).toBeNull();
    expect(refused?.answer).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer realm="plant-store"' }, body: { text: expect.stringContaining('"error":401') as string } });
    expect(accepted?.request.body).toEqual({ bytes: 22, text: '{"name":"Fern","id":2}' });
    expect(accepted?.answer).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: { bytes: 22, text: '{"name":"Fern","id":2}' } });
  });
});

describe('no credential reaches the journal', () => {
  it('of any request of the battery: the token is nowhere in the journal, though answers quote it', () => {
    const { app, journal } = journaled(MAX_JOURNAL_SIZE);
    const cases = contractCases('no-socket').filter((c) => c.request.raw === undefined);
    let quoted = 0;
    for (const c of cases) if (app.request(toAppRequest(c)).body.includes(TEST_TOKEN)) quoted++;
    // The test can fail: some answers quote the token (sent without its scheme, the message names it).
    expect(quoted).toBeGreaterThan(0);
    expect(journal.list()).toHaveLength(cases.length);
    const leaks = journal.list().filter((entry) => JSON.stringify(entry).includes(TEST_TOKEN));
    expect(leaks.map((entry) => `${entry.request.target} ${JSON.stringify(entry.request.headers)}`)).toEqual([]);
  });

  it.each([
    ['Bearer abc.def-123', 'Bearer ***'],
    ['bearer   abc.def-123', 'bearer ***'],
    ['Basic dXNlcjpwYXNzd29yZA==', 'Basic ***'],
    ['Token abc.def-123', 'Token ***'],
    ['Bearer', 'Bearer'],
    ['Negotiate', 'Negotiate'],
    ['abc.def-123', '***'],
    ['Bearerabc.def-123', '***'],
    ['Bearer\u00a0abc.def-123', '***'],
    ['', ''],
  ])('Authorization: %j is kept as %j', (sent, keptAs) => {
    const entry = createJournal().add(exchange({ request: { method: 'POST', url: '/plants', headers: { authorization: sent, 'proxy-authorization': sent } } }));
    expect(entry.request.headers).toEqual({ authorization: keptAs, 'proxy-authorization': keptAs });
  });

  it('hides cookies, secret-named headers, query parameters and form fields, and blots them out of what quotes them', () => {
    const secret = 'sk_live_0123456789abcdef';
    const entry = createJournal().add(
      exchange({
        request: {
          method: 'POST',
          url: `/plants?dry=1&access_token=${secret}&api_key=${secret}`,
          headers: { cookie: `theme=dark; session=${secret}`, 'x-api-key': secret, 'x-auth-token': secret, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        },
        body: `name=Fern&access_token=${secret}`,
        verdict: { outcome: 'refused', rule: 'media-type', status: 400, code: 'unsupported_media_type', message: `echo ${secret}` },
        response: { status: 400, headers: { 'set-cookie': [`session=${secret}; Path=/; HttpOnly`] }, body: `{"echo":"${secret}"}` },
      }),
    );
    expect(JSON.stringify(entry)).not.toContain(secret.slice(0, 20));
    expect(entry.request.target).toBe('/plants?dry=1&access_token=***&api_key=***');
    expect(entry.request.headers).toEqual({ cookie: 'theme=***; session=***', 'x-api-key': '***', 'x-auth-token': '***', 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    expect(entry.request.body).toEqual({ bytes: 47, text: 'name=Fern&access_token=***' });
    expect(entry.answer.headers).toEqual({ 'set-cookie': 'session=***; Path=/; HttpOnly' });
    expect(entry.verdict).toMatchObject({ message: 'echo ***' });
  });

  it('keeps JSON bodies as sent: they are what a test asserts on', () => {
    const entry = createJournal().add(exchange({ body: '{"name":"Fern","token":"not a credential of the request"}' }));
    expect(entry.request.body).toMatchObject({ text: '{"name":"Fern","token":"not a credential of the request"}' });
  });
});

describe('verdicts, from the pipeline', () => {
  it('accepted, refused by the route, a preflight', () => {
    const journal = createJournal();
    const app = createApp({ tokens: [TEST_TOKEN], journal, cors: true });
    app.request(post());
    app.request(post(undefined, undefined, '/nowhere'));
    app.request(get('/plants'));
    app.request(get('/plants', 'OPTIONS', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }));
    expect(journal.list().map((entry) => [entry.request.method, entry.request.path, entry.verdict, entry.answer.status])).toEqual([
      ['POST', '/plants', { outcome: 'accepted' }, 200],
      ['POST', '/nowhere', { outcome: 'refused', rule: 'route', status: 404, code: 'not_found', message: expect.stringContaining('path: no operation at /nowhere') as string }, 404],
      ['GET', '/plants', { outcome: 'refused', rule: 'route', status: 405, code: 'method_not_allowed', message: 'method: GET is not allowed on /plants; use POST' }, 405],
      ['OPTIONS', '/plants', { outcome: 'preflight' }, 204],
    ]);
  });

  it('a defect, and a refusal by the answer, named as the answer names itself', async () => {
    const journal = createJournal();
    const reported: unknown[] = [];
    let next: () => AppResponse | PlantStoreError = () => {
      throw new TypeError('broken');
    };
    const pipeline = createPipeline({
      contract,
      accept: acceptAnyToken,
      answer: { admit: (operation): Admitted => ({ operation }), respond: () => next(), rule: 'store' },
      onDefect: (cause) => reported.push(cause),
      onExchange: (seen) => void journal.add(seen),
    });
    pipeline.request(post());
    next = () => new PlantStoreError('unsupported_preference', 'prefer: not this one');
    pipeline.request(post());
    expect(journal.list().map((entry) => entry.verdict)).toEqual([
      { outcome: 'defect', status: 500, message: 'internal: the server failed; this is a defect of the kit' },
      { outcome: 'refused', rule: 'store', status: 400, code: 'unsupported_preference', message: 'prefer: not this one' },
    ]);
    expect(reported).toHaveLength(1);
    // The mock's answer calls its refusals `prefer`.
    const mockJournal = createJournal();
    const mock = await createMock({ journal: mockJournal });
    await mock.request(post(undefined, { ...HEADERS, prefer: 'code=500' }));
    expect(mockJournal.list()[0]?.verdict).toMatchObject({ outcome: 'refused', rule: 'prefer', code: 'unsupported_preference' });
  });

  it('an observer that throws is a defect reported, and the answer still goes out', () => {
    const reported: unknown[] = [];
    const pipeline = createPipeline({
      contract,
      accept: acceptAnyToken,
      answer: { admit: (operation): Admitted => ({ operation }), respond: () => ({ status: 200, headers: {}, body: '{}' }) },
      onDefect: (cause) => reported.push(cause),
      onExchange: () => {
        throw new Error('the journal is broken');
      },
    });
    expect(pipeline.request(post()).status).toBe(200);
    expect(reported).toEqual([new Error('the journal is broken')]);
  });

  it('over a socket: the refusals of the socket layer are named (a missing Host, a body over the limit while read)', async () => {
    const journal = createJournal();
    const server = await listen(createApp({ tokens: [TEST_TOKEN], journal, maxBodyBytes: 16 }), { port: 0, host: '127.0.0.1' });
    try {
      for (const request of [
        rawRequest(`POST /plants HTTP/1.1\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Length: 2`, '{}'),
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n{"name":"a long name","id":12345}\r\n0\r\n\r\n`,
      ]) {
        const connection = await RawConnection.open(server.port);
        connection.send(request);
        await connection.next();
        connection.destroy();
      }
      expect(journal.list().map((entry) => [entry.verdict.outcome, (entry.verdict as { rule?: string }).rule, entry.answer.status])).toEqual([
        ['refused', 'host', 400],
        ['refused', 'size', 400],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('the admin path', () => {
  it('GET gives the journal as JSON, DELETE clears it, and neither is journaled', () => {
    const { app, journal } = journaled();
    app.request(post());
    const read = app.request(get('/__plant-store/requests'));
    expect(read).toMatchObject({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    const snapshot = json(read) as JournalSnapshot;
    expect(snapshot).toMatchObject({ capacity: DEFAULT_JOURNAL_SIZE, held: 1, dropped: 0, next: 2 });
    expect(snapshot.requests).toEqual(JSON.parse(JSON.stringify(journal.list())) as unknown);
    expect(json(app.request(get('/__plant-store/requests?after=1')))).toMatchObject({ requests: [] });
    expect(json(app.request(get('/__plant-store/requests', 'DELETE')))).toEqual({ cleared: 1 });
    expect(json(app.request(get('/__plant-store/requests', 'DELETE')))).toEqual({ cleared: 0 });
    app.request(get('/__plant-store/'));
    app.request(get('/__plant-store/nope', 'PUT'));
    expect(journal.list()).toEqual([]);
  });

  it.each([
    ['PUT', '/__plant-store/requests', 405, 'method_not_allowed', 'method: PUT is not allowed on /__plant-store/requests; use GET, HEAD, DELETE'],
    ['POST', '/__plant-store/', 405, 'method_not_allowed', 'method: POST is not allowed on /__plant-store/; use GET, HEAD'],
    ['GET', '/__plant-store/nope', 404, 'not_found', 'path: no admin resource at /__plant-store/nope'],
    ['GET', '/__plant-store/requests?after=-1', 400, 'invalid_admin_query', 'after: -1 is not a request number'],
    ['GET', '/__plant-store/requests?after=1e3', 400, 'invalid_admin_query', 'after: 1e3 is not a request number'],
  ])('%s %s is a %i Error (%s)', (method, url, status, code, message) => {
    const answer = journaled().app.request(get(url, method));
    expect([answer.status, answer.code, answer.headers['content-type']]).toEqual([status, code, 'application/json']);
    expect(json(answer)).toEqual({ error: status, message: expect.stringContaining(message) as string });
    if (status === 405) expect(answer.headers.allow).toBe(message.split('use ')[1]);
  });

  it('without a journal its resources are a 404 Error saying how to keep one; with the admin path off, they are the contract’s 404', () => {
    const app = createApp({ tokens: [TEST_TOKEN] });
    expect(json(app.request(get('/__plant-store/requests')))).toEqual({ error: 404, message: 'journal: no request journal is kept; start the reference with --journal (startReference({ journal: true }))' });
    const off = createApp({ tokens: [TEST_TOKEN], journal: createJournal(), admin: false });
    expect(json(off.request(get('/__plant-store/requests')))).toEqual({ error: 404, message: expect.stringMatching(/^path: no operation at \/__plant-store\/requests/) as string });
  });

  it('is an absolute-form target too, and only the prefix as a whole path segment', () => {
    const { app } = journaled();
    expect(app.request(get('http://127.0.0.1:3000/__plant-store/requests')).status).toBe(200);
    expect(json(app.request(get('/__plant-storey/requests')))).toMatchObject({ message: expect.stringMatching(/^path: no operation/) as string });
    expect(app.request(get('/__plant-store')).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('the page has no external asset, and a policy that allows only its own script, style and origin', () => {
    const page = journaled().app.request(get('/__plant-store/'));
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/^<!doctype html>/);
    expect(page.body).not.toMatch(/\b(?:src|href)="(?!data:|\/__plant-store\/)/);
    expect(page.body).not.toMatch(/https?:\/\//);
    const policy = page.headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).toMatch(/connect-src 'self'/);
  });

  it('changes no answer to the battery, and admin requests between them change nothing', () => {
    const plain = createApp({ tokens: [TEST_TOKEN] });
    const { app } = journaled();
    for (const c of contractCases('no-socket')) {
      const request = toAppRequest(c);
      app.request(get('/__plant-store/requests'));
      expect(app.request(request), c.name).toEqual(plain.request(request));
    }
    expect(app.store.size).toBe(plain.store.size);
  });

  it('is refused at start-up when the contract declares a path under it, unless the admin path is off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-admin-'));
    try {
      const document = parseYaml(readFileSync(contract.file, 'utf8')) as { paths: Record<string, unknown> };
      document.paths['/__plant-store/plants'] = document.paths['/plants'];
      const file = join(dir, 'openapi.yaml');
      writeFileSync(file, stringifyYaml(document));
      const clashing = loadContract(file);
      expect(() => createApp({ tokens: [TEST_TOKEN], contract: clashing })).toThrow("the contract declares /__plant-store/plants under /__plant-store/, the kit's reserved admin path; serve it with the admin path off (--no-admin)");
      const served = createApp({ tokens: [TEST_TOKEN], contract: clashing, admin: false });
      expect(served.request(post(undefined, undefined, '/__plant-store/plants')).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers pages on other origins on the mock (CORS), and adminRoutes serves any journal', async () => {
    const mock = await createMock({ journal: createJournal() });
    const read = await mock.request(get('/__plant-store/requests', 'GET', { origin: 'http://localhost:5173' }));
    expect(read.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const proxyJournal = createJournal<ProxyVerdict>();
    const verdict: ProxyVerdict = { outcome: 'violated', findings: [{ check: 'status-declared', severity: 'failure', message: 'status 201 is not declared' }], judgedBy: ['status-declared'] };
    proxyJournal.add({ ...exchange(), verdict });
    const routes = adminRoutes(proxyJournal);
    expect(json(routes(get('/__plant-store/requests'), '/__plant-store/requests', ''))).toMatchObject({ requests: [{ verdict }] });
  });
});
