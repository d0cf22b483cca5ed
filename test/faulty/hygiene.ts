/**
 * Faulty implementations whose answers break the hygiene of HTTP and JSON: a byte order mark, a
 * charset that is not UTF-8, a content coding the request excluded, a Content-Length that is not
 * the body's, a second answer nobody asked for, answers delivered to the wrong request, a
 * repeated id merged instead of replaced, an undeclared 406. Most are the reference behind a
 * node:http server with one defect; the second answer comes from a small server written on raw
 * sockets, as hand-rolled servers are (Nagle's algorithm left on, as net.Server leaves it).
 * Each names the check that must catch it and the other checks its defect also touches; the run
 * must find nothing else.
 */
import type { Socket } from 'node:net';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { exactInteger, isLosslessNumber, stringifyJson, type JsonObject } from '../../src/openapi/index.js';
import { createApp, type AppRequest, type AppResponse } from '../../src/reference/index.js';
import type { CheckName, Severity } from '../../fuzz/index.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';
import { header, objectBodyOf, responseObject, withBody } from './helpers.js';
import { listenRaw } from './raw-store.js';

export interface HygieneFault {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  /** `warning` where the contract allows the behaviour and the check only warns. */
  readonly caughtAs?: Severity;
  /** The other checks the defect breaks too; the run must break no other. */
  readonly touches: readonly CheckName[];
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

function fault(name: string, caughtBy: CheckName, touches: readonly CheckName[], defect: string, behaviour: () => Fault, caughtAs?: Severity): HygieneFault {
  return { name, caughtBy, touches, defect, ...(caughtAs === undefined ? {} : { caughtAs }), start: () => startFaulty(behaviour()) };
}

/** Writes an answer with its own framing: the fault decides the Content-Length. */
function rawAnswer(answer: AppResponse, options: { contentLength?: (length: number) => number; encode?: (body: Buffer) => Buffer; headers?: Record<string, string> } = {}): (res: ServerResponse) => void {
  return (res) => {
    const body = (options.encode ?? ((b: Buffer) => b))(Buffer.from(answer.body, 'utf8'));
    res.writeHead(answer.status, { ...answer.headers, ...options.headers, 'content-length': (options.contentLength ?? ((n: number) => n))(body.length) });
    res.end(body);
  };
}

/** Every character outside ISO-8859-1 becomes "?", as Java's String.getBytes("ISO-8859-1") writes it. */
function latin1(text: string): Buffer {
  return Buffer.from(text.replace(/[\u0100-\u{10FFFF}]/gu, '?'), 'latin1');
}

/**
 * A Plant Store on raw sockets, as hand-written servers are: requests read by their
 * Content-Length, answered by the reference in the order they come; `after` may write more.
 */
async function startRawServer(after: (socket: Socket, request: AppRequest, answer: AppResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp({ tokens: [TEST_TOKEN] });
  return listenRaw((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [line = '', ...fields] = buffer.toString('latin1', 0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const field of fields) {
          const colon = field.indexOf(':');
          headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const [method = 'GET', url = '/'] = line.split(' ');
        const request: AppRequest = { method, url, headers, body: buffer.subarray(end + 4, end + 4 + length) };
        buffer = buffer.subarray(end + 4 + length);
        const answer = app.request(request);
        socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}content-length: ${Buffer.byteLength(answer.body)}\r\n\r\n${answer.body}`);
        after(socket, request, answer);
      }
    });
  });
}

function idOf(body: JsonObject | undefined): bigint | undefined {
  const id = body?.id;
  return isLosslessNumber(id) ? exactInteger(id) : undefined;
}

export const HYGIENE_FAULTS: readonly HygieneFault[] = [
  fault('byte-order-mark', 'no-byte-order-mark', [], 'every JSON answer starts with a UTF-8 byte order mark (written with .NET\'s Encoding.UTF8, or a template saved by a Windows editor)', () => (_request, correct) => {
    const answer = correct();
    return { ...answer, body: `\ufeff${answer.body}` };
  }),
  fault(
    'latin1-charset-label',
    'json-charset',
    [],
    'answers say Content-Type: application/json;charset=ISO-8859-1 (a servlet container\'s default), though the body is UTF-8',
    () => (_request, correct) => {
      const answer = correct();
      return { ...answer, headers: { ...answer.headers, 'content-type': 'application/json;charset=ISO-8859-1' } };
    },
    'warning',
  ),
  fault('latin1-encoded-json', 'json-charset', ['response-shape', 'echo'], 'answers are encoded in ISO-8859-1 and say so (a servlet writer with the container\'s default charset): é is one byte, 🌱 is "?"', () => (_request, correct) => {
    const answer = correct();
    return rawAnswer(answer, { encode: (body) => latin1(body.toString('utf8')), headers: { 'content-type': 'application/json;charset=ISO-8859-1' } });
  }),
  fault('gzip-whatever-was-accepted', 'content-coding', [], 'a compression middleware set to always compress: gzip even when the request says Accept-Encoding: identity', () => (_request, correct) =>
    rawAnswer(correct(), { encode: (body) => gzipSync(body), headers: { 'content-encoding': 'gzip' } }),
  ),
  fault('content-length-one-short', 'content-length', ['response-shape'], 'the Content-Length is counted in characters, not bytes, and one short besides: the last byte of every answer is left on the connection', () => (_request, correct) =>
    rawAnswer(correct(), { contentLength: (n) => n - 1 }),
  ),
  fault('content-length-one-long', 'content-length', [], 'the Content-Length counts a trailing newline that is never written: every answer leaves the client waiting for one more byte', () => (_request, correct) =>
    rawAnswer(correct(), { contentLength: (n) => n + 1 }),
  ),
  {
    name: 'second-answer-after-an-error',
    caughtBy: 'one-answer-per-request',
    // Its HTTP layer reads Content-Length bodies only: a valid body sent chunked is refused
    // (accepts-valid); it never reads Connection, so it never closes a connection (message-framing);
    // nor Host, so an HTTP/1.1 request without one is answered (rejects-invalid); it reads an
    // empty line before the request line as a request for / (a 404 no operation declares:
    // status-declared), and the last of two Content-Length fields, waiting for a byte that never
    // comes (no-server-error's timeout).
    touches: ['accepts-valid', 'message-framing', 'rejects-invalid', 'status-declared', 'no-server-error'],
    defect: 'a server on raw sockets whose error path forgets to return: after the 400 for a body that is not JSON, the code that expected a plant writes a 500 too',
    start: () =>
      startRawServer((socket, _request, answer) => {
        if (answer.code === 'malformed_json') {
          const body = JSON.stringify({ error: 500, message: 'cannot read properties of undefined (reading \'name\')' });
          socket.write(`HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
        }
      }),
  },
  fault('answers-swapped-between-requests', 'one-answer-per-request', ['echo'], 'the plant being saved is kept in a module-level variable across an await: under concurrent requests an answer carries the plant of another request', () => {
    let saving: string | undefined;
    return (_request, correct) => {
      const answer = correct();
      if (answer.status !== 200) return answer;
      saving = answer.body;
      return (res: ServerResponse) => {
        // The await of the database write: another request may set `saving` meanwhile.
        setTimeout(() => {
          res.writeHead(200, { ...answer.headers, 'content-length': Buffer.byteLength(saving ?? answer.body) });
          res.end(saving ?? answer.body);
        }, 3);
      };
    };
  }),
  fault('merges-repeated-plant', 'echo', [], 'a repeated id is merged into the stored plant (an UPDATE of the columns sent): a tag posted before survives a plant posted without one', () => {
    const tags = new Map<bigint, string>();
    return (request, correct) => {
      const answer = correct();
      const sent = objectBodyOf(request);
      const id = idOf(sent);
      const plant = answer.status === 200 ? responseObject(answer) : undefined;
      if (id === undefined || plant === undefined || sent === undefined) return answer;
      const old = tags.get(id);
      if (typeof sent.tag === 'string') tags.set(id, sent.tag);
      return old !== undefined && !Object.hasOwn(sent, 'tag') ? withBody(answer, { ...plant, tag: old }) : answer;
    };
  }),
  fault('not-acceptable-unless-exactly-json', 'status-declared', ['accepts-valid'], 'content negotiation compares Accept with === "application/json": curl\'s */*, a browser\'s list or no Accept at all get 406', () => (request, correct) =>
    header(request, 'accept') === 'application/json' ? correct() : { status: 406, headers: { 'content-type': 'application/json' }, body: stringifyJson({ error: 406, message: 'not acceptable' }) },
  ),
  fault('raw-deflate', 'content-coding', [], 'Content-Encoding: deflate over raw DEFLATE (zlib\'s deflateRaw, as some frameworks write it): not the zlib format RFC 9110, section 8.4.1.2 defines', () => (_request, correct) =>
    rawAnswer(correct(), { encode: (body) => deflateRawSync(body), headers: { 'content-encoding': 'deflate' } }),
  ),
];
