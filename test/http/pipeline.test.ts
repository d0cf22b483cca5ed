/**
 * The pipeline itself (src/http/pipeline.ts), beside the rules: the one place a defect becomes a
 * 500 Error that says so and is reported, never swallowed - without a socket and over one; CORS
 * as one option, which turns it on for the reference too; and the layering it stands for: the
 * mock and src/http import nothing of the reference.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { loadContract, type OperationContract } from '../../src/openapi/index.js';
import { acceptAnyToken, createPipeline, listen, PlantStoreError, reportDefect, type Admitted, type AppRequest, type AppResponse, type Pipeline, type Reply } from '../../src/http/index.js';
import { createApp } from '../../src/reference/index.js';
import { expectAnswer } from '../support/expect-answer.js';
import { RawConnection, rawRequest } from '../support/http.js';
import { TEST_TOKEN } from '../support/servers.js';

const contract = loadContract();
const valid: AppRequest = { method: 'POST', url: '/plants', headers: { authorization: 'Bearer any', 'content-type': 'application/json' }, body: '{"name":"a","id":1}' };
const DEFECT_MESSAGE = 'internal: the server failed; this is a defect of the kit';
const admit = (operation: OperationContract): Admitted => ({ operation });

/** A pipeline whose answer is `respond`, and what it reported. */
function withAnswer(respond: () => Reply): { readonly pipeline: Pipeline<Admitted, AppResponse>; readonly reported: unknown[] } {
  const reported: unknown[] = [];
  return { pipeline: createPipeline({ contract, accept: acceptAnyToken, answer: { admit, respond }, onDefect: (cause) => reported.push(cause) }), reported };
}

describe('a defect of the kit', () => {
  it('an exception in the answer is a 500 Error that says so, and the exception is reported', () => {
    const defect = new TypeError('the store is broken');
    const { pipeline, reported } = withAnswer(() => {
      throw defect;
    });
    expectAnswer(pipeline.request(valid), { status: 500, code: 'internal', message: DEFECT_MESSAGE });
    expect(reported).toEqual([defect]);
  });

  it('a rejected asynchronous answer is a 500 Error, reported', async () => {
    const defect = new RangeError('Prism is gone');
    const reported: unknown[] = [];
    const pipeline = createPipeline({ contract, accept: acceptAnyToken, answer: { admit, respond: () => Promise.reject(defect) }, onDefect: (cause) => reported.push(cause) });
    expectAnswer(await pipeline.request(valid), { status: 500, code: 'internal', message: DEFECT_MESSAGE });
    expect(reported).toEqual([defect]);
  });

  it('an exception while the head is judged is a 500 Error too', () => {
    const reported: unknown[] = [];
    const pipeline = createPipeline({
      contract,
      accept: () => {
        throw new Error('the token store is broken');
      },
      answer: { admit, respond: () => ({ status: 200, headers: {}, body: '' }) },
      onDefect: (cause) => reported.push(cause),
    });
    expect(pipeline.request(valid)).toMatchObject({ status: 500, code: 'internal' });
    expect(reported).toHaveLength(1);
  });

  it('an answer that names its own defect (an internal refusal) gets that message, and it is reported', () => {
    const { pipeline, reported } = withAnswer(() => new PlantStoreError('internal', 'internal: the example breaks openapi.yaml; this is a defect of the mock'));
    expect(pipeline.request(valid)).toMatchObject({ status: 500, body: '{"error":500,"message":"internal: the example breaks openapi.yaml; this is a defect of the mock"}' });
    expect(reported).toEqual(['internal: the example breaks openapi.yaml; this is a defect of the mock']);
  });

  it('a refusal the answer gives is its Error answer, and no defect', () => {
    const { pipeline, reported } = withAnswer(() => new PlantStoreError('unsupported_preference', 'prefer: not this one'));
    expect(pipeline.request(valid)).toMatchObject({ status: 400, code: 'unsupported_preference' });
    expect(reported).toEqual([]);
  });

  it('over a socket: the 500 Error arrives, and the exception is reported once', async () => {
    const defect = new TypeError('the store is broken');
    const { pipeline, reported } = withAnswer(() => {
      throw defect;
    });
    const server = await listen(pipeline, { port: 0, host: '127.0.0.1' });
    try {
      const connection = await RawConnection.open(server.port);
      connection.send(rawRequest(`POST /plants HTTP/1.1\nHost: x\nAuthorization: Bearer ${TEST_TOKEN}\nContent-Type: application/json\nContent-Length: 20`, '{"name":"a","id":45}'));
      expectAnswer(await connection.next(), { status: 500, code: 'internal', message: DEFECT_MESSAGE });
      connection.destroy();
      expect(reported).toEqual([defect]);
    } finally {
      await server.close();
    }
  });

  it('is written to stderr with its stack by default, --quiet or not', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      reportDefect(new RangeError('out of plants'));
      expect(String(write.mock.calls[0]?.[0])).toMatch(/^plant-store: a request was answered 500 because of a defect of the kit: RangeError: out of plants\n\s+at /);
    } finally {
      write.mockRestore();
    }
  });
});

describe('CORS, one option of the pipeline', () => {
  const preflight: AppRequest = { method: 'OPTIONS', url: '/plants', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } };

  it('is off for the reference by default: a preflight is an OPTIONS request like any other (405)', () => {
    const app = createApp({ tokens: [TEST_TOKEN] });
    expect(app.request(preflight)).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(app.request({ ...valid, headers: { ...valid.headers, authorization: `Bearer ${TEST_TOKEN}`, origin: 'http://localhost:5173' } }).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('turns on for the reference with `cors: true`, answering synchronously as ever', () => {
    const app = createApp({ tokens: [TEST_TOKEN], cors: true });
    expect(app.request(preflight)).toMatchObject({ status: 204, headers: { 'access-control-allow-origin': 'http://localhost:5173', 'access-control-allow-methods': 'POST' } });
    const answer = app.request({ ...valid, headers: { ...valid.headers, authorization: `Bearer ${TEST_TOKEN}`, origin: 'http://localhost:5173' } });
    expect(answer).toMatchObject({ status: 200, headers: { 'access-control-allow-origin': 'http://localhost:5173', vary: 'Origin' } });
    const refused = app.request({ ...valid, headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' } });
    expect(refused.headers['access-control-expose-headers']).toContain('www-authenticate');
  });
});

describe('the layers', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const importsOf = (dir: string): { file: string; from: string }[] =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(join(root, dir, file), 'utf8').matchAll(/^import [^;]*? from '([^']+)';/gms)].map((match) => ({ file: join(dir, file), from: match[1] ?? '' })));

  it('the mock and src/http import nothing of the reference implementation', () => {
    const imports = [...importsOf('mock'), ...importsOf('src/http')];
    expect(imports.filter(({ from }) => from.includes('/openapi/')).length).toBeGreaterThan(2);
    expect(imports.filter(({ from }) => from.includes('reference'))).toEqual([]);
  });
});
