/**
 * The kit's own refusals in the contract's words (docs/contracts.md, "Refusals in your contract's
 * words"): on four contracts whose errors are not the Plant Store's - `{code, message}` under
 * `default` only, `422` only, `{"error": {"status", "message"}}` (an OpenAPI 3.0 document), and
 * `application/problem+json` - every refusal (malformed JSON, an invalid body, an invalid
 * parameter, no credentials, an unknown path, a method not allowed, an Accept nothing fits) gets
 * the status the operation declares for its kind and a body its schema accepts, checked by an ajv
 * of the test's own over the document as written; in process and over sockets (`serve --contract`).
 * The bundled contract's refusals stay `{"error":<status>,"message":…}`, byte for byte.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodyText, type AppResponse } from '../../src/http/index.js';
import { textReason } from '../../src/http/refusals.js';
import { compileContract, openContract } from '../../src/openapi/index.js';
import { createApp, createStoreApp } from '../../src/reference/index.js';
import { listening, stopped, type Run } from '../support/cli.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const TOKEN = 'refusal-token';

interface Shape {
  readonly file: string;
  /** The component schema every refusal's body is an instance of. */
  readonly schema: string;
  readonly contentType: string;
  /** The status of a bad body or parameter, and of a media type the operation does not read. */
  readonly badRequest: number;
  readonly mediaType: number;
  /** Where the reason is, and where the status is (none: the shape has no place for it). */
  readonly reasonAt: readonly string[];
  readonly statusAt: readonly string[] | undefined;
}

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const SHAPES: Readonly<Record<string, Shape>> = {
  '{code, message} under default only': { file: fixture('refusals-code-message.yaml'), schema: 'Failure', contentType: 'application/json', badRequest: 400, mediaType: 400, reasonAt: ['message'], statusAt: ['code'] },
  '422 only': { file: fixture('refusals-422.yaml'), schema: 'ValidationFailure', contentType: 'application/json', badRequest: 422, mediaType: 422, reasonAt: ['message'], statusAt: undefined },
  '{"error": {"status", "message"}} (OpenAPI 3.0)': { file: fixture('refusals-nested-3.0.yaml'), schema: 'Envelope', contentType: 'application/json', badRequest: 400, mediaType: 400, reasonAt: ['error', 'message'], statusAt: ['error', 'status'] },
  'application/problem+json': { file: fixture('refusals-problem.yaml'), schema: 'Problem', contentType: 'application/problem+json', badRequest: 400, mediaType: 415, reasonAt: ['detail'], statusAt: ['status'] },
};

interface Refusal {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** The status expected, from the shape. */
  readonly status: (shape: Shape) => number;
  /** What the reason says. */
  readonly reason: RegExp;
  /** A header the answer must carry, with its value. */
  readonly header?: readonly [string, RegExp];
}

const AUTHORIZED = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const REFUSALS: Readonly<Record<string, Refusal>> = {
  'malformed JSON': { method: 'POST', url: '/notes', headers: AUTHORIZED, body: '{"text":', status: (shape) => shape.badRequest, reason: /malformed JSON/ },
  'an invalid body': { method: 'POST', url: '/notes', headers: AUTHORIZED, body: '{}', status: (shape) => shape.badRequest, reason: /text: is required/ },
  'an invalid parameter': { method: 'POST', url: '/notes?limit=many', headers: AUTHORIZED, body: '{"text":"x"}', status: (shape) => shape.badRequest, reason: /limit/ },
  'a media type the operation does not read': { method: 'POST', url: '/notes', headers: { ...AUTHORIZED, 'content-type': 'text/plain' }, body: 'x', status: (shape) => shape.mediaType, reason: /content-type/ },
  'no credentials': { method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, body: '{"text":"x"}', status: () => 401, reason: /authorization/, header: ['www-authenticate', /^Bearer/] },
  'a path the contract does not declare': { method: 'GET', url: '/nothing/here', headers: {}, status: () => 404, reason: /no operation at \/nothing\/here/ },
  'a method the path does not declare': { method: 'DELETE', url: '/notes', headers: {}, status: () => 405, reason: /DELETE is not allowed/, header: ['allow', /GET/] },
  'an Accept none of the answers fits': { method: 'GET', url: '/notes', headers: { accept: 'image/png' }, status: () => 406, reason: /image\/png/ },
};

/** A validator of a component schema by an ajv of the test's own, over the document as written. */
function schemaValidator(file: string, name: string): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...(parseYaml(readFileSync(file, 'utf8')) as object), $id: 'urn:test:document' });
  const validate = ajv.compile({ $ref: `urn:test:document#/components/schemas/${name}` });
  return (value) => validate(value);
}

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((here, name) => (typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[name] : undefined), value);
}

interface Answer {
  readonly status: number;
  readonly header: (name: string) => string | null | undefined;
  readonly body: string;
}

function expectInShape(answer: Answer, refusal: Refusal, shape: Shape, valid: (value: unknown) => boolean): void {
  const status = refusal.status(shape);
  expect(answer.status).toBe(status);
  expect(answer.header('content-type')).toBe(shape.contentType);
  if (refusal.header) expect(answer.header(refusal.header[0])).toMatch(refusal.header[1]);
  const body: unknown = JSON.parse(answer.body);
  expect(valid(body), answer.body).toBe(true);
  expect(at(body, shape.reasonAt)).toMatch(refusal.reason);
  if (shape.statusAt) expect(at(body, shape.statusAt)).toBe(status);
  // No trace of the Plant Store's own Error where the contract has another.
  expect(answer.body).not.toMatch(/^\{"error":\d/);
}

const inProcess = (response: AppResponse): Answer => ({ status: response.status, header: (name) => response.headers[name], body: response.body });

describe.each(Object.entries(SHAPES))('a contract whose errors are %s', (_, shape) => {
  const valid = schemaValidator(shape.file, shape.schema);

  it.each(Object.entries(REFUSALS))('in process: %s is answered in its status and shape', async (__, refusal) => {
    const app = createStoreApp(await openContract(shape.file), { tokens: [TOKEN] });
    const { status, ...request } = refusal;
    expectInShape(inProcess(app.request({ ...request })), refusal, shape, valid);
    expect(status(shape)).toBeGreaterThanOrEqual(400);
  });
});

describe('serve --contract, over sockets', () => {
  const servings: Run[] = [];
  beforeAll(() => {
    if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  });
  afterAll(() => stopped(servings));

  async function started(file: string): Promise<{ url: string; banner: string }> {
    const serving = await listening(['serve', '--port', '0', '--contract', file, '--token', TOKEN, '--quiet']);
    servings.push(serving.ran);
    return serving;
  }

  it.each(Object.entries(SHAPES))('on a contract whose errors are %s, every refusal is in its status and shape', async (_, shape) => {
    const { url, banner } = await started(shape.file);
    expect(banner).not.toContain('cannot take their reason');
    const valid = schemaValidator(shape.file, shape.schema);
    for (const refusal of Object.values(REFUSALS)) {
      const response = await fetch(`${url}${refusal.url}`, { method: refusal.method, headers: refusal.headers, ...(refusal.body === undefined ? {} : { body: refusal.body }) });
      expectInShape({ status: response.status, header: (name) => response.headers.get(name), body: await response.text() }, refusal, shape, valid);
    }
  });
});

describe("a shape that cannot take the reason: answered valid without it, and named", () => {
  const documentWith = (code: object) => ({
    openapi: '3.1.0',
    info: { title: 'Coded errors', version: '1' },
    paths: {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
          responses: {
            '201': { description: 'made' },
            '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', required: ['code'], additionalProperties: false, properties: { code } } } } },
          },
        },
      },
    },
  });
  const document = documentWith({ type: 'string', enum: ['E100', 'E200'] });

  it('answers the 400 with a body its schema accepts, and names the response once', () => {
    const app = createStoreApp(compileContract(document), { tokens: [TOKEN] });
    const answer = app.request({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(400);
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(document.paths['/things'].post.responses['400'].content['application/json'].schema, JSON.parse(answer.body)), answer.body).toBe(true);
    expect(app.refusalNotes).toEqual(['POST /things 400: its shape has no string property that can take the reason; answered without it']);
  });

  it('names a shape the kit cannot make an instance of (a pattern beyond the generator), and answers in it all the same', () => {
    const app = createStoreApp(compileContract(documentWith({ type: 'string', pattern: '^E[0-9]{3}$' })), { tokens: [TOKEN] });
    const answer = app.request({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(400);
    expect(Object.keys(JSON.parse(answer.body) as object)).toEqual(['code']);
    expect(app.refusalNotes).toEqual(['POST /things 400: the kit could not make a valid instance of its schema; answered with the nearest']);
  });
});

/** A board whose squares answer their errors as text only (text/html, text/plain), as some public contracts do. */
describe('a contract whose error responses are text only: the refusal is the reason as that text, never JSON', () => {
  const coordinate = { type: 'integer', minimum: 1, maximum: 3 };
  const message = { type: 'string', maxLength: 40 };
  const board = compileContract({
    openapi: '3.1.0',
    info: { title: 'Board', version: '1' },
    paths: {
      '/board/{row}/{column}': {
        parameters: [
          { name: 'row', in: 'path', required: true, schema: coordinate },
          { name: 'column', in: 'path', required: true, schema: coordinate },
        ],
        get: { responses: { '200': { description: 'the square', content: { 'application/json': { schema: { type: 'string' } } } }, '400': { description: 'refused', content: { 'text/html': { schema: message, example: 'Illegal coordinates' } } } } },
        put: {
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'string', enum: ['X', 'O'] } } } },
          responses: { '200': { description: 'placed' }, '400': { description: 'refused', content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
    },
  });
  const app = createStoreApp(board, { tokens: [TOKEN] });

  it('answers text/html with the reason, escaped for HTML and cut to the schema\'s maxLength', () => {
    const answer = app.request({ method: 'GET', url: '/board/7/1', headers: {} });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(() => JSON.parse(answer.body) as unknown).toThrow();
    expect(answer.body).toMatch(/^path parameter row/);
    expect(Array.from(answer.body).length).toBeLessThanOrEqual(40);
    expect(answer.body).not.toMatch(/[<>]/);
  });

  it('answers text/plain with the whole reason as it is', () => {
    const answer = app.request({ method: 'PUT', url: '/board/1/1', headers: { 'content-type': 'application/json' }, body: '"Z"' });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.body).toMatch(/^body/);
    expect(answer.body).not.toMatch(/^[{"]/);
  });

  it('writes a reason as text: HTML escapes whole, never one cut in two', () => {
    expect(textReason('a < b & "c"', { html: true, maxLength: undefined })).toBe('a &lt; b &amp; &quot;c&quot;');
    expect(textReason('ab<cd', { html: true, maxLength: 5 })).toBe('ab');
    expect(textReason('ab<cd', { html: false, maxLength: 4 })).toBe('ab<c');
  });
});

describe('a reason in the first item of an array of errors, or beside the properties of an open object', () => {
  const documentWith = (status: string, schema: object) => ({
    openapi: '3.1.0',
    info: { title: 'Listed errors', version: '1' },
    paths: {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
          responses: { '201': { description: 'made' }, [status]: { description: 'refused', content: { 'application/json': { schema } } } },
        },
      },
    },
  });
  const refusedBody = (document: object): { status: number; body: unknown; notes: readonly string[]; valid: boolean } => {
    const app = createStoreApp(compileContract(document as Record<string, unknown>), { tokens: [TOKEN] });
    const answer = app.request({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, body: '{"name":7}' });
    const schema = (document as { paths: Record<string, { post: { responses: Record<string, { content: { 'application/json': { schema: object } } }> } }> }).paths['/things']?.post.responses[String(answer.status)]?.content['application/json'].schema;
    return { status: answer.status, body: JSON.parse(answer.body), notes: app.refusalNotes, valid: new Ajv2020({ strict: false }).validate(schema ?? false, JSON.parse(answer.body)) };
  };

  it('puts it in `msg` of a validation error list under 422 (`{"detail": [{"loc", "msg", "type"}]}`)', () => {
    const item = { type: 'object', required: ['loc', 'msg', 'type'], properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, msg: { type: 'string' }, type: { type: 'string' } } };
    const { status, body, notes, valid } = refusedBody(documentWith('422', { type: 'object', properties: { detail: { type: 'array', items: item } } }));
    expect([status, valid, notes]).toEqual([422, true, []]);
    expect(at(body, ['detail', '0', 'msg'])).toBe('name: must be a string');
  });

  it('puts it in `detail` of the first of `errors`, the status left a string where the schema says so (`{"errors": [{"status", "title", "detail"}]}`)', () => {
    const item = { type: 'object', properties: { status: { type: 'string' }, title: { type: 'string' }, detail: { type: 'string' } } };
    const { status, body, notes, valid } = refusedBody(documentWith('400', { type: 'object', required: ['errors'], properties: { errors: { type: 'array', minItems: 1, items: item } } }));
    expect([status, valid, notes]).toEqual([400, true, []]);
    expect(at(body, ['errors', '0', 'detail'])).toBe('name: must be a string');
  });

  it('adds `message` to an object schema that names no string property and allows others', () => {
    const { status, body, notes, valid } = refusedBody(documentWith('400', { type: 'object', required: ['code'], properties: { code: { type: 'integer', enum: [1, 2] } } }));
    expect([status, valid, notes]).toEqual([400, true, []]);
    expect(body).toEqual({ code: 1, message: 'name: must be a string' });
  });
});

describe('the bundled contract', () => {
  const app = createApp({ tokens: [TOKEN] });
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const cases: [string, { method: string; url: string; headers: Record<string, string>; body?: string }, number][] = [
    ['malformed JSON', { method: 'POST', url: '/plants', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"name":' }, 400],
    ['an invalid body', { method: 'POST', url: '/plants', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"name":"Fern"}' }, 400],
    ['a media type other than JSON', { method: 'POST', url: '/plants', headers: { ...bearer, 'content-type': 'text/plain' }, body: 'Fern' }, 400],
    ['no credentials', { method: 'POST', url: '/plants', headers: { 'content-type': 'application/json' }, body: '{"name":"Fern","id":1}' }, 401],
    ['an unknown path', { method: 'GET', url: '/nothing', headers: bearer }, 404],
    ['a method not allowed', { method: 'GET', url: '/plants', headers: bearer }, 405],
  ];

  it.each(cases)('answers %s with {"error":<status>,"message":…}, byte for byte as before', (_, request, status) => {
    const answer = app.request(request);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json');
    const { message } = JSON.parse(answer.body) as { message: string };
    expect(answer.body).toBe(errorBodyText(status, message));
    expect(app.refusalNotes).toEqual([]);
  });
});
