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
import { mediaTypesNotChecked, type RequestCase } from '../../oracle/index.js';
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
