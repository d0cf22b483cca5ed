/**
 * The battery: one table of edge and hostile requests to POST /plants, each with the answer the
 * contract and docs/DESIGN.md's decisions require. Every run of the kit's servers reads it:
 * - the reference without a socket (test/reference/handler.test.ts) and over one (socket.test.ts),
 * - the mock without a socket and over one (test/mock/battery.test.ts),
 * - the differential test, reference against mock (test/mock/differential.test.ts),
 * - the test that the battery catches deliberate defects (test/battery/catches-faults.test.ts),
 * - the error catalogue's coverage (test/reference/error-catalogue.test.ts).
 *
 * How to add a case: one `request(name, input, expected)` entry in the group of the decision it
 * covers; every run above picks it up.
 * - `input` says how the request differs from an authorized `POST /plants` with
 *   `Content-Type: application/json` and no body: `method`, `path` (the request target), `headers`
 *   (lower-case; `undefined` leaves a default header out), `body` (text or bytes), `chunked`, or
 *   `raw` bytes for what is not HTTP.
 * - `expected` is the answer: `ok(plant)` for a 200 (the plant as stored: name and tag as sent, the
 *   id as its canonical digits), `bad(code, message)` for a 400, `denied(message)` for a 401, or an
 *   Error `{ status, code, message, headers }`. Messages are parts the Error's message must contain.
 * - The expectation holds for every target. The mock's freedoms (targets.ts) are applied to it
 *   there, once for all cases; a case says `mock: expected` only where a freedom makes the mock
 *   answer what the request alone does not tell (a well-formed token the reference does not know,
 *   a Prefer), and battery.test.ts fails when it is missing there or given anywhere else.
 * - A request no HTTP/1.1 client can send as written says why in `onlyWithoutSocket`; raw bytes,
 *   which the app cannot be given, say why in `onlyOverSocket`.
 * Names and requests are unique (battery.test.ts checks). Each case is one request against a
 * fresh-enough store; a sequence (a repeated id) belongs in the test files.
 */
import { INT64_MAX, INT64_MIN } from '../../src/openapi/index.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, type ErrorCode } from '../../src/http/index.js';
import type { AppRequest } from '../../src/reference/index.js';
import { contract, type Expected, type ExpectedPlant } from '../support/expect-answer.js';
import type { WireRequest } from '../support/http.js';
import { TEST_TOKEN } from '../support/servers.js';

export interface BatteryRequest {
  readonly method: string;
  /** The request target as on the request line: path and query, or the absolute form. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Over a socket, send the body with Transfer-Encoding: chunked (without one it is the same request). */
  readonly chunked?: boolean;
  /** Over a socket, these bytes instead of a request built from the fields above. */
  readonly raw?: Uint8Array;
}

export interface BatteryCase {
  readonly name: string;
  /** The group, named after the decisions of docs/DESIGN.md it covers. */
  readonly group: string;
  readonly request: BatteryRequest;
  /** The answer of every target, the mock's through its freedoms (targets.ts). */
  readonly expect: Expected;
  /** The mock's answer, where a freedom makes it one the request alone does not tell. */
  readonly mock?: Expected;
  /** Why the case runs only without a socket: a request no HTTP/1.1 client can send as written. */
  readonly onlyWithoutSocket?: string;
  /** Why the case runs only over a socket. */
  readonly onlyOverSocket?: string;
}

export const DEFAULT_HEADERS = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' } as const;

interface CaseInput {
  method?: string;
  path?: string;
  headers?: Record<string, string | undefined>;
  body?: string | Uint8Array;
  chunked?: boolean;
  raw?: Uint8Array;
  mock?: Expected;
  onlyWithoutSocket?: string;
  onlyOverSocket?: string;
}

/** A case without its group (the table below adds it). */
type Ungrouped = Omit<BatteryCase, 'group'>;

function request(name: string, input: CaseInput, expected: Expected): Ungrouped {
  const merged: Record<string, string | undefined> = { ...DEFAULT_HEADERS, ...input.headers };
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(merged)) if (value !== undefined) headers[header] = value;
  const { mock, onlyWithoutSocket, onlyOverSocket, chunked, raw, body } = input;
  return {
    name,
    request: {
      method: input.method ?? 'POST',
      path: input.path ?? '/plants',
      headers,
      ...(body === undefined ? {} : { body }),
      ...(chunked === undefined ? {} : { chunked }),
      ...(raw === undefined ? {} : { raw }),
    },
    expect: expected,
    ...(mock === undefined ? {} : { mock }),
    ...(onlyWithoutSocket === undefined ? {} : { onlyWithoutSocket }),
    ...(onlyOverSocket === undefined ? {} : { onlyOverSocket }),
  };
}

const ok = (plant: ExpectedPlant): Expected => ({ status: 200, plant });
const bad = (code: ErrorCode, message: string | string[]): Expected => ({ status: 400, code, message });
const denied = (message: string, challenge = 'Bearer realm="plant-store", error="invalid_token"'): Expected => ({
  status: 401,
  code: 'unauthorized',
  message,
  headers: { 'www-authenticate': challenge },
});
const NO_CREDENTIALS = 'Bearer realm="plant-store"';

/** A NewPlant with the id written exactly as given (any JSON number text). */
const withId = (id: string, rest = ''): string => `{"name":"Monstera","id":${id}${rest}}`;
const bytes = (...parts: (string | number[] | Uint8Array)[]): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

const INT64_RANGE = 'id: must be an int64 integer';
const NOT_INTEGER = 'id: must be an integer';
const NOT_OBJECT = 'body: must be an object';
const MALFORMED = 'malformed JSON';
const NOT_UTF8 = 'body: not valid UTF-8';

/** A body of exactly `size` bytes that is a valid NewPlant. */
function bodyOfSize(size: number): string {
  const frame = withId('1', ',"pad":""');
  return frame.replace('"pad":""', `"pad":"${'a'.repeat(size - Buffer.byteLength(frame))}"`);
}
const FIVE_MIB = bodyOfSize(5 * 1024 * 1024);

/** An extra property nested so that the whole body is exactly `depth` arrays and objects deep. */
const nestedTo = (depth: number): string => withId('1', `,"extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`);

const ids: Ungrouped[] = [
  ...[
    ['2^53-1', (2n ** 53n - 1n).toString()],
    ['2^53', (2n ** 53n).toString()],
    ['2^53+1', (2n ** 53n + 1n).toString()],
    ['-(2^53-1)', (-(2n ** 53n) + 1n).toString()],
    ['-2^53', (-(2n ** 53n)).toString()],
    ['-(2^53+1)', (-(2n ** 53n) - 1n).toString()],
    ['2^63-1 (int64 max)', INT64_MAX.toString()],
    ['2^63-2', (INT64_MAX - 1n).toString()],
    ['-2^63 (int64 min)', INT64_MIN.toString()],
    ['-2^63+1', (INT64_MIN + 1n).toString()],
    ['0', '0'],
    ['-1', '-1'],
    ['a negative id', '-42'],
  ].map(([label, id = '']) => request(`id ${label} comes back digit for digit`, { body: withId(id) }, ok({ name: 'Monstera', id }))),
  ...[
    ['1.0', '1'],
    ['1e2', '100'],
    ['1E+2', '100'],
    ['100e-2', '1'],
    ['0.1e1', '1'],
    ['-0', '0'],
    ['0.0', '0'],
    ['-1.000', '-1'],
    ['9223372036854775807.0', INT64_MAX.toString()],
    ['9.223372036854775807e18', INT64_MAX.toString()],
    ['-9.223372036854775808E18', INT64_MIN.toString()],
    ['92233720368547758070e-1', INT64_MAX.toString()],
    ['1.000000000000000000000', '1'],
  ].map(([written = '', id = '']) => request(`id written ${written} is an integer (JSON Schema 2020-12) answered as ${id}`, { body: withId(written) }, ok({ name: 'Monstera', id }))),
  ...[
    ['2^63', (INT64_MAX + 1n).toString()],
    ['-2^63-1', (INT64_MIN - 1n).toString()],
    ['2^64', (2n ** 64n).toString()],
    ['9.223372036854775808e18', '9.223372036854775808e18'],
    ['1e19', '1e19'],
    ['1e400', '1e400'],
    ['-1e400', '-1e400'],
    ['a 400-digit integer', '9'.repeat(400)],
  ].map(([label, id = '']) => request(`id ${label} is outside int64 -> 400 naming id`, { body: withId(id) }, bad('invalid_body', INT64_RANGE))),
  ...[
    ['1.5', '1.5'],
    ['1e-1', '1e-1'],
    ['2^63-1 + 0.5', '9223372036854775807.5'],
    ['2^53+1 + 0.5 (an integer once rounded to a double)', '9007199254740993.5'],
    ['1e-400', '1e-400'],
  ].map(([label, id = '']) => request(`id ${label} is not an integer -> 400 naming id`, { body: withId(id) }, bad('invalid_body', NOT_INTEGER))),
  ...['"1"', 'null', 'true', '[1]', '{"value":1}'].map((id) => request(`id ${id} has the wrong type -> 400 naming id`, { body: withId(id) }, bad('invalid_body', NOT_INTEGER))),
];

const fields: Ungrouped[] = [
  request('a minimal NewPlant comes back as sent', { body: withId('1') }, ok({ name: 'Monstera', id: '1' })),
  request('a plant with a tag comes back with it', { body: '{"name":"Monstera","id":7,"tag":"tropical"}' }, ok({ name: 'Monstera', tag: 'tropical', id: '7' })),
  request('properties in any order', { body: '{"tag":"t","id":8,"name":"n"}' }, ok({ name: 'n', tag: 't', id: '8' })),
  request('an empty name is a string', { body: '{"name":"","id":1}' }, ok({ name: '', id: '1' })),
  request('a whitespace-only name is kept as sent', { body: '{"name":" \\t\\n ","id":1}' }, ok({ name: ' \t\n ', id: '1' })),
  request('a 10k-character name', { body: `{"name":"${'n'.repeat(10_000)}","id":1}` }, ok({ name: 'n'.repeat(10_000), id: '1' })),
  request('a 10k astral-character name', { body: `{"name":"${'🌱'.repeat(10_000)}","id":1}` }, ok({ name: '🌱'.repeat(10_000), id: '1' })),
  request('a 100k-character name', { body: `{"name":"${'x'.repeat(100_000)}","id":1}` }, ok({ name: 'x'.repeat(100_000), id: '1' })),
  request('an empty tag', { body: '{"name":"a","id":1,"tag":""}' }, ok({ name: 'a', tag: '', id: '1' })),
  request('no name -> 400 naming name', { body: '{"id":1}' }, bad('invalid_body', 'name: is required')),
  request('no id -> 400 naming id', { body: '{"name":"a"}' }, bad('invalid_body', 'id: is required')),
  request('an empty object -> 400 naming name and id', { body: '{}' }, bad('invalid_body', ['name: is required', 'id: is required'])),
  request('a numeric name -> 400 naming name', { body: '{"name":1,"id":1}' }, bad('invalid_body', 'name: must be a string')),
  request('a null name -> 400 naming name', { body: '{"name":null,"id":1}' }, bad('invalid_body', 'name: must be a string')),
  request('an object name -> 400 naming name', { body: '{"name":{"first":"a"},"id":1}' }, bad('invalid_body', 'name: must be a string')),
  request('tag null is invalid (decision 7) -> 400 naming tag', { body: '{"name":"a","id":1,"tag":null}' }, bad('invalid_body', 'tag: must be a string')),
  request('a numeric tag -> 400 naming tag', { body: '{"name":"a","id":1,"tag":5}' }, bad('invalid_body', 'tag: must be a string')),
  request('every field wrong -> every field named', { body: '{"name":false,"id":"x","tag":[]}' }, bad('invalid_body', ['name: must be a string', 'id: must be an integer', 'tag: must be a string'])),
];

const hostile: Ungrouped[] = [
  request('an extra property is accepted and not echoed', { body: withId('1', ',"color":"green"') }, ok({ name: 'Monstera', id: '1' })),
  request('nested extra properties are accepted and not echoed', { body: withId('1', ',"extra":{"nested":[1,2,{"x":null}]},"color":"green"') }, ok({ name: 'Monstera', id: '1' })),
  request('__proto__ is an ordinary key, not echoed', { body: withId('1', ',"__proto__":{"polluted":true,"name":"evil"}') }, ok({ name: 'Monstera', id: '1' })),
  request('constructor.prototype is an ordinary key, not echoed', { body: withId('1', ',"constructor":{"prototype":{"polluted":true}}') }, ok({ name: 'Monstera', id: '1' })),
  request('prototype, toString, hasOwnProperty and valueOf as keys', { body: withId('1', ',"prototype":{"polluted":1},"toString":1,"hasOwnProperty":2,"valueOf":3') }, ok({ name: 'Monstera', id: '1' })),
  request('__proto__ carrying name and id does not satisfy required', { body: '{"__proto__":{"name":"a","id":1}}' }, bad('invalid_body', ['name: is required', 'id: is required'])),
  request('__proto__ given as the tag is checked as a tag', { body: '{"name":"a","id":1,"tag":{"__proto__":"x"}}' }, bad('invalid_body', 'tag: must be a string')),
  request('a name of "__proto__" is just a name', { body: '{"name":"__proto__","id":1,"tag":"constructor"}' }, ok({ name: '__proto__', tag: 'constructor', id: '1' })),
  request('an empty key', { body: withId('1', ',"":"empty"') }, ok({ name: 'Monstera', id: '1' })),
  request('an empty key and a 10k-character key', { body: withId('1', `,"":0,"${'k'.repeat(10_000)}":0`) }, ok({ name: 'Monstera', id: '1' })),
  request(
    `nesting of ${DEFAULT_MAX_DEPTH} levels inside an extra property is accepted`,
    { body: nestedTo(DEFAULT_MAX_DEPTH) },
    ok({ name: 'Monstera', id: '1' }),
  ),
  request(`nesting of ${DEFAULT_MAX_DEPTH + 1} levels -> 400`, { body: nestedTo(DEFAULT_MAX_DEPTH + 1) }, bad('too_deep', `nested deeper than ${DEFAULT_MAX_DEPTH}`)),
  request('100 000 nested arrays -> 400, not a stack overflow', { body: withId('1', `,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}`) }, bad('too_deep', 'nested deeper')),
  request('100 000 nested objects, never closed -> 400', { body: '{"a":'.repeat(100_000) }, bad('too_deep', 'nested deeper')),
  request('100 000 nested arrays as the whole body -> 400 for the nesting, not the type', { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }, bad('too_deep', 'nested deeper')),
  request('100 000 unclosed arrays after valid members -> 400', { body: `{"name":"Monstera","id":1,"x":${'['.repeat(100_000)}` }, bad('too_deep', 'nested deeper')),
  request('brackets inside strings are not nesting', { body: `{"name":"${'['.repeat(1000)}","id":1}` }, ok({ name: '['.repeat(1000), id: '1' })),
];

const unicode: Ungrouped[] = [
  request('an astral character as UTF-8', { body: '{"name":"🌱 Monstera","id":1}' }, ok({ name: '🌱 Monstera', id: '1' })),
  request('an astral character as a surrogate-pair escape', { body: '{"name":"\\ud83c\\udf31","id":1}' }, ok({ name: '🌱', id: '1' })),
  request('\\u0000 in a name', { body: '{"name":"a\\u0000b","id":1}' }, ok({ name: 'a\u0000b', id: '1' })),
  request('every JSON escape', { body: '{"name":"\\"\\\\\\/\\b\\f\\n\\r\\t","id":1}' }, ok({ name: '"\\/\b\f\n\r\t', id: '1' })),
  request('an escaped surrogate pair, NUL and control characters together', { body: '{"name":"\\ud83c\\udf3f\\u0000\\n\\t\\"","id":1}' }, ok({ name: '🌿\u0000\n\t"', id: '1' })),
  request('astral characters in name and tag', { body: '{"name":"🌿 Monstera 𝔡","id":1,"tag":"😀"}' }, ok({ name: '🌿 Monstera 𝔡', tag: '😀', id: '1' })),
  request('right-to-left override and zero-width space are kept', { body: '{"name":"\u202eabc\u200b","id":1}' }, ok({ name: '\u202eabc\u200b', id: '1' })),
  request('a lone high surrogate escape is a string (RFC 8259 section 8.2)', { body: '{"name":"\\ud800","id":1}' }, ok({ name: '\ud800', id: '1' })),
  request('a lone low surrogate escape', { body: '{"name":"x\\udc00y","id":1}' }, ok({ name: 'x\udc00y', id: '1' })),
  request('a combining sequence is not normalised', { body: '{"name":"e\u0301","id":1}' }, ok({ name: 'e\u0301', id: '1' })),
  request('U+2028 and U+2029 raw in a string', { body: '{"name":"a\u2028b\u2029","id":1}' }, ok({ name: 'a\u2028b\u2029', id: '1' })),
  request('an overlong encoding of / -> 400', { body: bytes('{"name":"', [0xc0, 0xaf], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('an overlong 4-byte NUL -> 400', { body: bytes('{"name":"', [0xf0, 0x80, 0x80, 0x80], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('a lone continuation byte -> 400', { body: bytes('{"name":"', [0x80], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('a truncated sequence -> 400', { body: bytes('{"name":"', [0xe2, 0x82], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('a truncated sequence at the very end -> 400', { body: bytes('{"name":"a","id":1}', [0xf0, 0x9f]) }, bad('invalid_utf8', NOT_UTF8)),
  request('a UTF-8-encoded surrogate (CESU-8) -> 400', { body: bytes('{"name":"', [0xed, 0xa0, 0x80], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('a code point above U+10FFFF -> 400', { body: bytes('{"name":"', [0xf4, 0x90, 0x80, 0x80], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('the byte 0xFF -> 400', { body: bytes('{"name":"', [0xff], '","id":1}') }, bad('invalid_utf8', NOT_UTF8)),
  request('Latin-1 text -> 400', { body: Buffer.from('{"name":"Café","id":1}', 'latin1') }, bad('invalid_utf8', NOT_UTF8)),
  request('UTF-16 text with its BOM -> 400', { body: bytes([0xff, 0xfe], Buffer.from('{"name":"a","id":1}', 'utf16le')) }, bad('invalid_utf8', NOT_UTF8)),
  request('UTF-16 text without a BOM is UTF-8 with NULs -> 400 malformed', { body: Buffer.from('{"name":"a","id":1}', 'utf16le') }, bad('malformed_json', MALFORMED)),
  request('a byte order mark -> 400 saying so', { body: bytes([0xef, 0xbb, 0xbf], '{"name":"a","id":1}') }, bad('malformed_json', 'byte order mark')),
];

const malformed: Ungrouped[] = [
  ...[
    ['truncated', '{"name":"a","id":1'],
    ['truncated in a string', '{"name":"a'],
    ['a trailing comma', '{"name":"a","id":1,}'],
    ['single quotes', "{'name':'a','id':1}"],
    ['unquoted keys', '{name:"a",id:1}'],
    ['NaN', withId('NaN')],
    ['Infinity', withId('Infinity')],
    ['-Infinity', withId('-Infinity')],
    ['a leading zero', withId('01')],
    ['a leading plus', withId('+1')],
    ['a bare fraction', withId('.5')],
    ['a dangling point', withId('1.')],
    ['hexadecimal', withId('0x10')],
    ['a comment', '{"name":"a",/* x */"id":1}'],
    ['a raw newline in a string', '{"name":"a\nb","id":1}'],
    ['an invalid escape', '{"name":"\\x41","id":1}'],
    ['a short \\u escape', '{"name":"\\u12","id":1}'],
    ['duplicate keys with different values', '{"name":"a","name":"b","id":1}'],
    ['a duplicate id with another value', '{"name":"a","id":1,"id":2}'],
    ['a raw control character in a string', '{"name":"a\u0001","id":1}'],
    ['trailing garbage', '{"name":"a","id":1} x'],
    ['two objects', '{"name":"a","id":1}{"name":"b","id":2}'],
    ['only whitespace', ' \r\n\t'],
    ['undefined', 'undefined'],
  ].map(([label, body = '']) => request(`malformed JSON: ${label} -> 400`, { body }, bad('malformed_json', MALFORMED))),
  request('duplicate keys with the same value are one key', { body: '{"name":"a","name":"a","id":1}' }, ok({ name: 'a', id: '1' })),
  request('whitespace around the object is JSON', { body: ' \n{"name":"a","id":1}\r\n\t' }, ok({ name: 'a', id: '1' })),
  request('an empty body -> 400', { body: '' }, bad('invalid_body', 'body: is required')),
  request('no body at all -> 400', {}, bad('invalid_body', 'body: is required')),
  ...['[]', '[{"name":"a","id":1}]', '"a plant"', '42', 'null', 'true'].map((body) => request(`the JSON value ${body} is not an object -> 400`, { body }, bad('invalid_body', NOT_OBJECT))),
];

const size: Ungrouped[] = [
  request(`a body of exactly ${DEFAULT_MAX_BODY_BYTES} bytes is accepted`, { body: bodyOfSize(DEFAULT_MAX_BODY_BYTES) }, ok({ name: 'Monstera', id: '1' })),
  request(`a body of ${DEFAULT_MAX_BODY_BYTES + 1} bytes -> 400`, { body: bodyOfSize(DEFAULT_MAX_BODY_BYTES + 1) }, bad('body_too_large', `larger than the limit of ${DEFAULT_MAX_BODY_BYTES} bytes`)),
  request(
    'a declared Content-Length over the limit -> 400 before the body',
    { headers: { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) }, body: '{"name":"a","id":1}', onlyWithoutSocket: 'the declared length does not match the bytes sent' },
    bad('body_too_large', 'larger than the limit'),
  ),
  request('a 5 MiB body -> 400', { body: FIVE_MIB }, bad('body_too_large', `larger than the limit of ${DEFAULT_MAX_BODY_BYTES} bytes`)),
  request('a 5 MiB chunked body -> 400 once it passes the limit', { body: FIVE_MIB, chunked: true }, bad('body_too_large', `larger than the limit of ${DEFAULT_MAX_BODY_BYTES} bytes`)),
  request('a chunked body is read whole', { body: '{"name":"a","id":1,"tag":"chunked"}', chunked: true }, ok({ name: 'a', tag: 'chunked', id: '1' })),
];

const mediaTypes: Ungrouped[] = [
  ...[
    ['no Content-Type', undefined, 'content-type: missing'],
    ['an empty Content-Type', '', 'content-type: missing'],
    ['text/plain', 'text/plain', 'content-type: text/plain is not accepted'],
    ['application/json-patch+json', 'application/json-patch+json', 'content-type: application/json-patch+json'],
    ['application/merge-patch+json', 'application/merge-patch+json', 'content-type: application/merge-patch+json'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 'content-type: application/x-www-form-urlencoded'],
    ['multipart/form-data', 'multipart/form-data; boundary=x', 'content-type: multipart/form-data'],
    ['application/jsonx', 'application/jsonx', 'content-type: application/jsonx'],
    ['a bare json', 'json', 'content-type: json'],
    ['a list of types', 'application/json, text/plain', 'content-type: application/json, text/plain'],
    ['application/problem+json', 'application/problem+json', 'content-type: application/problem+json'],
    ['text/json', 'text/json', 'content-type: text/json'],
  ].map(([label, type, message = '']) => request(`${label} -> 400 naming content-type`, { headers: { 'content-type': type } }, bad('unsupported_media_type', message))),
  request('application/xml with an XML body -> 400 naming content-type', { headers: { 'content-type': 'application/xml' }, body: '<plant><name>a</name><id>1</id></plant>' }, bad('unsupported_media_type', 'content-type: application/xml')),
  ...['gzip', 'br', 'deflate', 'gzip, identity', 'x-unknown'].map((coding) =>
    request(`Content-Encoding ${coding} -> 400 naming content-encoding (no coding is decoded)`, { headers: { 'content-encoding': coding }, body: withId('3') }, bad('unsupported_encoding', `content-encoding: ${coding} is not supported`)),
  ),
  ...['identity', 'IDENTITY'].map((coding) => request(`Content-Encoding ${coding} is no coding`, { headers: { 'content-encoding': coding }, body: withId('3') }, ok({ name: 'Monstera', id: '3' }))),
  ...['Application/JSON; charset=UTF-8', 'application/json;charset=utf-8', 'APPLICATION/JSON', 'application/json ; charset="utf-8"'].map((type) =>
    request(`Content-Type ${type} is application/json`, { headers: { 'content-type': type }, body: withId('3') }, ok({ name: 'Monstera', id: '3' })),
  ),
  request('a media type with several parameters is application/json', { headers: { 'content-type': 'application/json;charset=UTF-8;foo="bar"' }, body: withId('3') }, ok({ name: 'Monstera', id: '3' })),
  request('an Accept the server cannot honour is ignored', { headers: { accept: 'text/html' }, body: withId('3') }, ok({ name: 'Monstera', id: '3' })),
  request('Prefer is ignored (the mock honours it)', { headers: { prefer: 'code=400' }, body: withId('3'), mock: bad('invalid_body', 'id: is required') }, ok({ name: 'Monstera', id: '3' })),
];

const body = withId('5');
/** What an accepted request with `body` gets. */
const stored = ok({ name: 'Monstera', id: '5' });
const credentials: Ungrouped[] = [
  request('no Authorization -> 401', { headers: { authorization: undefined }, body }, denied('authorization: missing bearer credentials', NO_CREDENTIALS)),
  request('an empty Authorization -> 401', { headers: { authorization: '' }, body }, denied('authorization: missing bearer credentials', NO_CREDENTIALS)),
  request('Bearer alone -> 401', { headers: { authorization: 'Bearer' }, body }, denied('authorization: empty bearer token')),
  request('Bearer and spaces -> 401', { headers: { authorization: 'Bearer    ' }, body }, denied('authorization: empty bearer token')),
  request('Basic -> 401 naming the scheme', { headers: { authorization: `Basic ${Buffer.from(`user:${TEST_TOKEN}`).toString('base64')}` }, body }, denied('the Basic scheme is not accepted', NO_CREDENTIALS)),
  request('Token -> 401 naming the scheme', { headers: { authorization: `Token ${TEST_TOKEN}` }, body }, denied('the Token scheme is not accepted', NO_CREDENTIALS)),
  request('the token without a scheme -> 401', { headers: { authorization: TEST_TOKEN }, body }, denied('scheme is not accepted; use Bearer', NO_CREDENTIALS)),
  request('no space after the scheme -> 401', { headers: { authorization: `Bearer${TEST_TOKEN}` }, body }, denied('scheme is not accepted; use Bearer', NO_CREDENTIALS)),
  request('a comma after the scheme -> 401', { headers: { authorization: `Bearer,${TEST_TOKEN}` }, body }, denied('scheme is not accepted; use Bearer', NO_CREDENTIALS)),
  request('a wrong token -> 401', { headers: { authorization: 'Bearer wrong-token' }, body, mock: stored }, denied('bearer token not accepted')),
  request('a prefix of the token -> 401', { headers: { authorization: `Bearer ${TEST_TOKEN.slice(0, -1)}` }, body, mock: stored }, denied('bearer token not accepted')),
  request('the token and more -> 401', { headers: { authorization: `Bearer ${TEST_TOKEN}x` }, body, mock: stored }, denied('bearer token not accepted')),
  request('the token in another case -> 401', { headers: { authorization: `Bearer ${TEST_TOKEN.toUpperCase()}` }, body, mock: stored }, denied('bearer token not accepted')),
  request('a token with ! -> 401 malformed', { headers: { authorization: `Bearer ${TEST_TOKEN}!` }, body }, denied('malformed bearer token')),
  request('a token with a space inside -> 401 malformed', { headers: { authorization: `Bearer test token` }, body }, denied('malformed bearer token')),
  request('a quoted token -> 401 malformed', { headers: { authorization: `Bearer "${TEST_TOKEN}"` }, body }, denied('malformed bearer token')),
  request('= inside a token -> 401 malformed', { headers: { authorization: 'Bearer ab=cd' }, body }, denied('malformed bearer token')),
  request('= before the token -> 401 malformed', { headers: { authorization: 'Bearer =abc' }, body }, denied('malformed bearer token')),
  request('a non-ASCII token -> 401 malformed', { headers: { authorization: 'Bearer tökén' }, body }, denied('malformed bearer token')),
  request('a control character in the token -> 401 malformed', { headers: { authorization: 'Bearer a\u0001b' }, body, onlyWithoutSocket: 'not a valid header value (socket.test.ts sends it raw)' }, denied('malformed bearer token')),
  request('a tab between scheme and token -> 401 malformed', { headers: { authorization: `Bearer\t${TEST_TOKEN}` }, body }, denied('malformed bearer credentials')),
  request('credentials are checked before the media type', { headers: { authorization: undefined, 'content-type': 'text/plain' }, body }, denied('authorization: missing', NO_CREDENTIALS)),
  request('credentials are checked before the content coding', { headers: { authorization: undefined, 'content-encoding': 'gzip' }, body }, denied('authorization: missing', NO_CREDENTIALS)),
  request('credentials are checked before the body', { headers: { authorization: 'Bearer wrong' }, body: '{not json', mock: bad('malformed_json', MALFORMED) }, denied('not accepted')),
  request('credentials are checked before the size', { headers: { authorization: 'Bearer wrong' }, body: bodyOfSize(DEFAULT_MAX_BODY_BYTES + 1), mock: bad('body_too_large', 'larger than the limit') }, denied('not accepted')),
  request('missing credentials are checked before malformed JSON', { headers: { authorization: undefined }, body: '{"name":' }, denied('authorization: missing', NO_CREDENTIALS)),
  request('missing credentials are checked before the schema', { headers: { authorization: undefined }, body: '{"id":"x"}' }, denied('authorization: missing', NO_CREDENTIALS)),
  ...['bearer', 'BEARER', 'BeArEr'].map((scheme) => request(`the scheme written ${scheme} is accepted (RFC 9110 section 11.1)`, { headers: { authorization: `${scheme} ${TEST_TOKEN}` }, body }, stored)),
  request('several spaces after the scheme are accepted (1*SP)', { headers: { authorization: `Bearer   ${TEST_TOKEN}` }, body }, stored),
];

const ALLOW = (contract.methodsFor('/plants') ?? []).join(', ');
const routing: Ungrouped[] = [
  ...['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'].map((method) =>
    request(
      `${method} /plants -> 405 with Allow`,
      { method, ...(method === 'GET' || method === 'HEAD' || method === 'TRACE' ? {} : { body }) },
      { status: 405, code: 'method_not_allowed', message: `method: ${method} is not allowed`, headers: { allow: ALLOW } },
    ),
  ),
  request('an unknown method -> 405', { method: 'BREW', onlyWithoutSocket: 'node:http answers methods it does not know as malformed (socket.test.ts)' }, { status: 405, code: 'method_not_allowed', message: 'method: BREW', headers: { allow: ALLOW } }),
  request('405 comes before credentials', { method: 'DELETE', headers: { authorization: undefined } }, { status: 405, code: 'method_not_allowed', message: 'method: DELETE', headers: { allow: ALLOW } }),
  ...['/', '/plants/', '/plants/1', '/PLANTS', '/plant', '/plants/../plants', '/../plants', '//plants', '/v1/plants', '/plants%20', '/plants%2F'].map((path) =>
    request(`POST ${path} -> 404`, { path, body }, { status: 404, code: 'not_found', message: 'path: no operation at' }),
  ),
  request('POST to an 8 KiB path -> 404', { path: `/${'p'.repeat(8 * 1024)}`, body }, { status: 404, code: 'not_found', message: 'path: no operation at /ppp' }),
  request('404 comes before credentials', { path: '/nowhere', headers: { authorization: undefined }, body }, { status: 404, code: 'not_found', message: 'path: no operation at /nowhere' }),
  request('the admin path /__plant-store/ is the kit’s own: without a journal, a 404 Error saying so', { method: 'GET', path: '/__plant-store/requests', headers: { authorization: undefined } }, { status: 404, code: 'not_found', message: 'journal: no request journal is kept' }),
  request('a query string is ignored', { path: '/plants?dry=1&access_token=x', body }, stored),
  request('a query string with __proto__ is ignored', { path: '/plants?id=2&__proto__=1', body }, stored),
  request('an absolute-form target is routed by its path (RFC 9112 section 3.2.2)', { path: 'http://127.0.0.1/plants', body }, stored),
  request(
    'a CORS preflight is an OPTIONS request like any other -> 405',
    { method: 'OPTIONS', headers: { authorization: undefined, 'content-type': undefined, origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } },
    { status: 405, code: 'method_not_allowed', message: 'method: OPTIONS is not allowed', headers: { allow: ALLOW } },
  ),
];

const transport: Ungrouped[] = [
  request(
    'bytes that are not HTTP -> 400',
    { raw: Buffer.from('NOT HTTP AT ALL\r\n\r\n'), onlyOverSocket: 'raw bytes are no request the app could be given' },
    { status: 400, code: 'malformed_request', message: 'request: not valid HTTP/1.1' },
  ),
  request(
    'headers over 16 KiB -> 431',
    {
      raw: Buffer.from(`POST /plants HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\nContent-Length: 0\r\n\r\n`),
      onlyOverSocket: 'the limit on the head is the socket layer\'s (node:http maxHeaderSize)',
    },
    { status: 431, code: 'headers_too_large', message: 'headers: larger than the limit' },
  ),
];

const GROUPS: readonly (readonly [group: string, cases: readonly Ungrouped[]])[] = [
  ['int64 ids (decisions 7 and 8)', ids],
  ['fields of a NewPlant (decisions 2, 3, 7)', fields],
  ['extra and hostile properties, nesting (decisions 3, 6, 7)', hostile],
  ['Unicode and UTF-8 (decision 6)', unicode],
  ['malformed JSON and non-objects (decision 6)', malformed],
  ['body size and framing (decision 6)', size],
  ['media types, content codings and headers the reference ignores (decision 6)', mediaTypes],
  ['credentials (decision 5)', credentials],
  ['paths and methods (decision 1)', routing],
  ['bytes that are not a request (decision 4)', transport],
];

/** Every case, grouped by the decisions of docs/DESIGN.md it covers. */
export const BATTERY: readonly (readonly [group: string, cases: readonly BatteryCase[]])[] = GROUPS.map(([group, cases]) => [group, cases.map((c) => ({ ...c, group }))]);

export const ALL_CASES: readonly BatteryCase[] = BATTERY.flatMap(([, cases]) => cases);

/** A case as the socket-free app (and the mock's `request()`) takes it. */
export function toAppRequest({ request }: BatteryCase): AppRequest {
  if (request.raw) throw new Error('raw bytes are no request the app can be given');
  return { method: request.method, url: request.path, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) };
}

/** A case as the socket tests' client sends it. */
export function toWireRequest({ request }: BatteryCase): WireRequest {
  const { body, ...rest } = request;
  return { ...rest, ...(body === undefined ? {} : { body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body }) };
}
