/**
 * `serve --contract` and `mock --contract` (Prism) of a contract with every media type
 * (fixtures/media.yaml), over real sockets: both start, name the types they serve unchecked, and
 * answer per Accept and per Content-Type - the JSON or the XML example, 406, text, bytes, a JSON
 * array with int64s, +json types, a `*` + `/*` response.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, stopped, type Listening } from '../support/cli.js';
import { MEDIA_FILE } from './fixture.js';

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});

/** A command started on the fixture, once it listens: its URL and its banner. */
async function started(command: 'serve' | 'mock'): Promise<Listening> {
  return listening([command, '--port', '0', ...(command === 'serve' ? ['--token', 't'] : []), '--contract', MEDIA_FILE]);
}

describe.each(['serve', 'mock'] as const)('%s --contract of every media type', (command) => {
  let server: Listening | undefined;
  beforeAll(async () => {
    server = await started(command);
  }, 40_000);
  afterAll(() => stopped([server?.ran]));

  const call = async (path: string, init: RequestInit = {}): Promise<[number, string | null, string]> => {
    const answer = await fetch(`${server?.url ?? ''}${path}`, init);
    return [answer.status, answer.headers.get('content-type'), await answer.text()];
  };

  it('starts, naming each media type it serves unchecked once, with where it is', () => {
    expect(server?.banner).toContain('not exercised or checked (docs/contracts.md):\n    - the media type application/xml (read and served unchecked) at /paths/~1reports~1{id}/get/responses/200/content/application~1xml\n    - the media type */* (read and served unchecked) at ');
    // Forms are read and checked since their codec came (src/openapi/media-types/urlencoded.ts): no longer named.
    expect(server?.banner).not.toContain('application/x-www-form-urlencoded');
  });

  it("answers JSON or the XML example as Accept asks, and 406 in the contract's error shape (problem+json) where nothing fits", async () => {
    expect(await call('/reports/7', { headers: { accept: 'application/json' } })).toEqual([200, 'application/json', '{"id":7,"title":"Moss"}']);
    expect(await call('/reports/7', { headers: { accept: 'application/json;q=0.5, application/xml' } })).toEqual([200, 'application/xml', '<report><id>7</id><title>Moss</title></report>']);
    const [status, type, body] = await call('/reports/7', { headers: { accept: 'text/html' } });
    expect([status, type, JSON.parse(body)]).toEqual([406, 'application/problem+json', { type: 'about:blank', status: 406, title: expect.stringContaining('accept: text/html matches none') as unknown }]);
  });

  it('reads a JSON array of int64s exactly, and answers a scalar', async () => {
    const json = { 'content-type': 'application/json' };
    expect(await call('/batches', { method: 'POST', headers: json, body: '[9223372036854775807]' })).toEqual([200, 'application/json', '[1,2,3]']);
    expect((await call('/batches', { method: 'POST', headers: json, body: '[9223372036854775808]' }))[0]).toBe(400);
    expect(await call('/count')).toEqual([200, 'application/json', '42']);
  });

  it('reads merge-patch+json and answers vnd.api+json', async () => {
    expect(await call('/reports/7/title', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"title":null}' })).toEqual([200, 'application/vnd.api+json', '{"data":{"id":"7","type":"reports"}}']);
  });

  it('reads text by its Content-Type and checks its maxLength; reads bytes unchecked', async () => {
    const [status, type, body] = await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect([status, type?.startsWith('text/plain'), body]).toEqual([200, true, 'noted']);
    expect((await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'far too long a note' }))[0]).toBe(400);
    expect(await call('/blobs', { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from([0, 255, 128]) })).toEqual([200, 'application/octet-stream', 'blob']);
    expect((await call('/forms', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=moss' }))[0]).toBe(204);
  });

  it.runIf(command === 'mock')('answers a problem+json 404 from its example when asked for it (Prefer: code=404)', async () => {
    expect(await call('/reports/7', { headers: { prefer: 'code=404' } })).toEqual([404, 'application/problem+json', '{"type":"about:blank","title":"Not Found","status":404}']);
  });

  it('answers a */* response with its JSON example as JSON', async () => {
    expect(await call('/anything', { headers: { accept: '*/*' } })).toEqual([200, 'application/json', '{"ok":true}']);
  });
});
