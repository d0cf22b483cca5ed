/**
 * The checking proxy over real sockets (proxy/proxy.ts): in front of the reference every answer of
 * the battery comes back as the reference gives it directly, with no Plant-Store-Violations; in
 * front of faulty implementations the header names the check (201: accepts-valid and
 * status-declared; a dropped tag, a rounded id: echo) and `errors` makes it a 502 Error; a token
 * it does not know is judged as the upstream took it; forwarding keeps the request and the answer
 * (hop-by-hop fields aside, RFC 9110, section 7.6.1); transport failures of the upstream; a token
 * never in what the proxy tells.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { startProxy } from '../../api/servers.js';
import { isJsonObject, loadContract, parseJson } from '../../src/openapi/index.js';
import { createProxyServer, describeExchange, formatSummary, listenProxy, summaryToJUnit, type ProxiedExchange, type ProxyOptions, type RunningProxy } from '../../proxy/index.js';
import { assertRequests, createJournal, findRequests, MAX_JOURNAL_SIZE, type Journal, type JournalEntry, type JournalSnapshot, type ProxyVerdict } from '../../src/http/index.js';
import { BATTERY } from '../battery/battery.js';
import { runnable, sendCase } from '../battery/run.js';
import { FAULTY_IMPLEMENTATIONS } from '../faulty/faults.js';
import { RawConnection, rawExchange, rawRequest, send, type WireResponse } from '../support/http.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const POST = { method: 'POST', path: '/plants', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' } } as const;
const body = (text: string): Buffer => Buffer.from(text);

/** A proxy in front of `upstream`, every exchange it told, and its journal (one of the largest size, unless `options` say otherwise). */
async function proxyFor(upstream: string, options: Partial<ProxyOptions> = {}): Promise<RunningProxy & { readonly exchanges: ProxiedExchange[]; readonly journal: Journal<ProxyVerdict> }> {
  const exchanges: ProxiedExchange[] = [];
  const journal = options.journal ?? createJournal<ProxyVerdict>({ size: MAX_JOURNAL_SIZE });
  const running = await listenProxy({ upstream, port: 0, ...options, journal, onExchange: (exchange) => exchanges.push(exchange) });
  return Object.assign(running, { exchanges, journal });
}

/** The checks the proxy's verdict names, once each, in order: what Plant-Store-Violations says of an answer that only failed. */
const checksOf = (entry: JournalEntry<ProxyVerdict> | undefined): string => [...new Set(entry?.verdict.findings.map((finding) => finding.check))].join(', ');

/** A small upstream of the test's own: `answer` writes each answer; every request is kept as it arrived. */
async function upstreamOf(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<{ url: string; seen: { req: IncomingMessage; body: Buffer }[]; close: () => Promise<void> }> {
  const seen: { req: IncomingMessage; body: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = Buffer.concat(chunks);
      seen.push({ req, body: received });
      answer(req, res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Fields that belong to one connection or one framing, not to the answer (RFC 9110, section 7.6.1), and the date it was written. */
const PER_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
function endToEnd(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_HOP.has(name)));
}

const violations = (answer: WireResponse): string | undefined => answer.headers['plant-store-violations'];

describe('in front of the reference', () => {
  let direct: Awaited<ReturnType<typeof startReference>>;
  let behind: Awaited<ReturnType<typeof startReference>>;
  let proxy: Awaited<ReturnType<typeof proxyFor>>;
  beforeAll(async () => {
    // Two references fed the same requests in the same order: their stores stay alike.
    direct = await startReference();
    behind = await startReference();
    // The admin path off: /__plant-store/ is forwarded too, and answered as the reference answers it.
    proxy = await proxyFor(behind.url, { tokens: [TEST_TOKEN], admin: false });
  });
  afterAll(async () => {
    await Promise.all([proxy.close(), direct.close(), behind.close()]);
  });

  /**
   * Every battery case a client can send over a socket, but raw bytes: what is not HTTP is
   * answered by the proxy's own HTTP parser (node:http), never forwarded.
   */
  const cases = BATTERY.flatMap(([, group]) => runnable(group, 'socket')).filter((c) => c.request.raw === undefined);

  it('passes every battery answer through as the reference gives it directly, with no Plant-Store-Violations', async () => {
    expect(cases.length).toBeGreaterThan(150);
    let quoted = 0;
    for (const c of cases) {
      const [wanted, got] = await Promise.all([sendCase(direct.url, c), sendCase(proxy.url, c)]);
      if (got.body.toString('latin1').includes(TEST_TOKEN)) quoted++;
      expect(got.status, c.name).toBe(wanted.status);
      expect(got.body.toString('latin1'), c.name).toBe(wanted.body.toString('latin1'));
      expect(endToEnd(got.headers), c.name).toEqual(endToEnd(wanted.headers));
    }
    // Every exchange was judged, by the checks that apply, and none found anything.
    expect(proxy.exchanges.length).toBe(cases.length);
    expect(proxy.exchanges.filter((e) => e.notJudged !== undefined || e.findings.length > 0).map((e) => `${e.request.method} ${e.request.target}: ${e.notJudged ?? e.findings.map((f) => f.message).join('; ')}`)).toEqual([]);
    const summary = proxy.summary();
    expect(summary.passed).toBe(true);
    for (const check of ['response-shape', 'status-declared', 'accepts-valid', 'rejects-invalid', 'requires-auth', 'no-server-error', 'echo']) expect(summary.checks[check]?.judged, check).toBeGreaterThan(0);

    // The journal holds every exchange, each passed by the checks that judged it, in the order answered.
    const entries = proxy.journal.list();
    expect(entries).toHaveLength(cases.length);
    expect(entries.map((entry) => entry.answer.status)).toEqual(proxy.exchanges.map((exchange) => exchange.answered));
    expect(entries.filter((entry) => entry.verdict.outcome !== 'passed').map((entry) => `${entry.request.method} ${entry.request.target}: ${entry.verdict.outcome}`)).toEqual([]);
    expect(entries.every((entry) => entry.verdict.judgedBy.length > 0)).toBe(true);
    // The test can fail: some answers quote the token (sent without its scheme, the reference's message names it).
    expect(quoted).toBeGreaterThan(0);
    const leaks = entries.filter((entry) => JSON.stringify(entry).includes(TEST_TOKEN));
    expect(leaks.map((entry) => `${entry.request.target} ${JSON.stringify(entry.request.headers)}`)).toEqual([]);
  });

  it('without --token, the wrong and the right token are both judged as the reference takes them: nothing to report', async () => {
    const blind = await proxyFor(behind.url);
    try {
      for (const authorization of [`Bearer ${TEST_TOKEN}`, 'Bearer someone-else', 'Basic dGVzdA==']) {
        const answer = await send(blind.url, { ...POST, headers: { ...POST.headers, authorization }, body: body('{"name":"Fern","id":9223372036854775807}') });
        expect(violations(answer), authorization).toBeUndefined();
      }
      expect(blind.exchanges.map((e) => e.judgedBy.includes('accepts-valid'))).toEqual([true, false, false]);
    } finally {
      await blind.close();
    }
  });
});

/** A faulty implementation of test/faulty by name. */
function faulty(name: string): Promise<{ readonly url: string; close(): Promise<void> }> {
  const implementation = FAULTY_IMPLEMENTATIONS.find((f) => f.name === name);
  if (implementation === undefined) throw new Error(`no faulty implementation ${name}`);
  return implementation.start();
}

/** The reference's 200s with the tag dropped: a plant stored without its optional property. */
function dropsTag(): ReturnType<typeof startFaulty> {
  return startFaulty((_request, correct) => {
    const answer = correct();
    if (answer.status !== 200) return answer;
    const plant = parseJson(answer.body);
    return isJsonObject(plant) ? { ...answer, body: JSON.stringify({ name: plant.name, id: Number((plant.id as { value: string }).value) }) } : answer;
  });
}

describe('in front of faulty implementations: the header names the check, --errors gives a 502 Error', () => {
  const FAULTS: readonly (readonly [name: string, start: () => Promise<{ readonly url: string; close(): Promise<void> }>, plant: string, checks: string])[] = [
    ['answers 201', () => faulty('created-instead-of-ok'), '{"name":"Fern","id":1}', 'status-declared, accepts-valid'],
    ['drops the tag', dropsTag, '{"name":"Fern","id":2,"tag":"green"}', 'echo'],
    ['rounds ids through a double', () => faulty('rounds-ids-through-a-double'), '{"name":"Fern","id":9007199254740993}', 'echo'],
  ];

  it.for(FAULTS.flatMap(([name, start, plant, checks]) => [true, false].map((known) => ({ name, start, plant, checks, known }))))('$name (token known: $known)', async ({ start, plant, checks, known }) => {
    const upstream = await start();
    const proxy = await proxyFor(upstream.url, known ? { tokens: [TEST_TOKEN] } : {});
    const strict = await proxyFor(upstream.url, { errors: true });
    try {
      const wanted = await send(upstream.url, { ...POST, body: body(plant) });
      const got = await send(proxy.url, { ...POST, body: body(plant) });
      // The answer itself is untouched: a rounded id comes back rounded.
      expect(got.status).toBe(wanted.status);
      expect(got.body.toString()).toBe(wanted.body.toString());
      expect(violations(got)).toBe(checks);
      expect(got.headers['plant-store-warnings']).toBeUndefined();
      // The journal holds the exchange: the upstream's answer and the findings that named those checks.
      const [entry] = proxy.journal.list();
      expect(entry?.verdict).toMatchObject({ outcome: 'violated' });
      expect(checksOf(entry)).toBe(checks);
      expect(entry?.verdict.findings.every((finding) => finding.severity === 'failure' && finding.message.length > 0)).toBe(true);
      expect(entry?.answer).toMatchObject({ status: wanted.status, body: { text: wanted.body.toString() } });
      expect(entry?.request).toMatchObject({ method: 'POST', path: '/plants', body: { text: plant } });

      const replaced = await send(strict.url, { ...POST, body: body(plant) });
      expect(replaced.status).toBe(502);
      expect(replaced.headers['content-type']).toBe('application/json');
      expect(violations(replaced)).toBe(checks);
      const error = JSON.parse(replaced.body.toString()) as { error: number; message: string };
      expect(error.error).toBe(502);
      for (const check of checks.split(', ')) expect(error.message).toContain(`${check}: `);
      expect(Object.keys(error).sort()).toEqual(['error', 'message']);
      // With errors, the journal keeps the upstream's answer - what was judged - and the 502 the client got instead.
      const [replacedEntry] = strict.journal.list();
      expect(replacedEntry?.answer.status).toBe(wanted.status);
      expect(replacedEntry?.verdict).toMatchObject({ outcome: 'violated', answered: 502 });
    } finally {
      await Promise.all([proxy.close(), strict.close(), upstream.close()]);
    }
  });

  it('a 2xx to no credentials at all is a requires-auth failure, token known or not', async () => {
    const upstream = await faulty('accepts-missing-token');
    const proxy = await proxyFor(upstream.url);
    try {
      const answer = await send(proxy.url, { ...POST, headers: { 'content-type': 'application/json' }, body: body('{"name":"Fern","id":3}') });
      expect(answer.status).toBe(200);
      expect(violations(answer)).toBe('requires-auth');
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('a 401 to a token the proxy was told the upstream accepts breaks rule 1; to one it was not told, it does not', async () => {
    const upstream = await startReference({ tokens: ['the-upstreams-token'] });
    const told = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    const blind = await proxyFor(upstream.url);
    try {
      const request = { ...POST, body: body('{"name":"Fern","id":4}') };
      expect(violations(await send(told.url, request))).toBe('accepts-valid');
      expect(violations(await send(blind.url, request))).toBeUndefined();
    } finally {
      await Promise.all([told.close(), blind.close(), upstream.close()]);
    }
  });
});

describe('forwarding: the request and the answer unchanged but for what RFC 9110, section 7.6 asks of an intermediary', () => {
  it('hop-by-hop fields are not forwarded, Host names the upstream, Via is added; other fields keep their order, case and repeats; the body is byte for byte', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":404,"message":"no"}');
    });
    const proxy = await proxyFor(`${upstream.url}/api/`);
    const connection = await RawConnection.open(proxy.port);
    try {
      const binary = Buffer.from([0x7b, 0xff, 0x00, 0xc0, 0xaf, 0x7d]);
      const head = [
        'POST /other?x=1&access_token=abc HTTP/1.1',
        `Host: 127.0.0.1:${proxy.port}`,
        'X-First: 1',
        'Connection: keep-alive, X-Secret-Hop',
        'X-Secret-Hop: never forwarded',
        'Keep-Alive: timeout=5',
        'TE: trailers',
        'Proxy-Connection: keep-alive',
        'X-Dup: a',
        'x-dup: b',
        'Via: 1.1 somewhere',
        'Transfer-Encoding: chunked',
        '',
        '',
      ].join('\r\n');
      connection.send(Buffer.concat([Buffer.from(head), Buffer.from(`3\r\n`), binary.subarray(0, 3), Buffer.from('\r\n3\r\n'), binary.subarray(3), Buffer.from('\r\n0\r\n\r\n')]));
      const answer = await connection.next();
      expect(answer.status).toBe(404);
      const [seen] = upstream.seen;
      expect(seen?.req.url).toBe('/api/other?x=1&access_token=abc');
      expect(seen?.body).toEqual(binary);
      const raw = seen?.req.rawHeaders ?? [];
      const names = raw.filter((_v, i) => i % 2 === 0);
      expect(names.map((n) => n.toLowerCase())).not.toContain('x-secret-hop');
      expect(names.map((n) => n.toLowerCase())).not.toContain('keep-alive');
      expect(names.map((n) => n.toLowerCase())).not.toContain('te');
      expect(names.map((n) => n.toLowerCase())).not.toContain('proxy-connection');
      expect(seen?.req.headers.host).toBe(new URL(upstream.url).host);
      expect(seen?.req.headers.via).toBe('1.1 somewhere, 1.1 plant-store-proxy');
      expect(names.filter((n) => /^x-(first|dup)$/i.test(n))).toEqual(['X-First', 'X-Dup', 'x-dup']);
      expect(seen?.req.headers['x-dup']).toBe('a, b');
      // The access_token is masked in what the proxy tells.
      expect(proxy.exchanges[0]?.request.target).toBe('/other?x=1&access_token=***');
    } finally {
      connection.destroy();
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('an absolute-form target goes up in origin form (RFC 9112, section 3.2.2)', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
      res.end('{"error":405,"message":"no"}');
    });
    const proxy = await proxyFor(upstream.url);
    const connection = await RawConnection.open(proxy.port);
    try {
      connection.send(`GET http://127.0.0.1:${proxy.port}/plants?a=b HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n\r\n`);
      expect((await connection.next()).status).toBe(405);
      expect(upstream.seen[0]?.req.url).toBe('/plants?a=b');
    } finally {
      connection.destroy();
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it("the answer's fields and body come back as sent: repeated fields, a gzip body still compressed (judged decoded), no body to HEAD", async () => {
    const plant = gzipSync(Buffer.from('{"name":"Fern","id":5}'));
    const upstream = await upstreamOf((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(405, { 'content-type': 'application/json', allow: 'POST', 'content-length': '31' });
        res.end();
        return;
      }
      res.writeHead(200, [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'gzip'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['X-Upstream', 'yes'],
      ].flat());
      res.end(plant);
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    try {
      const answer = await send(proxy.url, { ...POST, headers: { ...POST.headers, 'accept-encoding': 'gzip' }, body: body('{"name":"Fern","id":5,"tag":"green"}') });
      expect(answer.body).toEqual(plant);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['set-cookie']).toBe('a=1, b=2');
      expect(answer.headers['x-upstream']).toBe('yes');
      // The tag the upstream forgot is found in the decoded body.
      expect(violations(answer)).toBe('echo');
      const head = await send(proxy.url, { method: 'HEAD', path: '/plants', headers: {} });
      expect(head.status).toBe(405);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe('31');
      expect(violations(head)).toBeUndefined();
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('a body in a coding the proxy cannot undo passes through unjudged, and says so', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
      res.end(Buffer.from([1, 2, 3]));
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    try {
      const answer = await send(proxy.url, { ...POST, body: body('{"name":"Fern","id":6}') });
      expect(answer.body).toEqual(Buffer.from([1, 2, 3]));
      expect(violations(answer)).toBeUndefined();
      expect(proxy.exchanges[0]?.notJudged).toMatch(/content coding the proxy cannot undo \(zstd\)/);
      expect(describeExchange(proxy.exchanges[0] as ProxiedExchange)).toMatch(/not judged/);
      expect(proxy.summary().notJudged).toBe(1);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('a page may read the proxy\'s own fields where the upstream lets it read the answer (CORS), and a 502 keeps the CORS fields', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'access-control-allow-origin': 'http://page.test', 'access-control-expose-headers': 'X-Request-Id', vary: 'Origin' });
      res.end('{"name":"Fern","id":7}');
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    const strict = await proxyFor(upstream.url, { tokens: [TEST_TOKEN], errors: true });
    try {
      const request = { ...POST, headers: { ...POST.headers, origin: 'http://page.test' }, body: body('{"name":"Fern","id":7}') };
      const answer = await send(proxy.url, request);
      expect(answer.headers['access-control-expose-headers']).toBe('X-Request-Id, Plant-Store-Violations');
      const replaced = await send(strict.url, request);
      expect(replaced.status).toBe(502);
      expect(replaced.headers['access-control-allow-origin']).toBe('http://page.test');
      expect(replaced.headers['access-control-expose-headers']).toBe('X-Request-Id, Plant-Store-Violations');
    } finally {
      await Promise.all([proxy.close(), strict.close(), upstream.close()]);
    }
  });
});

describe("the answer's hygiene, judged from what the proxy saw of the wire", () => {
  const plant = '{"name":"Fern","id":11}';

  it.for<[string, (req: IncomingMessage, res: ServerResponse) => void, Record<string, string>, string | undefined]>([
    ['a gzip answer to Accept-Encoding: identity', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(plant));
    }, { 'accept-encoding': 'identity' }, 'content-coding'],
    ['a zstd answer to a request that accepts gzip only', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
      res.end(Buffer.from([1, 2, 3]));
    }, { 'accept-encoding': 'gzip' }, 'content-coding'],
    ['a body that is not the gzip it says it is', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(plant);
    }, {}, 'content-coding'],
    ['a UTF-8 byte order mark before the JSON', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`\ufeff${plant}`);
    }, {}, 'no-byte-order-mark'],
    ['a plain answer, chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write(plant.slice(0, 5));
      res.end(plant.slice(5));
    }, {}, undefined],
  ])('%s', async ([, answer, headers, expected]) => {
    const upstream = await upstreamOf((req, res) => {
      answer(req, res);
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    try {
      const got = await send(proxy.url, { ...POST, headers: { ...POST.headers, ...headers }, body: body(plant) });
      expect(violations(got), JSON.stringify(proxy.exchanges[0]?.findings)).toBe(expected);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it("answers that carry another request's plant (a variable shared between requests) are misdelivered: one-answer-per-request", async () => {
    let last = '';
    const upstream = await upstreamOf((_req, res, received) => {
      const previous = last;
      last = received.toString();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(previous === '' ? last : previous);
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN] });
    try {
      expect(violations(await send(proxy.url, { ...POST, body: body('{"name":"Fern","id":12}') }))).toBeUndefined();
      // The upstream connection is kept: the answer carries the plant its previous request sent (echo leaves a misdelivered answer to this check).
      expect(violations(await send(proxy.url, { ...POST, body: body('{"name":"Ivy","id":13}') }))).toBe('one-answer-per-request');
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });
});

describe('when the upstream gives no answer', () => {
  it('a timeout is a 504 Error and a no-server-error finding; a reset a 502 and the same', async () => {
    const upstream = await upstreamOf((req, res) => {
      if (req.url === '/plants?reset') res.socket?.destroy();
      // Otherwise: never answered.
    });
    const proxy = await proxyFor(upstream.url, { tokens: [TEST_TOKEN], timeoutMs: 300 });
    try {
      const late = await send(proxy.url, { ...POST, body: body('{"name":"Fern","id":8}') });
      expect(late.status).toBe(504);
      expect(JSON.parse(late.body.toString())).toMatchObject({ error: 504 });
      expect(violations(late)).toBe('no-server-error');
      const reset = await send(proxy.url, { ...POST, path: '/plants?reset', body: body('{"name":"Fern","id":8}') });
      expect(reset.status).toBe(502);
      expect(violations(reset)).toBe('no-server-error');
      expect(proxy.exchanges.map((e) => (e.outcome.kind === 'failure' ? e.outcome.failure : e.outcome.status))).toEqual(['timeout', 'reset']);
      // No answer to keep: the journal keeps the proxy's Error, and the failure in the verdict.
      expect(proxy.journal.list().map((entry) => [entry.answer.status, entry.verdict.outcome, entry.verdict.failure, checksOf(entry)])).toEqual([
        [504, 'violated', 'timeout', 'no-server-error'],
        [502, 'violated', 'reset', 'no-server-error'],
      ]);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('an upstream that cannot be reached is a 502 Error, not judged: an outage is no answer that broke the contract', async () => {
    const gone = await upstreamOf(() => undefined);
    await gone.close();
    const proxy = await proxyFor(gone.url);
    try {
      const answer = await send(proxy.url, { ...POST, body: body('{"name":"Fern","id":9}') });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: 502, message: expect.stringContaining('connection-refused') as unknown });
      expect(violations(answer)).toBeUndefined();
      expect(proxy.exchanges[0]?.notJudged).toMatch(/could not be reached/);
      const [entry] = proxy.journal.list();
      expect(entry?.verdict).toMatchObject({ outcome: 'not-judged', failure: 'connection-refused', reason: expect.stringMatching(/could not be reached/) as unknown, findings: [], judgedBy: [] });
      expect(entry?.answer.status).toBe(502);
    } finally {
      await proxy.close();
    }
  });
});

describe('what the proxy tells: never a token', () => {
  it('the log line, the exchange, the summary and the 502 mask or redact the token, even where the answer quotes it', async () => {
    const secret = 'sekret-token_42';
    const upstream = await upstreamOf((req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'Fern', id: 10, note: `stored for ${req.headers.authorization ?? ''}` }));
    });
    const proxy = await proxyFor(upstream.url, { errors: true });
    try {
      const answer = await send(proxy.url, { ...POST, path: `/plants?access_token=${secret}`, headers: { ...POST.headers, authorization: `Bearer ${secret}` }, body: body('{"name":"Fern","id":10}') });
      expect(answer.status).toBe(502);
      const exchange = proxy.exchanges[0] as ProxiedExchange;
      // The journal too, though the upstream's answer it keeps quotes the token: blotted out.
      expect(proxy.journal.list()[0]?.answer.body).toMatchObject({ text: expect.stringContaining('stored for Bearer ***') as unknown });
      const told = [answer.body.toString(), describeExchange(exchange) ?? '', JSON.stringify({ ...exchange, outcome: undefined }), formatSummary(proxy.summary()), summaryToJUnit(proxy.summary()), JSON.stringify(proxy.journal.list())].join('\n');
      expect(told).not.toContain(secret);
      // One masking policy with the journal's (src/http/secrets.ts): what quotes the token says `***` in its place.
      expect(answer.body.toString()).toContain('stored for Bearer ***');
      expect(describeExchange(exchange)).toContain('stored for Bearer ***');
      expect(exchange.request.headers.authorization).toBe('Bearer ***');
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });
});

describe("the proxy's journal at the admin path /__plant-store/, and from code (startProxy)", () => {
  const plant = '{"name":"Fern","id":9223372036854775807,"tag":"green"}';
  const read = async (url: string, path = '/__plant-store/requests', method = 'GET'): Promise<WireResponse> => send(url, { method, path, headers: {} });

  it('in front of the reference: each exchange with the answer and its verdict; the token nowhere; DELETE clears; the page; bounded by journalSize', async () => {
    const upstream = await startReference();
    const proxy = await startProxy({ upstream: upstream.url, tokens: [TEST_TOKEN], journalSize: 3 });
    try {
      expect((await send(proxy.url, { ...POST, body: body(plant) })).status).toBe(200);
      expect((await send(proxy.url, { ...POST, headers: { 'content-type': 'application/json' }, body: body(plant) })).status).toBe(401);
      // A token sent without its scheme: the reference's message quotes it, the client gets it as the reference said it.
      const quoting = await send(proxy.url, { ...POST, headers: { ...POST.headers, authorization: TEST_TOKEN }, body: body(plant) });
      expect(quoting.body.toString()).toContain(TEST_TOKEN);

      const journal = await read(proxy.url);
      expect(journal.status).toBe(200);
      expect(journal.headers['content-type']).toBe('application/json');
      const text = journal.body.toString();
      expect(text).not.toContain(TEST_TOKEN);
      const snapshot = JSON.parse(text) as JournalSnapshot<ProxyVerdict>;
      expect(snapshot).toMatchObject({ capacity: 3, held: 3, dropped: 0, next: 4 });
      const [ok, missing, unschemed] = snapshot.requests;
      expect(ok?.request).toMatchObject({ method: 'POST', target: '/plants', path: '/plants', body: { bytes: plant.length, text: plant } });
      expect(ok?.request.headers).toMatchObject({ authorization: 'Bearer ***', 'content-type': 'application/json' });
      // The int64 id in the answer's text, digit for digit, as the reference gave it.
      expect(ok?.answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: { text: '{"name":"Fern","tag":"green","id":9223372036854775807}' } });
      expect(ok?.verdict).toMatchObject({ outcome: 'passed', findings: [] });
      expect(ok?.verdict.judgedBy).toEqual(expect.arrayContaining(['status-declared', 'accepts-valid', 'echo']));
      expect(missing?.answer.status).toBe(401);
      expect(missing?.verdict.outcome).toBe('passed');
      expect(unschemed?.request.headers.authorization).toBe('***');
      expect(unschemed?.answer.body).toMatchObject({ text: expect.stringContaining('the *** scheme is not accepted') as unknown });

      // From code: the same entries, and the journal's assertions work on the proxy.
      expect(JSON.parse(JSON.stringify(proxy.requests()))).toEqual(snapshot.requests);
      assertRequests(proxy, { method: 'POST', path: '/plants', body: { id: 9223372036854775807n }, headers: { authorization: 'Bearer ***' }, outcome: 'passed', status: 200 });
      expect(findRequests(proxy, { status: 401 })).toHaveLength(2);
      expect(findRequests(proxy, { outcome: 'violated' })).toEqual([]);
      // Admin requests are the proxy's own: not forwarded, not judged, not counted.
      expect(proxy.summary().exchanges).toBe(3);

      const page = await read(proxy.url, '/__plant-store/');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body.toString()).toContain('<title>Request journal');

      // journalSize: the oldest is forgotten, and counted.
      await send(proxy.url, { ...POST, body: body('{"name":"Ivy","id":2}') });
      expect(JSON.parse((await read(proxy.url)).body.toString())).toMatchObject({ held: 3, dropped: 1, next: 5 });
      expect(proxy.requests().map((entry) => entry.id)).toEqual([2, 3, 4]);

      const cleared = await read(proxy.url, '/__plant-store/requests', 'DELETE');
      expect(JSON.parse(cleared.body.toString())).toEqual({ cleared: 3 });
      expect(proxy.requests()).toEqual([]);
      expect((await read(proxy.url, '/__plant-store/requests', 'PUT')).status).toBe(405);
      expect((await read(proxy.url, '/__plant-store/other')).status).toBe(404);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('in front of an implementation that answers 201: the entry names the checks, and assertRequests lists it', async () => {
    const upstream = await faulty('created-instead-of-ok');
    const proxy = await startProxy({ upstream: upstream.url, tokens: [TEST_TOKEN] });
    try {
      const answer = await send(proxy.url, { ...POST, body: body('{"name":"Fern","id":1}') });
      expect(violations(answer)).toBe('status-declared, accepts-valid');
      const [entry] = proxy.requests();
      expect(entry?.answer.status).toBe(201);
      expect(entry?.verdict.outcome).toBe('violated');
      expect(entry?.verdict.findings.map(({ check, severity }) => [check, severity])).toEqual([
        ['status-declared', 'failure'],
        ['accepts-valid', 'failure'],
      ]);
      assertRequests(proxy, { check: 'accepts-valid', status: 201 });
      expect(() => assertRequests(proxy, { outcome: 'passed' })).toThrow(/#1 POST \/plants -> 201, violated: status-declared, accepts-valid; body \{"name":"Fern","id":1\}/);
      const text = (await read(proxy.url)).body.toString();
      expect(JSON.parse(text)).toMatchObject({ requests: [{ verdict: { outcome: 'violated' } }] });
      expect(text).not.toContain(TEST_TOKEN);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });

  it('admin: false forwards /__plant-store/ to the upstream like any other path (journaled like any other); on, the upstream never sees it', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":404,"message":"the upstream\'s own"}');
    });
    const on = await startProxy({ upstream: upstream.url });
    const off = await startProxy({ upstream: upstream.url, admin: false });
    try {
      expect((await read(on.url)).status).toBe(200);
      expect(upstream.seen).toHaveLength(0);
      const forwarded = await read(off.url);
      expect(forwarded.body.toString()).toContain("the upstream's own");
      expect(upstream.seen.map(({ req }) => req.url)).toEqual(['/__plant-store/requests']);
      assertRequests(off, { method: 'GET', path: '/__plant-store/requests', status: 404 });
      expect(on.requests()).toEqual([]);
    } finally {
      await Promise.all([on.close(), off.close(), upstream.close()]);
    }
  });

  it('journal: false keeps none (the admin path says how to keep one); a contract that declares a path under it is refused unless admin is off', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":404,"message":"no"}');
    });
    const none = await startProxy({ upstream: upstream.url, journal: false });
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-proxy-admin-'));
    try {
      expect('requests' in none).toBe(false);
      const answer = await read(none.url);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body.toString())).toEqual({ error: 404, message: 'journal: no request journal is kept; this proxy was started with journal: false' });

      const contract = loadContract();
      const document = parseYaml(readFileSync(contract.file, 'utf8')) as { paths: Record<string, unknown> };
      document.paths['/__plant-store/plants'] = document.paths['/plants'];
      const file = join(dir, 'openapi.yaml');
      writeFileSync(file, stringifyYaml(document));
      const clashing = loadContract(file);
      expect(() => createProxyServer({ upstream: upstream.url, contract: clashing })).toThrow("the contract declares /__plant-store/plants under /__plant-store/, the kit's reserved admin path");
      createProxyServer({ upstream: upstream.url, contract: clashing, admin: false }).dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([none.close(), upstream.close()]);
    }
  });

  it('a body longer than the proxy keeps (1 MiB) is journaled with its whole length, cut', async () => {
    // An upstream that reads the whole body before it answers (the reference would refuse it early).
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":400,"message":"too long"}');
    });
    const proxy = await startProxy({ upstream: upstream.url, tokens: [TEST_TOKEN] });
    try {
      const long = `{"name":"${'x'.repeat(2 * 1024 * 1024)}","id":1}`;
      expect((await send(proxy.url, { ...POST, body: body(long) })).status).toBe(400);
      expect(upstream.seen[0]?.body.length).toBe(long.length);
      const [entry] = proxy.requests();
      expect(entry?.request.body).toMatchObject({ bytes: long.length, truncated: true });
      expect(entry?.request.body && 'text' in entry.request.body ? entry.request.body.text.length : 0).toBe(16 * 1024);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });
});

describe('the socket layer the proxy shares with the servers (src/http/listen.ts)', () => {
  it('a request that is not HTTP gets a 400 Error from the proxy itself, never forwarded', async () => {
    const upstream = await upstreamOf((_req, res) => res.end());
    const proxy = await proxyFor(upstream.url);
    try {
      const answer = await rawExchange(proxy.port, rawRequest('GET / NOT-HTTP/9\nHost: x'));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: 400 });
      expect(upstream.seen).toEqual([]);
      expect(proxy.exchanges).toEqual([]);
    } finally {
      await Promise.all([proxy.close(), upstream.close()]);
    }
  });
});
