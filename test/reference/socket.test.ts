/**
 * The reference server over a real socket (127.0.0.1, port 0): the whole battery through
 * node:http's client, each answer also compared with the socket-free app's, then what only a
 * socket shows - limits enforced while reading, credentials before the body, bytes that are not
 * HTTP, keep-alive, timeouts and graceful shutdown.
 */
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/openapi/index.js';
import { createApp } from '../../src/reference/index.js';
import { ALL_CASES, DEFAULT_HEADERS, toAppRequest } from '../battery/battery.js';
import { batteryTable, runnable, sendCase } from '../battery/run.js';
import { expectationFor } from '../battery/targets.js';
import { decodeBody, expectAnswer, type Expected } from '../support/expect-answer.js';
import { connectOutcome, RawConnection, rawExchange, rawRequest, send } from '../support/http.js';
import { startReference, TEST_TOKEN } from '../support/servers.js';
import { HAS_REDIS, REDIS_SKIP, referenceOnRedis } from '../support/redis.js';
import { startReference as startSharedReference } from '../../api/index.js';

type Reference = Awaited<ReturnType<typeof startReference>>;

const ok = (id: string, name = 'a'): Expected => ({ status: 200, plant: { name, id } });
/** The head of a POST /plants with the test token and a JSON body of `length` bytes, plus any further header lines. */
const authorizedHead = (length: number, more = ''): string => `POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Length: ${length}${more}`;
const post = (body: string, headers: Record<string, string> = DEFAULT_HEADERS) => ({ method: 'POST', path: '/plants', headers, body: Buffer.from(body) });

describe('the battery over a socket', () => {
  let server: Reference;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  beforeAll(async () => {
    server = await startReference();
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  describe.each(batteryTable('socket'))('%s', (_group, cases) => {
    it.each(cases)('%s', async (_name, c) => {
      const answer = await sendCase(server.url, c, agent);
      expectAnswer(answer, expectationFor(c, 'reference', TEST_TOKEN), c.request);
      if (c.request.raw) return;
      // The socket layer adds nothing and loses nothing: the same answer as the app without a socket.
      const direct = createApp({ tokens: [TEST_TOKEN] }).request(toAppRequest(c));
      expect(decodeBody(answer.body)).toBe(c.request.method === 'HEAD' ? '' : direct.body);
      for (const [name, value] of Object.entries(direct.headers)) expect(answer.headers[name]).toBe(value);
    });
  });

  it('runs all but the named socket-free cases', () => {
    expect(runnable(ALL_CASES, 'socket').length).toBeGreaterThan(ALL_CASES.length - 5);
  });

  it('a repeated id replaces the plant (decision 2) and the store holds the last one', async () => {
    expectAnswer(await send(server.url, post('{"name":"a","id":-9223372036854775808,"tag":"x"}'), agent), { status: 200, plant: { name: 'a', tag: 'x', id: '-9223372036854775808' } });
    expectAnswer(await send(server.url, post('{"name":"b","id":-9.223372036854775808e18}'), agent), ok('-9223372036854775808', 'b'));
    expect(stringifyJson(server.app.store.get(-(2n ** 63n)))).toBe('{"name":"b","id":-9223372036854775808}');
  });
});

// The same battery on the shared store (issue 31): the bundled contract's every answer, int64 exact, from Redis.
describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'the battery over a socket, on Redis' : `the battery over a socket, on Redis: skipped, ${REDIS_SKIP}`, () => {
  const shared = referenceOnRedis((store) => startSharedReference({ store, tokens: [TEST_TOKEN] }));
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  afterAll(() => {
    agent.destroy();
  });

  describe.each(batteryTable('socket'))('%s', (_group, cases) => {
    it.each(cases)('%s', async (_name, c) => {
      const answer = await sendCase(shared.url(), c, agent);
      expectAnswer(answer, expectationFor(c, 'reference', TEST_TOKEN), c.request);
      if (c.request.raw) return;
      // The store in Redis answers what the store in memory does, byte for byte.
      const direct = createApp({ tokens: [TEST_TOKEN] }).request(toAppRequest(c));
      expect(decodeBody(answer.body)).toBe(c.request.method === 'HEAD' ? '' : direct.body);
    });
  });
});

describe('limits enforced while reading', () => {
  const LIMIT = 64 * 1024;
  let server: Reference;
  beforeAll(async () => {
    server = await startReference({ maxBodyBytes: LIMIT });
  });
  afterAll(() => server.close());

  it('a Content-Length over the limit is answered before any of the body is sent, and the connection closes', async () => {
    const answer = await rawExchange(server.port, rawRequest(authorizedHead(LIMIT + 1)), { waitForClose: true });
    expectAnswer(answer, { status: 400, code: 'body_too_large', message: `larger than the limit of ${LIMIT} bytes` });
    expect(answer.closedAfter).toBe(true);
  });

  it('a chunked body that grows past the limit is answered once it does, before the client finishes', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(rawRequest(`POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nTransfer-Encoding: chunked`));
    const chunk = 'x'.repeat(8 * 1024);
    let sent = 0;
    const answered = connection.next();
    let answer;
    // Keep sending until the answer arrives; the body is never finished.
    while (!(answer = await Promise.race([answered, new Promise<undefined>((resolve) => setTimeout(() => { resolve(undefined); }, 5))]))) {
      if (sent > LIMIT * 4) throw new Error('no answer after four times the limit');
      connection.send(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      sent += chunk.length;
    }
    expectAnswer(answer, { status: 400, code: 'body_too_large', message: 'larger than the limit' });
    expect(sent).toBeGreaterThan(LIMIT);
    await connection.closed;
    expect(server.app.store.size).toBe(0);
  });

  it('a body of exactly the limit, chunked, is accepted', async () => {
    const body = `{"name":"${'a'.repeat(LIMIT - 18)}","id":1}`;
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const half = body.length / 2;
    const answer = await rawExchange(
      server.port,
      rawRequest(`POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nTransfer-Encoding: chunked`) +
        `${half.toString(16)}\r\n${body.slice(0, half)}\r\n${(body.length - half).toString(16)}\r\n${body.slice(half)}\r\n0\r\n\r\n`,
    );
    expectAnswer(answer, ok('1', 'a'.repeat(LIMIT - 18)));
  });
});

describe('credentials before the body', () => {
  let server: Reference;
  beforeAll(async () => {
    server = await startReference();
  });
  afterAll(() => server.close());

  it('a 401 arrives while the client has not finished sending its body', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(rawRequest('POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer wrong\nContent-Type: application/json\nContent-Length: 100', '{"name":'));
    expectAnswer(await connection.next(), { status: 401, code: 'unauthorized', message: 'not accepted' });
    connection.destroy();
  });

  it('with Expect: 100-continue a refused head gets its final status and no 100 (RFC 9110 section 10.1.1)', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(rawRequest('POST /plants HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 19\nExpect: 100-continue'));
    expectAnswer(await connection.next(), { status: 401, code: 'unauthorized', message: 'missing bearer credentials' });
    connection.destroy();
  });

  it('with Expect: 100-continue an admitted head gets a 100, then the answer to its body', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(rawRequest(authorizedHead(20, '\nExpect: 100-continue')));
    expect((await connection.next()).status).toBe(100);
    connection.send('{"name":"a","id":11}');
    expectAnswer(await connection.next(), ok('11'));
    connection.destroy();
  });

  it.each([
    ['the accepted token first', `Authorization: Bearer ${TEST_TOKEN}\nAuthorization: Bearer wrong`],
    ['the accepted token second', `Authorization: Bearer wrong\nAuthorization: Bearer ${TEST_TOKEN}`],
    ['the accepted token twice', `Authorization: Bearer ${TEST_TOKEN}\nAuthorization: Bearer ${TEST_TOKEN}`],
  ])('two Authorization fields (%s) are one malformed set of credentials -> 401', async (_label, fields) => {
    const answer = await rawExchange(server.port, rawRequest(`POST /plants HTTP/1.1\nHost: x\n${fields}\nContent-Type: application/json\nContent-Length: 20`, '{"name":"a","id":13}'));
    expectAnswer(answer, { status: 401, code: 'unauthorized', message: 'malformed bearer token' });
    expect(server.app.store.get(13n)).toBeUndefined();
  });

  it('two Content-Type fields are not application/json -> 400', async () => {
    const answer = await rawExchange(server.port, rawRequest(`POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Type: text/plain\nContent-Length: 20`, '{"name":"a","id":14}'));
    expectAnswer(answer, { status: 400, code: 'unsupported_media_type', message: 'content-type: application/json, text/plain is not accepted' });
  });

  it('another expectation is ignored rather than answered with an empty 417', async () => {
    expectAnswer(await rawExchange(server.port, rawRequest(authorizedHead(20, '\nExpect: teapot'), '{"name":"a","id":12}')), ok('12'));
  });
});

describe('keep-alive', () => {
  let server: Reference;
  beforeAll(async () => {
    server = await startReference();
  });
  afterAll(() => server.close());

  it('one connection serves a 401, a 400, a 404, a 405 and then a 200', async () => {
    const connection = await RawConnection.open(server.port);
    const head = (auth: string, length: number) => `POST /plants HTTP/1.1\nHost: x\nAuthorization: ${auth}\nContent-Type: application/json\nContent-Length: ${length}`;
    connection.send(rawRequest(head('Bearer wrong', 19), '{"name":"a","id":1}'));
    expectAnswer(await connection.next(), { status: 401, code: 'unauthorized', message: 'not accepted' });
    connection.send(rawRequest(head(`Bearer ${TEST_TOKEN}`, 5), '{"na}'));
    expectAnswer(await connection.next(), { status: 400, code: 'malformed_json', message: 'malformed JSON' });
    connection.send(rawRequest('GET /nowhere HTTP/1.1\nHost: x'));
    expectAnswer(await connection.next(), { status: 404, code: 'not_found', message: '/nowhere' });
    connection.send(rawRequest('GET /plants HTTP/1.1\nHost: x'));
    expectAnswer(await connection.next(), { status: 405, code: 'method_not_allowed', message: 'GET', headers: { allow: 'POST' } });
    connection.send(rawRequest(head(`Bearer ${TEST_TOKEN}`, 20), '{"name":"a","id":21}'));
    expectAnswer(await connection.next(), ok('21'));
    expect(connection.isClosed).toBe(false);
    connection.destroy();
  });

  it('pipelined requests are answered in order', async () => {
    const connection = await RawConnection.open(server.port);
    const one = (id: number) => rawRequest(authorizedHead(20), `{"name":"a","id":${id}}`);
    connection.send(one(31) + rawRequest('GET /plants HTTP/1.1\nHost: x') + one(32));
    expectAnswer(await connection.next(), ok('31'));
    expectAnswer(await connection.next(), { status: 405, code: 'method_not_allowed', message: 'GET' });
    expectAnswer(await connection.next(), ok('32'));
    connection.destroy();
  });

  it('a refused request whose body is declared small keeps the connection and discards the body', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(rawRequest('POST /plants HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 20', '{"name":"a","id":41}'));
    expectAnswer(await connection.next(), { status: 401, code: 'unauthorized', message: 'missing' });
    connection.send(rawRequest(authorizedHead(20), '{"name":"b","id":42}'));
    expectAnswer(await connection.next(), ok('42', 'b'));
    expect(server.app.store.get(41n)).toBeUndefined();
    connection.destroy();
  });

  it('a client that leaves in the middle of its body stores nothing and the server goes on', async () => {
    for (let i = 0; i < 3; i++) {
      const leaving = await RawConnection.open(server.port);
      leaving.send(rawRequest(authorizedHead(40), '{"name":"gone","id":43'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      leaving.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await RawConnection.open(server.port);
    after.send(rawRequest(authorizedHead(24), '{"name":"after","id":44}'));
    expectAnswer(await after.next(), ok('44', 'after'));
    after.destroy();
    expect(server.app.store.get(43n)).toBeUndefined();
  });
});

describe('bytes that are not a request the contract knows', () => {
  let server: Reference;
  beforeAll(async () => {
    server = await startReference({}, { headersTimeoutMs: 300, requestTimeoutMs: 300 });
  });
  afterAll(() => server.close());

  it.each([
    ['plain words', 'hello\r\n\r\n'],
    ['a TLS ClientHello', Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, ...Array<number>(32).fill(0)])],
    ['NUL bytes', Buffer.alloc(64)],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['an unknown method', rawRequest('BREW /plants HTTP/1.1\nHost: x')],
    ['a lower-case method', rawRequest('post /plants HTTP/1.1\nHost: x')],
    ['an unknown HTTP version', rawRequest('POST /plants HTTP/9.9\nHost: x')],
    ['a space in the target', rawRequest('POST /pla nts HTTP/1.1\nHost: x')],
    ['a control character in a header', rawRequest('POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer a\u0001b')],
    ['a header without a colon', rawRequest('POST /plants HTTP/1.1\nHost: x\nAuthorization')],
    ['two Content-Lengths', rawRequest('POST /plants HTTP/1.1\nHost: x\nContent-Length: 1\nContent-Length: 2', 'ab')],
    ['Content-Length and chunked together', rawRequest('POST /plants HTTP/1.1\nHost: x\nContent-Length: 3\nTransfer-Encoding: chunked', '0\r\n\r\n')],
    ['a negative Content-Length', rawRequest('POST /plants HTTP/1.1\nHost: x\nContent-Length: -1')],
    ['a bad chunk size', rawRequest(`POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nTransfer-Encoding: chunked`, 'zz\r\n')],
  ])('%s -> 400 Error, connection closed', async (_label, bytes) => {
    const answer = await rawExchange(server.port, bytes, { waitForClose: true });
    expectAnswer(answer, { status: 400, code: 'malformed_request', message: 'request: not valid HTTP/1.1' });
    expect(answer.closedAfter).toBe(true);
  });

  it('an HTTP/1.1 request without Host -> 400 Error naming host (RFC 9112 section 3.2)', async () => {
    const answer = await rawExchange(server.port, rawRequest(`POST /plants HTTP/1.1\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Length: 19`, '{"name":"a","id":1}'));
    expectAnswer(answer, { status: 400, code: 'malformed_request', message: 'host: the Host header is required' });
  });

  it('an HTTP/1.0 request needs no Host and is answered, then closed', async () => {
    const answer = await rawExchange(server.port, rawRequest(`POST /plants HTTP/1.0\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Length: 20`, '{"name":"a","id":51}'), { waitForClose: true });
    expectAnswer(answer, ok('51'));
    expect(answer.closedAfter).toBe(true);
  });

  it('CONNECT gets the contract Error, not a silent close', async () => {
    const answer = await rawExchange(server.port, rawRequest('CONNECT 127.0.0.1:80 HTTP/1.1\nHost: 127.0.0.1:80'), { waitForClose: true });
    expectAnswer(answer, { status: 404, code: 'not_found', message: 'path: no operation at 127.0.0.1:80' });
    expect(answer.closedAfter).toBe(true);
  });

  it('an Upgrade request is answered as a plain request', async () => {
    const answer = await rawExchange(server.port, rawRequest('GET /plants HTTP/1.1\nHost: x\nConnection: Upgrade\nUpgrade: websocket'));
    expectAnswer(answer, { status: 405, code: 'method_not_allowed', message: 'GET' });
  });

  it('headers over 16 KiB -> 431 Error', async () => {
    const answer = await rawExchange(server.port, rawRequest(`POST /plants HTTP/1.1\nHost: x\nX-Padding: ${'a'.repeat(17 * 1024)}`));
    expectAnswer(answer, { status: 431, code: 'headers_too_large', message: 'headers: larger than the limit' });
  });

  it('a head not received in time -> 408 Error', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send('POST /plants HTTP/1.1\r\nHost: x\r\n');
    expectAnswer(await connection.next(3_000), { status: 408, code: 'request_timeout', message: 'not received in time' });
    await connection.closed;
  });
});

describe('graceful shutdown', () => {
  it('a request in flight when close() is called still gets its 200; new connections are refused', async () => {
    const server = await startReference();
    const idle = await RawConnection.open(server.port);
    const busy = await RawConnection.open(server.port);
    // The 100 Continue says the server has admitted the head: the request is in flight.
    busy.send(rawRequest(authorizedHead(20, '\nExpect: 100-continue')));
    expect((await busy.next()).status).toBe(100);
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await idle.closed; // idle keep-alive connections are closed at once
    expect(await connectOutcome(server.port)).toBe('ECONNREFUSED');
    expect(closed).toBe(false);
    busy.send('{"name":"a","id":61}');
    const answer = await busy.next();
    expectAnswer(answer, ok('61'));
    expect(answer.headers.connection).toBe('close');
    await closing;
    expect(server.app.store.get(61n)).toBeDefined();
  });
});

it('the battery over a socket changes nothing on a 4xx and never answers 5xx', async () => {
  const server = await startReference();
  const agent = new Agent({ keepAlive: true });
  try {
    for (const c of runnable(ALL_CASES, 'socket').filter((c) => c.expect.status !== 200)) {
      const answer = await sendCase(server.url, c, agent);
      expect(answer.status).toBeLessThan(500);
    }
    expect(server.app.store.size).toBe(0);
  } finally {
    agent.destroy();
    await server.close();
  }
});
