/**
 * conform's bodies in every declared media type (issue 29): the `media-bodies` kind writes a form
 * and a multipart upload (a file part for `format: binary`) through the kit's codecs, valid and
 * invalid against their schemas and under an undeclared Content-Type, each labelled as the
 * contract reads it - proven by the reference of the contract, in process, which accepts exactly
 * the valid ones. The bundled contract (JSON only) gets none of them.
 */
import { describe, expect, it } from 'vitest';
import { coverageCases, requestArbitrary } from '../../fuzz/generation/kinds/index.js';
import { loadContract, compileContract } from '../../src/openapi/index.js';
import { judgeExchange, mediaTypesNotChecked, type RequestCase } from '../../oracle/index.js';
import { createApp } from '../../src/reference/index.js';
import fc from 'fast-check';
import { MEDIA_CONTRACT_FILE } from '../faulty/media.js';

const contract = loadContract(MEDIA_CONTRACT_FILE);
const options = { token: 'test-token', kinds: ['media-bodies'] };

function answer(request: RequestCase): number {
  const app = createApp({ tokens: ['test-token'], contract });
  return app.request({ method: request.method, url: request.path, headers: request.headers, body: request.body }).status;
}

describe('media-bodies', () => {
  const cases = coverageCases(contract, options);

  it('covers the form create and the multipart upload: a plain body, schema probes valid and invalid, and an undeclared Content-Type', () => {
    const types = new Set(cases.map((c) => c.headers['content-type']?.split(';')[0]));
    expect(types).toContain('application/x-www-form-urlencoded');
    expect(types).toContain('multipart/form-data');
    expect(cases.some((c) => c.content === 'invalid' && c.variant.includes('packets is 0'))).toBe(true);
    expect(cases.some((c) => c.content === 'invalid' && c.variant.includes('sent as'))).toBe(true);
    const upload = cases.find((c) => c.headers['content-type']?.startsWith('multipart/form-data') && c.content === 'valid');
    expect(Buffer.from(upload?.body ?? []).toString('latin1')).toMatch(/name="photo"; filename="photo"\r\nContent-Type: image\/png/);
  });

  it('is the same list every time (a multipart boundary included)', () => {
    const again = coverageCases(contract, options);
    expect(again.map((c) => [c.variant, c.headers['content-type'], Buffer.from(c.body).toString('latin1')])).toEqual(cases.map((c) => [c.variant, c.headers['content-type'], Buffer.from(c.body).toString('latin1')]));
  });

  it("labels every request as the contract reads it: the reference accepts each valid one and refuses each invalid one with a 4xx", () => {
    for (const request of cases) {
      const status = answer(request);
      if (request.content === 'valid') expect(status, request.variant).toBeLessThan(300);
      else expect([status >= 400 && status < 500, request.variant]).toEqual([true, request.variant]);
    }
  });

  it('draws random bodies of each media type the same way (seed printed)', () => {
    const seed = Date.now() % 100_000;
    console.log(`media-bodies random: seed ${seed}`);
    for (const request of fc.sample(requestArbitrary(contract, options), { numRuns: 60, seed })) {
      const status = answer(request);
      expect([request.content === 'valid' ? status < 300 : status >= 400 && status < 500, request.variant]).toEqual([true, request.variant]);
    }
  });

  it('sends nothing for the bundled contract, whose bodies are all JSON', () => {
    expect(coverageCases(loadContract(), options)).toEqual([]);
  });
});

describe('mediaTypesNotChecked', () => {
  it('names, per operation, a media type no codec reads, as a request body and as an answer', () => {
    const xml = compileContract({
      openapi: '3.1.0',
      info: { title: 'x', version: '1' },
      paths: {
        '/notes': {
          post: {
            operationId: 'addNote',
            requestBody: { content: { 'application/xml': { schema: { type: 'object' } } } },
            responses: { '200': { description: 'ok', content: { 'application/xml': { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    });
    expect(mediaTypesNotChecked(xml.operations)).toEqual([
      'addNote: request bodies of application/xml are not generated (no codec writes it)',
      "addNote: the 200 answer's application/xml body is not checked (no codec reads it)",
    ]);
    expect(mediaTypesNotChecked(contract.operations)).toEqual([]);
  });
});

describe('judging by the declared media type', () => {
  const pictures = compileContract({
    openapi: '3.1.0',
    info: { title: 'p', version: '1' },
    paths: {
      '/pictures': {
        post: {
          // A required integer, the only one: the create's key, so that POST /pictures stores what it is sent (echo holds it to that).
          requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['size'], properties: { title: { type: 'string' }, size: { type: 'integer' } } } } } },
          responses: {
            '201': { description: 'kept', content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' }, size: { type: 'integer', maximum: 10 } } } } } },
            '400': { description: 'no' },
          },
        },
        // A declared 400: where an operation declares no client error, any 4xx refuses an invalid request (oracle/declared.ts).
        get: { responses: { '200': { description: 'a picture', content: { 'image/png': {} } }, '400': { description: 'no' } } },
      },
    },
  });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const post = (body: string): RequestCase => ({ method: 'POST', path: '/pictures', headers: { ...form, accept: '*/*' }, body: Buffer.from(body), kind: 'media-bodies', variant: '', content: 'valid', credentials: 'valid', setup: [] });
  const answer201 = (body: string) => ({ kind: 'response' as const, status: 201, headers: form, body: Buffer.from(body), durationMs: 1 });

  it('response-shape reads a form answer by its codec and holds it to its schema', () => {
    expect(judgeExchange('response-shape', post('title=a'), answer201('title=a&size=3'), pictures)).toEqual([]);
    expect(judgeExchange('response-shape', post('title=a'), answer201('title=a&size=11'), pictures)[0]?.message).toMatch(/size: must be <= 10/);
    expect(judgeExchange('response-shape', post('title=a'), answer201('size=1'), pictures)[0]?.message).toMatch(/title: is required/);
  });

  it('echo reads a form request by its codec: a field sent and answered otherwise is found', () => {
    expect(judgeExchange('echo', post('title=a&size=3'), answer201('title=a&size=3'), pictures)).toEqual([]);
    expect(judgeExchange('echo', post('title=a&size=3'), answer201('title=a'), pictures)[0]?.message).toMatch(/size was sent as 3/);
  });

  it('takes 406 for an Accept no declared success media type satisfies, and only then', () => {
    const read = (accept: string): RequestCase => ({ method: 'GET', path: '/pictures', headers: { accept }, body: new Uint8Array(0), kind: 'valid-parameters', variant: '', content: 'valid', credentials: 'valid', setup: [] });
    const notAcceptable = { kind: 'response' as const, status: 406, headers: {}, body: Buffer.from('no'), durationMs: 1 };
    for (const name of ['accepts-valid', 'status-declared'] as const) {
      expect(judgeExchange(name, read('application/json'), notAcceptable, pictures)).toEqual([]);
      expect(judgeExchange(name, read('image/*'), notAcceptable, pictures)).not.toEqual([]);
    }
    const invalid = (accept: string): RequestCase => ({ ...read(accept), content: 'invalid', path: '/pictures?x' });
    expect(judgeExchange('rejects-invalid', invalid('application/json'), notAcceptable, pictures)).toEqual([]);
    expect(judgeExchange('rejects-invalid', invalid('image/png'), notAcceptable, pictures)).not.toEqual([]);
  });

  it('asks for what the operation answers: Accept names its success media type where none is JSON', () => {
    const reads = coverageCases(pictures, { token: 't', kinds: ['valid-parameters'] }).filter((c) => c.method === 'GET');
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads.map((c) => c.headers.accept))).toEqual(new Set(['image/png']));
  });
});
