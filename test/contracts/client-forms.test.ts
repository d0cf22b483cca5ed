/**
 * The typed client sends a request body through its operation's codec: a form as the WHATWG
 * serialiser writes it, multipart with a fresh boundary in its Content-Type and a binary part
 * byte for byte; the reference on a socket reads each back and stores it exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation } from '../../contracts/index.js';
import { compileContract, LosslessNumber, type Contract, type OperationContract } from '../../src/openapi/index.js';
import { createStoreApp, listen, type RunningServer } from '../../src/reference/index.js';

const item = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, photo: { type: 'string', format: 'binary' } } };
const key = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }];
const collection = (mediaType: string) => ({
  post: { operationId: `create ${mediaType}`, requestBody: { required: true, content: { [mediaType]: { schema: item } } }, responses: { '201': { description: 'kept', content: { 'application/json': { schema: item } } } } },
});
const contract: Contract = compileContract({
  openapi: '3.1.0',
  info: { title: 'client forms', version: '1' },
  paths: {
    '/plants': collection('application/x-www-form-urlencoded'),
    '/plants/{id}': { get: { parameters: key, responses: { '200': { description: 'one', content: { 'application/json': { schema: item } } } } } },
    '/uploads': collection('multipart/form-data'),
    '/uploads/{id}': { get: { parameters: key, responses: { '200': { description: 'one', content: { 'application/json': { schema: item } } } } } },
  },
});
function operation(method: string, path: string): OperationContract {
  const found = contract.operations.find((o) => o.method === method && o.path === path);
  if (found === undefined) throw new Error(`no ${method} ${path}`);
  return found;
}

let running: RunningServer;
beforeAll(async () => {
  running = await listen(createStoreApp(contract, { tokens: ['t'] }), { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await running.close();
});

describe('callOperation with a body of fields', () => {
  it('sends a form the reference stores exactly (int64, unicode, `&`, `+`, `=`, a list)', async () => {
    const body = { id: new LosslessNumber('9223372036854775807'), name: 'Fern & Moss + 1 = ünï', tags: ['a,b', 'c'] };
    const created = await callOperation(operation('POST', '/plants'), running.url, 't', { body }, { contract });
    expect(created.status).toBe(201);
    const read = await fetch(`${running.url}/plants/9223372036854775807`);
    expect(await read.text()).toBe('{"id":9223372036854775807,"name":"Fern & Moss + 1 = ünï","tags":["a,b","c"]}');
  });

  it('sends multipart with its boundary, a binary part byte for byte', async () => {
    const photo = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
    const created = await callOperation(operation('POST', '/uploads'), running.url, 't', { body: { id: new LosslessNumber('7'), name: 'Moss', photo } }, { contract });
    expect(created.status).toBe(201);
    const read = (await (await fetch(`${running.url}/uploads/7`)).json()) as { photo: string };
    expect(read.photo).toBe(photo);
  });
});
