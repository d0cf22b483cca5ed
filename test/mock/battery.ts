/**
 * A battery of edge and hostile requests to POST /plants, each with the status the contract
 * requires (openapi.yaml and the kit decisions of docs/DESIGN.md). It is written against the
 * interface, not against an implementation: the reference implementation and the mock must both
 * hold it, the mock with its two freedoms (any well-formed token; no echo of what was sent).
 */
import { INT64_MAX, INT64_MIN } from '../../src/openapi/index.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH } from '../../src/http/index.js';
import type { WireRequest } from '../support/http.js';

/**
 * Where a mock may answer otherwise than the reference implementation, and how.
 * - `any-token`: a well-formed bearer token the reference does not know; the mock accepts it.
 * - `cors-preflight`: a browser's CORS preflight; the mock grants it (204), the reference has no CORS (405).
 */
export type Freedom = 'any-token' | 'cors-preflight';

export interface BatteryCase {
  readonly name: string;
  readonly request: WireRequest;
  /** The status the contract requires of an implementation holding the token the battery was built with. */
  readonly status: number;
  /** What a mock answers instead, where it may. */
  readonly mock?: { readonly status: number; readonly freedom: Freedom };
}

const PATH = '/plants';
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');
/** A valid NewPlant of exactly `bytes` bytes. */
const padded = (bytes: number): string => {
  const [head, tail] = ['{"name":"a","id":1,"pad":"', '"}'];
  return head + 'p'.repeat(bytes - head.length - tail.length) + tail;
};
const nested = (depth: number): string => '{"name":"a","id":1,"extra":' + '['.repeat(depth - 1) + ']'.repeat(depth - 1) + '}';

/** The battery, for an implementation that accepts `token`. */
export function battery(token: string): BatteryCase[] {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = (body: string | Uint8Array, headers: Record<string, string> = auth): WireRequest => ({
    method: 'POST',
    path: PATH,
    headers,
    body: typeof body === 'string' ? utf8(body) : body,
  });
  const valid = (name: string, body: string, headers?: Record<string, string>): BatteryCase => ({ name, request: post(body, headers), status: 200 });
  const invalid = (name: string, body: string | Uint8Array, headers?: Record<string, string>): BatteryCase => ({ name, request: post(body, headers), status: 400 });
  const withAuth = (authorization: string | undefined, body = '{"name":"a","id":1}'): WireRequest => post(body, { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) });
  const denied = (name: string, authorization: string | undefined, body?: string): BatteryCase => ({ name, request: withAuth(authorization, body), status: 401 });
  const routed = (name: string, method: string, path: string, status: number, headers: Record<string, string> = auth): BatteryCase => ({
    name,
    request: { method, path, headers, ...(method === 'HEAD' || method === 'GET' ? {} : { body: utf8('{"name":"a","id":1}') }) },
    status,
  });
  const longName = 'x'.repeat(100_000);
  const fiveMiB = `{"name":"${'a'.repeat(5 * 1024 * 1024)}","id":1}`;

  return [
    // A valid NewPlant gets 200 (rule 1), whatever its legitimate spelling.
    valid('a minimal NewPlant', '{"name":"Monstera","id":1}'),
    valid('a NewPlant with a tag', '{"name":"Monstera","id":1,"tag":"tropical"}'),
    valid('id 0', '{"name":"a","id":0}'),
    valid('id -1', '{"name":"a","id":-1}'),
    valid('id 2^53-1', '{"name":"a","id":9007199254740991}'),
    valid('id 2^53', '{"name":"a","id":9007199254740992}'),
    valid('id 2^53+1 (not a double)', '{"name":"a","id":9007199254740993}'),
    valid('id -(2^53+1)', '{"name":"a","id":-9007199254740993}'),
    valid('id 2^63-1 (int64 max)', `{"name":"a","id":${INT64_MAX}}`),
    valid('id -2^63 (int64 min)', `{"name":"a","id":${INT64_MIN}}`),
    valid('id 1.0 (an integer in JSON Schema)', '{"name":"a","id":1.0}'),
    valid('id 1e2', '{"name":"a","id":1e2}'),
    valid('id 1E+2', '{"name":"a","id":1E+2}'),
    valid('id -0', '{"name":"a","id":-0}'),
    valid('id 9.223372036854775807e18 (int64 max in exponent form)', '{"name":"a","id":9.223372036854775807e18}'),
    valid('id 1.000000000000000000000', '{"name":"a","id":1.000000000000000000000}'),
    valid('an empty name', '{"name":"","id":1}'),
    valid('an empty tag', '{"name":"a","id":1,"tag":""}'),
    valid('a 100 000 character name', `{"name":"${longName}","id":1}`),
    valid('astral characters in name and tag', '{"name":"🌿 Monstera 𝔡","id":1,"tag":"😀"}'),
    valid('escaped surrogate pairs and control characters', '{"name":"\\ud83c\\udf3f\\u0000\\n\\t\\"","id":1}'),
    valid('a lone escaped surrogate (valid JSON text)', '{"name":"\\ud800","id":1}'),
    valid('right-to-left and zero-width characters', '{"name":"\u202eabc\u200b","id":1}'),
    valid('properties beyond name, id and tag', '{"name":"a","id":1,"extra":{"nested":[1,2,{"x":null}]},"color":"green"}'),
    valid('a __proto__ key', '{"name":"a","id":1,"__proto__":{"polluted":true}}'),
    valid('constructor.prototype keys', '{"name":"a","id":1,"constructor":{"prototype":{"polluted":true}}}'),
    valid('keys named like Object methods', '{"name":"a","id":1,"toString":1,"hasOwnProperty":"x","valueOf":null}'),
    valid('an empty key and a very long key', `{"name":"a","id":1,"":0,"${'k'.repeat(10_000)}":0}`),
    valid(`nesting of exactly ${DEFAULT_MAX_DEPTH} levels`, nested(DEFAULT_MAX_DEPTH)),
    valid('the same key twice with the same value', '{"name":"a","name":"a","id":1}'),
    valid('whitespace around the body', ' \t\r\n{"name":"a","id":1}\n '),
    valid('the scheme written bearer (case-insensitive)', '{"name":"a","id":1}', { authorization: `bearer ${token}`, 'content-type': 'application/json' }),
    valid('the scheme written BEARER', '{"name":"a","id":1}', { authorization: `BEARER ${token}`, 'content-type': 'application/json' }),
    valid('several spaces after the scheme (1*SP)', '{"name":"a","id":1}', { authorization: `Bearer   ${token}`, 'content-type': 'application/json' }),
    valid('application/json; charset=utf-8', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }),
    valid('Application/JSON (case-insensitive)', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'Application/JSON' }),
    valid('a media type with several parameters', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'application/json;charset=UTF-8;foo="bar"' }),
    valid('an Accept the server cannot honour (ignored)', '{"name":"a","id":1}', { ...auth, accept: 'text/html' }),
    { name: 'the absolute form of the request target (RFC 9112, section 3.2.2)', request: { ...post('{"name":"a","id":1}'), path: `http://127.0.0.1${PATH}?x=1` }, status: 200 },
    { name: 'a query string (ignored)', request: { ...post('{"name":"a","id":1}'), path: `${PATH}?id=2&__proto__=1` }, status: 200 },
    { name: 'a chunked body', request: { ...post('{"name":"a","id":1,"tag":"chunked"}'), chunked: true }, status: 200 },

    // Every invalid body gets a 400 Error and changes nothing.
    invalid('id 2^63 (outside int64)', '{"name":"a","id":9223372036854775808}'),
    invalid('id -2^63-1 (outside int64)', '{"name":"a","id":-9223372036854775809}'),
    invalid('id 1e19', '{"name":"a","id":1e19}'),
    invalid('id 1e400 (beyond any double)', '{"name":"a","id":1e400}'),
    invalid('id 1.5', '{"name":"a","id":1.5}'),
    invalid('id 9007199254740993.5', '{"name":"a","id":9007199254740993.5}'),
    invalid('id as a string', '{"name":"a","id":"1"}'),
    invalid('id null', '{"name":"a","id":null}'),
    invalid('id true', '{"name":"a","id":true}'),
    invalid('id missing', '{"name":"a"}'),
    invalid('name missing', '{"id":1}'),
    invalid('name a number', '{"name":1,"id":1}'),
    invalid('name null', '{"name":null,"id":1}'),
    invalid('tag null', '{"name":"a","id":1,"tag":null}'),
    invalid('tag a number', '{"name":"a","id":1,"tag":7}'),
    invalid('an empty object', '{}'),
    invalid('an array', '[{"name":"a","id":1}]'),
    invalid('a string', '"Monstera"'),
    invalid('null', 'null'),
    invalid('a number', '1'),
    invalid('true', 'true'),
    invalid('an empty body', ''),
    invalid('only whitespace', '   '),
    invalid('truncated JSON', '{"name":"a",'),
    invalid('a trailing comma', '{"name":"a","id":1,}'),
    invalid('single quotes', "{'name':'a','id':1}"),
    invalid('NaN', '{"name":"a","id":NaN}'),
    invalid('a leading zero', '{"name":"a","id":01}'),
    invalid('a comment', '{"name":"a",/* c */"id":1}'),
    invalid('two JSON values', '{"name":"a","id":1} {"name":"b","id":2}'),
    invalid('the same key twice with different values', '{"name":"a","id":1,"id":2}'),
    invalid('an unescaped control character in a string', '{"name":"a\u0001","id":1}'),
    invalid('invalid UTF-8 (0xFF)', Buffer.concat([utf8('{"name":"'), Buffer.from([0xff]), utf8('","id":1}')])),
    invalid('overlong UTF-8 (0xC0 0xAF)', Buffer.concat([utf8('{"name":"'), Buffer.from([0xc0, 0xaf]), utf8('","id":1}')])),
    invalid('an encoded surrogate (0xED 0xA0 0x80)', Buffer.concat([utf8('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), utf8('","id":1}')])),
    invalid('a truncated UTF-8 sequence', Buffer.concat([utf8('{"name":"'), Buffer.from([0xe2, 0x82]), utf8('","id":1}')])),
    invalid('UTF-16 with a byte order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name":"a","id":1}', 'utf16le')])),
    invalid(`nesting of ${DEFAULT_MAX_DEPTH + 1} levels`, nested(DEFAULT_MAX_DEPTH + 1)),
    invalid('nesting of 100 000 levels', '['.repeat(100_000) + ']'.repeat(100_000)),
    invalid('100 000 unclosed brackets', '{"name":"a","id":1,"x":' + '['.repeat(100_000)),
    invalid('a 5 MiB body', fiveMiB),
    invalid(`a body one byte over ${DEFAULT_MAX_BODY_BYTES} bytes`, padded(DEFAULT_MAX_BODY_BYTES + 1)),
    valid(`a body of exactly ${DEFAULT_MAX_BODY_BYTES} bytes`, padded(DEFAULT_MAX_BODY_BYTES)),
    { name: 'a 5 MiB chunked body', request: { ...post(fiveMiB), chunked: true }, status: 400 },

    // Only application/json is accepted (decision 6: 400, not 415).
    invalid('no Content-Type', '{"name":"a","id":1}', { authorization: `Bearer ${token}` }),
    invalid('an empty Content-Type', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': '' }),
    invalid('text/plain', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }),
    invalid('application/x-www-form-urlencoded', 'name=a&id=1', { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }),
    invalid('multipart/form-data', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\na\r\n--b--\r\n', { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' }),
    invalid('application/problem+json', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'application/problem+json' }),
    invalid('application/merge-patch+json', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' }),
    invalid('application/jsonx', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'application/jsonx' }),
    invalid('text/json', '{"name":"a","id":1}', { authorization: `Bearer ${token}`, 'content-type': 'text/json' }),
    invalid('application/xml', '<plant><name>a</name><id>1</id></plant>', { authorization: `Bearer ${token}`, 'content-type': 'application/xml' }),

    // Credentials (RFC 6750) are checked first: 401 with WWW-Authenticate: Bearer.
    denied('no Authorization', undefined),
    denied('an empty Authorization', ''),
    denied('the scheme alone', 'Bearer'),
    denied('the scheme and spaces', 'Bearer    '),
    denied('Basic credentials', 'Basic dXNlcjpwYXNz'),
    denied('another scheme with the token', `Token ${token}`),
    denied('the token without a scheme', token),
    denied('no space after the scheme', `Bearer${token}`),
    denied('a tab after the scheme (credentials = auth-scheme 1*SP token68)', `Bearer\t${token}`),
    denied('a comma after the scheme', `Bearer,${token}`),
    denied('a space inside the token', 'Bearer abc def'),
    denied('a character outside b64token', 'Bearer ab@c'),
    denied('= before the token', 'Bearer =abc'),
    denied('quotes around the token', 'Bearer "abc"'),
    denied('non-ASCII in the token', 'Bearer tökén'),
    denied('missing credentials and a malformed body', undefined, '{"name":'),
    denied('missing credentials and an invalid body', undefined, '{"id":"x"}'),
    { name: 'missing credentials and a wrong media type', request: post('{"name":"a","id":1}', { 'content-type': 'text/plain' }), status: 401 },
    {
      name: 'a well-formed token the server does not know',
      request: withAuth(`Bearer ${token}-not-known`),
      status: 401,
      mock: { status: 200, freedom: 'any-token' },
    },

    // Only POST /plants (decision 1): 404 elsewhere, 405 with Allow: POST for another method.
    routed('GET /plants', 'GET', PATH, 405),
    routed('PUT /plants', 'PUT', PATH, 405),
    routed('DELETE /plants', 'DELETE', PATH, 405),
    routed('PATCH /plants', 'PATCH', PATH, 405),
    routed('HEAD /plants', 'HEAD', PATH, 405),
    routed('OPTIONS /plants without CORS headers', 'OPTIONS', PATH, 405),
    routed('PROPFIND /plants (a WebDAV method)', 'PROPFIND', PATH, 405),
    routed('GET /plants without credentials', 'GET', PATH, 405, {}),
    routed('POST /plants/ (trailing slash)', 'POST', `${PATH}/`, 404),
    routed('POST /Plants (paths are case-sensitive)', 'POST', '/Plants', 404),
    routed('POST /plants/1', 'POST', `${PATH}/1`, 404),
    routed('POST /', 'POST', '/', 404),
    routed('POST /plants%2F', 'POST', `${PATH}%2F`, 404),
    routed('POST /../plants', 'POST', `/..${PATH}`, 404),
    routed('POST //plants', 'POST', `/${PATH}`, 404),
    routed('an 8 KiB path', 'POST', `/${'p'.repeat(8 * 1024)}`, 404),
    routed('POST /plants without credentials to an unknown path', 'POST', '/nope', 404, {}),
    {
      name: 'a CORS preflight',
      request: { method: 'OPTIONS', path: PATH, headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } },
      status: 405,
      mock: { status: 204, freedom: 'cors-preflight' },
    },

    // Bytes that are not acceptable HTTP still get an Error.
    { name: 'bytes that are not HTTP', request: { method: 'POST', path: PATH, headers: {}, raw: utf8('NOT HTTP AT ALL\r\n\r\n') }, status: 400 },
    {
      name: 'headers over 16 KiB',
      request: { method: 'POST', path: PATH, headers: {}, raw: utf8(`POST ${PATH} HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\nContent-Length: 0\r\n\r\n`) },
      status: 431,
    },
  ];
}
