/**
 * The mock against the example full store (examples/contracts/plant-store-full.yaml): every
 * operation through the pipeline and Prism - GET, PUT, DELETE and a 204 included - with `Prefer`
 * and the journal working for each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createJournal } from '../../src/http/index.js';
import { createMock, type Mock } from '../../mock/index.js';
import { fullStore } from '../support/contracts.js';

const AUTH = { authorization: 'Bearer any-token' };
const journal = createJournal({});
let mock: Mock;
beforeAll(async () => {
  mock = await createMock({ contract: fullStore(), journal });
});

const call = (method: string, url: string, headers: Record<string, string> = AUTH, body?: string) => mock.request({ method, url, headers, ...(body === undefined ? {} : { body }) });

describe('the mock serves every operation of the full store', () => {
  it('answers each operation with its declared example, a 204 without content', async () => {
    expect(await call('GET', '/plants')).toMatchObject({ status: 200, body: '[{"name":"Monstera","id":1,"tag":"tropical"}]' });
    expect(await call('GET', '/plants/9223372036854775807')).toMatchObject({ status: 200, body: '{"name":"Monstera","id":1,"tag":"tropical"}' });
    expect(await call('PUT', '/plants/3', { ...AUTH, 'content-type': 'application/json' }, '{"name":"x"}')).toMatchObject({ status: 200, body: '{"name":"Monstera deliciosa","id":1,"tag":"tropical"}' });
    const deleted = await call('DELETE', '/plants/3');
    expect(deleted).toMatchObject({ status: 204, body: '' });
    expect(deleted.headers['content-type']).toBeUndefined();
  });

  it('answers HEAD as GET without content', async () => {
    const head = await call('HEAD', '/plants/1');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"Monstera","id":1,"tag":"tropical"}')));
  });

  it('judges parameters and credentials first, with the reference’s Errors', async () => {
    expect(await call('GET', '/plants/abc')).toMatchObject({ status: 400, body: '{"error":400,"message":"path parameter id: must be an integer"}' });
    const refused = await call('DELETE', '/plants/1', {});
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="plant-store"');
    expect(await call('PATCH', '/plants/1')).toMatchObject({ status: 405, headers: { allow: 'GET, PUT, DELETE, HEAD' } });
  });

  it('honours Prefer on a read, and journals every operation', async () => {
    expect(await call('GET', '/plants/1', { ...AUTH, prefer: 'code=404' })).toMatchObject({ status: 404, body: '{"error":404,"message":"id: no plant 1 in the store"}' });
    const methods = journal.list().map((entry) => `${entry.request.method} ${entry.answer.status}`);
    expect(methods).toEqual(expect.arrayContaining(['GET 200', 'PUT 200', 'DELETE 204', 'HEAD 200', 'GET 400', 'DELETE 401', 'PATCH 405', 'GET 404']));
  });
});
