/**
 * Correct but unusual Plant Stores: each answers as the contract and HTTP allow, in a way the
 * reference does not - extra properties, the id as a string of its digits, pretty-printed or
 * ASCII-escaped JSON, `400.0` for an Error's code, `Connection: close` on every answer, chunked
 * answers, kept-alive connections closed after 1 s (or right after each answer), gzip wherever
 * the request allows it, 50 ms for every answer. The engine must find nothing wrong with any of them.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { stringify } from 'lossless-json';
import { isJsonObject, isLosslessNumber, LosslessNumber, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/openapi/index.js';
import type { AppResponse } from '../../src/reference/index.js';
import { spellInteger } from '../../fuzz/generation/json-text.js';
import { errorResponse, header, responseObject, withBody } from '../faulty/helpers.js';
import { duplicateMembers, reading } from '../faulty/json-texts.js';
import { answerAfter } from '../faulty/resources.js';
import type { CheckName } from '../../fuzz/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { carefulAuthentication, startBearerStore } from '../faulty/bearer-stores.js';
import { UNUSUAL_WIRE } from './unusual-wire.js';

export interface UnusualImplementation {
  readonly name: string;
  /** What is unusual about it, and why it is allowed. */
  readonly trait: string;
  /** Where given: the checks that warn about it, each with the reason (a demand whose breach costs a client nothing); the run still passes. */
  readonly warns?: Readonly<Partial<Record<CheckName, string>>>;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

function unusual(name: string, trait: string, behaviour: () => Fault): UnusualImplementation {
  return { name, trait, start: () => startFaulty(behaviour()) };
}

/** Every answer's JSON rewritten, the value unchanged. */
function rewrite(write: (value: JsonValue) => string): Fault {
  return (_request, correct) => {
    const answer = correct();
    return { ...answer, body: write(parseJson(answer.body)) };
  };
}

/** Writes an answer through node:http with its own head and body. */
function send(answer: AppResponse, headers: Record<string, string>, body: Buffer | readonly Buffer[] = Buffer.from(answer.body)): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(answer.status, { ...answer.headers, ...headers });
    const parts = Buffer.isBuffer(body) ? [body] : body;
    for (const part of parts.slice(0, -1)) res.write(part);
    res.end(parts[parts.length - 1]);
  };
}

/** JSON with every character outside ASCII written as a \u escape (surrogate pairs for astral ones). */
function asciiJson(value: JsonValue): string {
  return stringifyJson(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSON value with every integer spelled with an exponent (json-text.ts spellInteger). */
function withExponents(value: JsonValue): JsonValue {
  if (isLosslessNumber(value)) return /^-?\d+$/.test(value.value) ? new LosslessNumber(spellInteger(BigInt(value.value), 'exponent')) : value;
  if (Array.isArray(value)) return value.map(withExponents);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withExponents(item)]));
  return value;
}

/** The reference, closing a kept-alive connection once it has been idle for `ms` after an answer. */
function closingIdleConnections(ms: number): Fault {
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  return (_request, correct) => {
    const answer = correct();
    return (res: ServerResponse) => {
      const socket = res.socket;
      if (socket !== null) {
        clearTimeout(timers.get(socket));
        res.once('finish', () => {
          timers.set(
            socket,
            setTimeout(() => socket.end(), ms),
          );
        });
      }
      send(answer, { 'content-length': String(Buffer.byteLength(answer.body)) })(res);
    };
  };
}

export const UNUSUAL_IMPLEMENTATIONS: readonly UnusualImplementation[] = [
  unusual('extra-properties', 'a Plant carries createdAt, owner and links, an Error a code and details: the schemas do not forbid additional properties', () => (_request, correct) => {
    const answer = correct();
    const value = responseObject(answer);
    if (value === undefined) return answer;
    const extra: JsonObject =
      answer.status === 200 ? { createdAt: '2024-06-11T10:00:00Z', owner: { id: new LosslessNumber('7'), roles: ['gardener'] }, links: [{ rel: 'self', href: '/plants/1' }] } : { code: 'E_BAD_PLANT', details: [{ path: '/name' }] };
    return withBody(answer, { ...value, ...extra });
  }),
  unusual('id-as-string', 'the id comes back as the string of its digits, a common way to keep int64 exact for JavaScript clients: Plant declares no id', () => (_request, correct) => {
    const answer = correct();
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    return plant !== undefined && isLosslessNumber(plant.id) ? withBody(answer, { ...plant, id: plant.id.value }) : answer;
  }),
  unusual('pretty-printed-json', 'answers are indented by two spaces and end with a newline: whitespace between tokens is JSON (RFC 8259, section 2)', () => rewrite((value) => `${stringify(value, null, 2) ?? ''}\n`)),
  unusual('ascii-escaped-json', 'every character outside ASCII is a \\u escape, astral ones as surrogate pairs (RFC 8259, section 7)', () => rewrite(asciiJson)),
  unusual('error-code-as-decimal', 'an Error\'s code is written 400.0: JSON Schema counts a number with a zero fraction as an integer', () => (_request, correct) => {
    const answer = correct();
    const value = responseObject(answer);
    if (answer.status === 200 || value === undefined || !isJsonObject(value)) return answer;
    return { ...answer, body: stringifyJson(value).replace(/"error":(\d+)/, '"error":$1.0') };
  }),
  unusual('connection-close-on-every-answer', 'every answer says Connection: close and the server closes the connection after it (RFC 9112, section 9.6)', () => (_request, correct) => {
    const answer = correct();
    return send(answer, { connection: 'close', 'content-length': String(Buffer.byteLength(answer.body)) });
  }),
  unusual('chunked-answers', 'answers are sent with Transfer-Encoding: chunked, in two chunks, without a Content-Length (RFC 9112, section 7.1)', () => (_request, correct) => {
    const answer = correct();
    const body = Buffer.from(answer.body);
    const half = Math.floor(body.length / 2);
    return send(answer, {}, [body.subarray(0, half), body.subarray(half)]);
  }),
  unusual('fifty-ms-per-answer', 'every answer waits 50 ms, a remote database\'s round trip: the contract says nothing of time, and the checks of time judge a server by its own median', () => (_request, correct) =>
    answerAfter(new Promise((resolve) => setTimeout(resolve, 50)), correct()),
  ),
  unusual('one-second-keep-alive', 'a kept-alive connection is closed after 1 s without a request (RFC 9112, section 9.5: a server may close an idle connection at any time)', () => closingIdleConnections(1000)),
  unusual('closes-idle-connections-at-once', 'a kept-alive connection is closed 2 ms after each answer, as an overloaded proxy does: a client must send again a request that met the close (RFC 9112, section 9.3.1)', () => closingIdleConnections(2)),
  unusual('gzip-where-allowed', 'answers are gzipped unless Accept-Encoding rules gzip out: without Accept-Encoding any coding is acceptable (RFC 9110, section 12.5.3)', () => (request, correct) => {
    const answer = correct();
    const acceptEncoding = header(request, 'accept-encoding');
    const gzipAllowed = acceptEncoding === undefined || acceptEncoding.split(',').some((item) => /^\s*(gzip|\*)\s*(;\s*q=(1|0?\.\d*[1-9]\d*)\s*)?$/i.test(item));
    if (!gzipAllowed) return answer;
    const body = gzipSync(answer.body);
    return send(answer, { 'content-encoding': 'gzip', 'content-length': String(body.length), vary: 'Accept-Encoding' }, body);
  }),
  unusual('crlf-and-tabs-in-json', 'answers are indented with tabs, lines ending in CR LF, the value surrounded by whitespace: all JSON whitespace (RFC 8259, section 2)', () =>
    rewrite((value) => `\r\n${(stringify(value, null, '\t') ?? '').replace(/\n/g, '\r\n')}\r\n\t `),
  ),
  unusual('exponent-integers', 'every integer of an answer is written with an exponent (100 as 1e2, 400 as 4e2): JSON Schema counts them as integers (decision 7)', () =>
    rewrite((value) => stringifyJson(withExponents(value))),
  ),
  unusual('duplicate-names-refused', 'a body with a name twice in an object is refused with 400: RFC 8259, section 4 leaves such a body to the receiver', () => (request, correct) => {
    const answer = correct();
    return answer.status === 200 && duplicateMembers(request) !== undefined ? errorResponse(400, 'malformed JSON: a name appears twice in an object') : answer;
  }),
  unusual('last-member-wins', 'of a name twice in an object the last member counts, for validation and storage alike, as JSON.parse does (RFC 8259, section 4)', () => (request, correct, app) => {
    const members = duplicateMembers(request);
    return members === undefined ? correct() : app.request({ ...request, body: reading(members, 'last') });
  }),
  {
    name: 'bare-bearer-challenge',
    trait: 'a 401 says WWW-Authenticate: Bearer with no auth-param, the default of ASP.NET Core, Spring Security and FastAPI: RFC 9110, section 11.6.1 allows it, RFC 6750, section 3 asks for more, a client loses nothing',
    warns: { 'requires-auth': 'a bare Bearer challenge (RFC 6750, section 3): a warning, failing the run only under --strict' },
    start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: () => 'Bearer' }),
  },
  ...UNUSUAL_WIRE,
];
