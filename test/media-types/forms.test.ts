/**
 * The form codecs without a socket: application/x-www-form-urlencoded (WHATWG URL, section 5)
 * round-trips any object of its fields and parses as URLSearchParams does; multipart/form-data
 * (RFC 7578, RFC 2046 section 5.1.1) keeps a binary part byte for byte, reads per-part types and
 * JSON parts, and names what is malformed; the reference stores a valid form exactly and nothing
 * of a refused one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContract, formCodec, formFields, LosslessNumber, Malformed, multipartCodec, serialiseBody, type FormFields, type JsonValue, type Schema } from '../../src/openapi/index.js';
import { createStoreApp } from '../../src/reference/index.js';
import { seedFrom } from '../support/seed.js';

const SEED = seedFrom('PLANT_STORE_FORMS_SEED', 'random', 'forms: urlencoded round trip');

const identity = (schema: Schema): Schema => schema;
const fieldsOf = (properties: Record<string, unknown>, encoding: Record<string, unknown> = {}): FormFields => formFields({ type: 'object', properties }, encoding, identity);

const SCHEMA = {
  count: { type: 'integer' },
  ratio: { type: 'number' },
  ripe: { type: 'boolean' },
  name: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' } },
  months: { type: 'array', items: { type: 'integer' } },
  piped: { type: 'array', items: { type: 'string' } },
  meta: { type: 'object' },
};
const FIELDS = fieldsOf(SCHEMA, { months: { style: 'form', explode: false }, piped: { style: 'pipeDelimited' } });

/** Text with what a form must escape: unicode (astral too), `&`, `=`, `+`, `%`, spaces, brackets. */
const awkward = fc.string({ unit: fc.oneof(fc.constantFrom('&', '=', '+', '%', ' ', '%2B', '[', ']', ',', '|'), fc.string({ unit: 'grapheme', maxLength: 1 })), maxLength: 12 });
const integer = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new LosslessNumber(String(n)));

const formValue = fc.record(
  {
    count: integer,
    ratio: fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => new LosslessNumber(JSON.stringify(n))),
    ripe: fc.boolean(),
    name: awkward,
    tags: fc.array(awkward, { minLength: 1, maxLength: 4 }),
    months: fc.array(integer, { minLength: 1, maxLength: 4 }),
    // Items that do not hold the delimiter: a pipe-delimited list cannot carry one.
    piped: fc.array(awkward.filter((text) => text !== '' && !text.includes('|')), { minLength: 1, maxLength: 3 }),
    meta: fc.dictionary(awkward, awkward, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

/** A value as the codec gives it back: every number a LosslessNumber of its text. */
const normal = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, member: unknown) => (member instanceof LosslessNumber ? `#${member.value}` : member)));

describe('application/x-www-form-urlencoded', () => {
  it('round-trips any object of its fields: encode, then parse, gives it back exactly (int64 and past)', () => {
    fc.assert(
      fc.property(formValue, fc.dictionary(awkward.filter((key) => !(key in SCHEMA)), awkward, { maxKeys: 3 }), (declared, undeclared) => {
        const value = { ...declared, ...undeclared };
        const bytes = formCodec.encode(value, { fields: FIELDS });
        const text = Buffer.from(bytes).toString('latin1');
        // The wire form is ASCII: every other character is percent-encoded.
        expect(text).toMatch(/^[\x21-\x7e]*$/);
        const parsed = formCodec.parse(text, { fields: FIELDS });
        expect(normal(parsed)).toEqual(normal(value));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('parses as the WHATWG URL Standard: the same pairs URLSearchParams reads, from any text (malformed only where it would put U+FFFD)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('&', '=', '+', '%', '%41', '%e2%82%ac', '%zz', '%4'), fc.string({ unit: 'grapheme-ascii', maxLength: 1 })), maxLength: 40 }), (text) => {
        const parsed = formCodec.parse(text, { fields: new Map() });
        const expected = new Map<string, string[]>();
        // URLSearchParams's constructor drops a leading `?` (a query's); an empty sequence first keeps it.
        for (const [name, value] of new URLSearchParams(`&${text}`)) expected.set(name, [...(expected.get(name) ?? []), value]);
        // Stricter in one way: where the standard puts U+FFFD for bytes that are not UTF-8, the codec says the body is malformed.
        const replaced = [...expected].flat(2).some((piece) => piece.includes('\uFFFD'));
        if (parsed instanceof Malformed) expect(replaced, parsed.reason).toBe(true);
        else expect(parsed).toEqual(Object.fromEntries([...expected].map(([name, values]) => [name, values.length === 1 ? values[0] : values])));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('types fields by the schema: `+` is a space, numbers exact, booleans, delimited and repeated lists, deepObject, JSON by the encoding', () => {
    const fields = fieldsOf(
      { id: { type: 'integer' }, on: { type: 'boolean' }, spaced: { type: 'array', items: { type: 'integer' } }, where: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } } }, blob: { type: 'string' } },
      { spaced: { style: 'spaceDelimited' }, where: { style: 'deepObject' }, blob: { contentType: 'application/json' } },
    );
    const text = 'id=9007199254740993&on=false&spaced=1+2+3&where[x]=7&where[y]=a+b&blob=%7B%22k%22%3A%5B1%5D%7D&free=1%2B1&free=2';
    expect(normal(formCodec.parse(text, { fields }))).toEqual({ id: '#9007199254740993', on: false, spaced: ['#1', '#2', '#3'], where: { x: '#7', y: 'a b' }, blob: { k: ['#1'] }, free: ['1+1', '2'] });
    // Text that is not of its type stays text, for the schema to refuse by name.
    expect(formCodec.parse('id=seven&on=yes', { fields })).toEqual({ id: 'seven', on: 'yes' });
  });

  it('names what is malformed: bytes that are not UTF-8 once percent-decoded, JSON that does not parse, a scalar given twice', () => {
    const fields = fieldsOf({ id: { type: 'integer' }, meta: { type: 'object' } });
    expect(formCodec.parse('name=%FF', { fields })).toBeInstanceOf(Malformed);
    expect((formCodec.parse('meta=%7B', { fields }) as Malformed).reason).toMatch(/^field meta: malformed JSON/);
    expect((formCodec.parse('id=1&id=2', { fields }) as Malformed).reason).toBe('field id: given 2 times; give it once');
    expect((formCodec.parse(`meta=${'%5B'.repeat(70)}`, { fields, maxDepth: 64 }) as Malformed).reason).toBe('field meta: nested deeper than 64 levels');
  });
});

const CRLF = '\r\n';
const ALL_BYTES = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
const UPLOAD_FIELDS = fieldsOf(
  { file: { type: 'string', contentMediaType: 'application/octet-stream' }, old: { type: 'string', format: 'binary' }, note: { type: 'string' }, size: { type: 'integer' }, info: { type: 'object' }, many: { type: 'array', items: { type: 'integer' } } },
  { info: { contentType: 'application/json' } },
);

/** Text as its UTF-8 bytes, one character per byte (how the codec reads a body). */
function utf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

function part(headers: string, content: string): string {
  return `${headers}${CRLF}${CRLF}${content}`;
}

function multipart(boundary: string, parts: readonly string[], close = true): string {
  return `${parts.map((p) => `--${boundary}${CRLF}${p}${CRLF}`).join('')}${close ? `--${boundary}--${CRLF}` : ''}`;
}

const parse = (text: string, contentType = 'multipart/form-data; boundary=b0und'): JsonValue | Malformed => multipartCodec.parse(text, { contentType, fields: UPLOAD_FIELDS, maxDepth: 64 });

describe('multipart/form-data', () => {
  it('keeps a binary part byte for byte (0x00 to 0xFF, the delimiter`s own characters too), with its filename and type', () => {
    const body = multipart('b0und', [
      part('Content-Disposition: form-data; name="file"; filename="seeds.bin"\r\nContent-Type: application/octet-stream', `${ALL_BYTES}\r\n--b0un`),
      part('content-disposition: form-data; name=old; filename="a \\"quoted\\" name.png"', ALL_BYTES),
      part('Content-Disposition: form-data; name="note"', utf8('Grüße & +')),
    ]);
    const parsed = parse(`preamble to ignore${CRLF}${body}epilogue to ignore`);
    expect(parsed instanceof Malformed ? parsed.reason : parsed).toEqual({ file: `${ALL_BYTES}\r\n--b0un`, old: ALL_BYTES, note: 'Grüße & +' });
  });

  it('types text parts by the schema, reads a JSON part (by the encoding or its own Content-Type), and repeated parts as a list', () => {
    const body = multipart('b0und', [
      part('Content-Disposition: form-data; name="size"', '9007199254740993'),
      part('Content-Disposition: form-data; name="info"', '{"deep":[1,2]}'),
      part('Content-Disposition: form-data; name="extra"\r\nContent-Type: application/vnd.extra+json', '{"x":true}'),
      part('Content-Disposition: form-data; name="many"', '1'),
      part('Content-Disposition: form-data; name="many"', '2'),
    ]);
    expect(normal(parse(body, 'Multipart/Form-Data; charset=utf-8; boundary="b0und"'))).toEqual({ size: '#9007199254740993', info: { deep: ['#1', '#2'] }, extra: { x: true }, many: ['#1', '#2'] });
  });

  it('names what is malformed: no boundary, no closing delimiter, a part without a name or disposition, text that is not UTF-8, bad JSON', () => {
    const reason = (value: JsonValue | Malformed): string => (value instanceof Malformed ? value.reason : `not malformed: ${JSON.stringify(value)}`);
    const named = part('Content-Disposition: form-data; name="note"', 'x');
    expect(reason(parse(multipart('b0und', [named]), 'multipart/form-data'))).toBe('malformed multipart: the Content-Type has no boundary parameter (RFC 2046, section 5.1.1)');
    expect(reason(parse(multipart('b0und', [named]), `multipart/form-data; boundary=${'x'.repeat(71)}`))).toMatch(/is not 1 to 70 of the characters RFC 2046 allows/);
    expect(reason(parse(multipart('b0und', [named], false)))).toBe('malformed multipart: no closing delimiter --b0und-- after part 1');
    expect(reason(parse('no delimiter at all'))).toBe('malformed multipart: no boundary delimiter --b0und in the body');
    expect(reason(parse(multipart('b0und', [part('Content-Disposition: form-data; filename="a.txt"', 'x')])))).toBe('malformed multipart: part 1 has no name in its Content-Disposition (RFC 7578, section 4.2)');
    expect(reason(parse(multipart('b0und', [named, part('Content-Type: text/plain', 'x')])))).toBe('malformed multipart: part 2 has no Content-Disposition: form-data (RFC 7578, section 4.2)');
    expect(reason(parse(multipart('b0und', [part('Content-Disposition: form-data; name="note"', '\xff')])))).toMatch(/part note is not UTF-8 text/);
    expect(reason(parse(multipart('b0und', [part('Content-Disposition: form-data; name="info"', '{')])))).toMatch(/^field info: malformed JSON/);
  });

  it('round-trips any object of its fields: binary parts of any bytes, unicode text, exact integers, JSON, lists', () => {
    const bytes = fc.uint8Array({ maxLength: 64 }).map((array) => String.fromCharCode(...array));
    const value = fc.record(
      {
        file: bytes,
        old: fc.constantFrom('\r\n--plant-store-kit-', '--', '\r\n').chain((tricky) => bytes.map((b) => `${tricky}${b}${tricky}`)),
        note: awkward,
        size: integer,
        info: fc.dictionary(awkward, fc.oneof(awkward, integer), { maxKeys: 3 }),
        many: fc.array(integer, { minLength: 2, maxLength: 4 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(value, (given) => {
        const { contentType, bytes: body } = serialiseBody(multipartCodec, 'multipart/form-data', given, UPLOAD_FIELDS);
        expect(normal(multipartCodec.parse(Buffer.from(body).toString('latin1'), { contentType, fields: UPLOAD_FIELDS }))).toEqual(normal(given));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('writes what it reads: a value through serialiseBody (a fresh boundary in the Content-Type) parses back the same', () => {
    const value = { file: ALL_BYTES, note: 'ünïcode & "quotes"', size: new LosslessNumber('123456789012345678901'), info: { a: [new LosslessNumber('1')] }, many: [new LosslessNumber('1'), new LosslessNumber('2')] };
    const { contentType, bytes } = serialiseBody(multipartCodec, 'multipart/form-data', value, UPLOAD_FIELDS);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=plant-store-kit-[0-9a-f]{24}$/);
    expect(normal(multipartCodec.parse(Buffer.from(bytes).toString('latin1'), { contentType, fields: UPLOAD_FIELDS }))).toEqual(normal(value));
  });
});

describe('the reference takes forms through its pipeline', () => {
  const item = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, height: { type: 'integer', minimum: 1 }, photo: { type: 'string', format: 'binary' } } };
  const contract = compileContract({
    openapi: '3.1.0',
    info: { title: 'forms', version: '1' },
    paths: {
      '/plants': {
        post: {
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: item }, 'multipart/form-data': { schema: item } } },
          responses: { '201': { description: 'kept', content: { 'application/json': { schema: item } } } },
        },
      },
      '/plants/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: item } } } } } },
    },
  });
  const post = (app: ReturnType<typeof createStoreApp>, contentType: string, body: string | Uint8Array) => app.request({ method: 'POST', url: '/plants', headers: { 'content-type': contentType }, body });

  it('stores a valid form exactly, and nothing of one that breaks a constraint (400, naming the field)', () => {
    const app = createStoreApp(contract, { tokens: ['t'] });
    expect(post(app, 'application/x-www-form-urlencoded', 'id=9007199254740993&name=Fern+%26+Moss&height=3')).toMatchObject({ status: 201, body: '{"id":9007199254740993,"name":"Fern & Moss","height":3}' });
    expect(app.request({ method: 'GET', url: '/plants/9007199254740993', headers: {} })).toMatchObject({ status: 200, body: '{"id":9007199254740993,"name":"Fern & Moss","height":3}' });
    expect(post(app, 'application/x-www-form-urlencoded', 'id=5&name=Fern&height=0')).toMatchObject({ status: 400, body: '{"error":400,"message":"height: must be >= 1"}' });
    expect(app.request({ method: 'GET', url: '/plants/5', headers: {} })).toMatchObject({ status: 404 });
    expect(post(app, 'application/x-www-form-urlencoded', 'id=5&name=%C3')).toMatchObject({ status: 400, body: expect.stringContaining('malformed form') as unknown });
  });

  it('stores a multipart create with a binary part byte for byte, and refuses a body over the limit', () => {
    const app = createStoreApp(contract, { tokens: ['t'], maxBodyBytes: 2048 });
    const body = multipart('b', [part('Content-Disposition: form-data; name="id"', '7'), part('Content-Disposition: form-data; name="name"', 'Fern'), part('Content-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png', ALL_BYTES)]);
    const answer = post(app, 'multipart/form-data; boundary=b', Buffer.from(body, 'latin1'));
    expect(answer.status).toBe(201);
    expect((JSON.parse(answer.body) as { photo: string }).photo).toBe(ALL_BYTES);
    const big = multipart('b', [part('Content-Disposition: form-data; name="id"', '8'), part('Content-Disposition: form-data; name="photo"; filename="p.png"', ALL_BYTES.repeat(9))]);
    expect(post(app, 'multipart/form-data; boundary=b', Buffer.from(big, 'latin1'))).toMatchObject({ status: 400, body: '{"error":400,"message":"body: larger than the limit of 2048 bytes"}' });
    expect(app.request({ method: 'GET', url: '/plants/8', headers: {} })).toMatchObject({ status: 404 });
    expect(post(app, 'multipart/form-data', Buffer.from(body, 'latin1'))).toMatchObject({ status: 400, body: expect.stringContaining('no boundary parameter') as unknown });
  });
});

describe('an operation that takes JSON or a form (the Petstore way)', () => {
  it('reads the form by its fields when the Content-Type picks it, and stores it as the JSON would be', () => {
    const pet = { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' }, tags: { type: 'array', items: { type: 'string' } } } };
    const contract = compileContract({
      openapi: '3.1.0',
      info: { title: 'pets', version: '1' },
      paths: {
        '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema: pet }, 'application/x-www-form-urlencoded': { schema: pet } } }, responses: { '200': { description: 'kept', content: { 'application/json': { schema: pet } } } } } },
        '/pets/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: pet } } } } } },
      },
    });
    const app = createStoreApp(contract, { tokens: ['t'] });
    const post = (contentType: string, body: string) => app.request({ method: 'POST', url: '/pets', headers: { 'content-type': contentType }, body });
    expect(post('application/x-www-form-urlencoded; charset=utf-8', 'id=9223372036854775807&tags=a&tags=b')).toMatchObject({ status: 200, body: '{"id":9223372036854775807,"tags":["a","b"]}' });
    expect(post('application/json', '{"id":2,"tags":["c"]}')).toMatchObject({ status: 200, body: '{"id":2,"tags":["c"]}' });
    expect(post('application/x-www-form-urlencoded', 'id=3&tags=a&id=4')).toMatchObject({ status: 400, body: '{"error":400,"message":"field id: given 2 times; give it once"}' });
    expect(app.request({ method: 'GET', url: '/pets/9223372036854775807', headers: {} })).toMatchObject({ status: 200, body: '{"id":9223372036854775807,"tags":["a","b"]}' });
  });
});

describe('a form as an answer', () => {
  it('is written from its example by the form codec, as the Accept picks it', () => {
    const token = { type: 'object', properties: { access_token: { type: 'string' }, expires_in: { type: 'integer' } } };
    const contract = compileContract({
      openapi: '3.1.0',
      info: { title: 'tokens', version: '1' },
      paths: {
        '/token': {
          get: {
            responses: {
              '200': {
                description: 'a token',
                content: { 'application/json': { schema: token, example: { access_token: 'a b&c', expires_in: 3600 } }, 'application/x-www-form-urlencoded': { schema: token, example: { access_token: 'a b&c', expires_in: 3600 } } },
              },
            },
          },
        },
      },
    });
    const app = createStoreApp(contract, { tokens: ['t'] });
    expect(app.request({ method: 'GET', url: '/token', headers: { accept: 'application/x-www-form-urlencoded' } })).toMatchObject({ status: 200, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'access_token=a+b%26c&expires_in=3600' });
    expect(app.request({ method: 'GET', url: '/token', headers: {} })).toMatchObject({ status: 200, body: '{"access_token":"a b&c","expires_in":3600}' });
  });
});

describe('the encoding object', () => {
  it('names what it says that the codecs do not check: a part`s headers, allowReserved; forms themselves are checked', () => {
    const contract = compileContract({
      openapi: '3.1.0',
      info: { title: 'encoding', version: '1' },
      paths: {
        '/up': {
          post: {
            requestBody: {
              content: {
                'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'image/png' } } }, encoding: { file: { contentType: 'image/png', headers: { 'X-Rate': { schema: { type: 'integer' } } } } } },
                'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { q: { type: 'string' } } }, encoding: { q: { allowReserved: true } } },
              },
            },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
    });
    expect(contract.unchecked.map((u) => `${u.feature} at ${u.pointer}`)).toEqual([
      'the headers of multipart/form-data field file (not checked) at /paths/~1up/post/requestBody/content/multipart~1form-data/encoding/file/headers',
      'allowReserved of application/x-www-form-urlencoded field q (reserved characters are read either way) at /paths/~1up/post/requestBody/content/application~1x-www-form-urlencoded/encoding/q/allowReserved',
    ]);
  });
});
