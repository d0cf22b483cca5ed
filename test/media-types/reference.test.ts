/**
 * The reference over a contract of every media type (fixtures/media.yaml), without a socket: JSON
 * of any type and every +json type read and checked (int64 exact), text checked by its schema,
 * bytes and XML served unchecked, the answer's media type picked by Accept, 406 where none fits,
 * the request's Content-Type picking the codec among the operation's types, 415-as-400 for others.
 */
import { describe, expect, it } from 'vitest';
import { createJournal } from '../../src/http/index.js';
import { compileContract, loadContract } from '../../src/openapi/index.js';
import { createStoreApp, planReference } from '../../src/reference/index.js';
import { MEDIA_FILE } from './fixture.js';

const contract = loadContract(MEDIA_FILE);
const journal = createJournal();
const app = createStoreApp(contract, { tokens: ['t'], journal });

const get = (url: string, accept?: string) => app.request({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });
const send = (method: string, url: string, contentType: string, body: string | Uint8Array) => app.request({ method, url, headers: { 'content-type': contentType }, body });

describe('a contract of every media type', () => {
  it('loads, naming each media type it serves unchecked with where it is', () => {
    expect(contract.unchecked.map((u) => `${u.feature} at ${u.pointer}`)).toEqual([
      'the media type application/xml (read and served unchecked) at /paths/~1reports~1{id}/get/responses/200/content/application~1xml',
      'the media type */* (read and served unchecked) at /paths/~1anything/get/responses/200/content/*~1*',
    ]);
  });

  it('answers JSON without Accept, and where JSON is what the client prefers', () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/xml;q=0.5, application/json', 'application/*']) {
      const answer = get('/reports/7', accept);
      expect([answer.status, answer.headers['content-type'], answer.body], String(accept)).toEqual([200, 'application/json', '{"id":7,"title":"Moss"}']);
    }
  });

  it('answers the XML example where the client prefers XML (q-values, specificity)', () => {
    for (const accept of ['application/xml', 'application/json;q=0.4, application/xml;q=0.9', 'application/*;q=0.1, application/xml', 'text/html, application/xml;q=0.2']) {
      const answer = get('/reports/7', accept);
      expect([answer.status, answer.headers['content-type'], answer.body], accept).toEqual([200, 'application/xml', '<report><id>7</id><title>Moss</title></report>']);
    }
  });

  it('answers 406 in the Error shape where no offered type fits, before the answer is looked for', () => {
    for (const accept of ['text/html', 'application/json;q=0, application/xml;q=0', 'image/*']) {
      const answer = get('/reports/7', accept);
      expect([answer.status, answer.code], accept).toEqual([406, 'not_acceptable']);
      expect(JSON.parse(answer.body)).toEqual({ error: 406, message: expect.stringMatching(/^accept: .* matches none of the media types this operation answers with \(application\/json, application\/xml\)$/) as unknown });
    }
    expect(journal.list().at(-1)?.verdict).toMatchObject({ outcome: 'refused', rule: 'negotiation', status: 406 });
  });

  it('reads a JSON array, each int64 exact, and refuses one past int64 or past its schema', () => {
    expect(send('POST', '/batches', 'application/json', '[9223372036854775807, -9223372036854775808]')).toMatchObject({ status: 200, body: '[1,2,3]' });
    expect(send('POST', '/batches', 'application/json', '[9223372036854775808]')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(send('POST', '/batches', 'application/json', '[1,2,3,4]')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(send('POST', '/batches', 'application/json', '{"a":1}')).toMatchObject({ status: 400, code: 'invalid_body' });
  });

  it('answers a JSON scalar from its example', () => {
    expect(get('/count')).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: '42' });
  });

  it('reads merge-patch+json and answers vnd.api+json through the JSON codec', () => {
    expect(send('PATCH', '/reports/7/title', 'application/merge-patch+json', '{"title":null}')).toMatchObject({ status: 200, headers: { 'content-type': 'application/vnd.api+json' }, body: '{"data":{"id":"7","type":"reports"}}' });
    expect(send('PATCH', '/reports/7/title', 'application/merge-patch+json', '{"title":5}')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(send('PATCH', '/reports/7/title', 'application/merge-patch+json', '{"title":')).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(send('PATCH', '/reports/7/title', 'application/json', '{"title":null}')).toMatchObject({ status: 400, code: 'unsupported_media_type' });
  });

  it('lets the Content-Type pick the codec among the declared request types: text checked by maxLength, JSON by its schema', () => {
    expect(send('POST', '/notes', 'text/plain; charset=utf-8', 'hello')).toMatchObject({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'noted' });
    expect(send('POST', '/notes', 'text/plain', 'far too long a note')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(send('POST', '/notes', 'text/plain', Uint8Array.from([0xc3, 0x28]))).toMatchObject({ status: 400, code: 'invalid_utf8' });
    expect(send('POST', '/notes', 'application/json', '{"text":"hello"}')).toMatchObject({ status: 200 });
    expect(send('POST', '/notes', 'application/json', '"hello"')).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(send('POST', '/notes', 'application/json', 'hello')).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(send('POST', '/notes', 'text/html', 'hello')).toMatchObject({ status: 400, code: 'unsupported_media_type' });
  });

  it('reads application/octet-stream as bytes, unchecked, and answers its example', () => {
    expect(send('PUT', '/blobs', 'application/octet-stream', Uint8Array.from([0x00, 0xff, 0xfe]))).toMatchObject({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: 'blob' });
    expect(send('PUT', '/blobs', 'application/json', '{}')).toMatchObject({ status: 400, code: 'unsupported_media_type' });
  });

  it('answers a */* response as JSON where the client takes JSON, as the concrete type it names otherwise', () => {
    expect(get('/anything')).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
    expect(get('/anything', 'application/json')).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(get('/anything', 'text/csv')).toMatchObject({ status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, body: '{"ok":true}' });
  });

  it('keeps a store for a collection whose create takes multipart: its body is read as an object of fields', () => {
    const item = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
    const multipart = compileContract({
      openapi: '3.1.0',
      info: { title: 'uploads', version: '1' },
      paths: {
        '/uploads': { post: { requestBody: { required: true, content: { 'multipart/form-data': { schema: item } } }, responses: { '201': { description: 'stored' } } } },
        '/uploads/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: item, example: { id: 1 } } } } } } },
      },
    });
    expect(multipart.unchecked).toEqual([]);
    expect(planReference(multipart).patterns).toHaveLength(1);
    const app = createStoreApp(multipart, { tokens: ['t'] });
    const body = '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n9007199254740993\r\n--x--';
    expect(app.request({ method: 'POST', url: '/uploads', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body })).toMatchObject({ status: 201 });
    expect(app.request({ method: 'GET', url: '/uploads/9007199254740993', headers: {} })).toMatchObject({ status: 200, body: '{"id":9007199254740993}' });
    expect(app.request({ method: 'POST', url: '/uploads', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' })).toMatchObject({ status: 400 });
  });

  it('takes a form, checked against its schema', () => {
    expect(send('POST', '/forms', 'application/x-www-form-urlencoded', 'name=moss')).toMatchObject({ status: 204, body: '' });
    expect(send('POST', '/forms', 'application/x-www-form-urlencoded', 'name=a%FF')).toMatchObject({ status: 400, code: 'malformed_body' });
  });
});
