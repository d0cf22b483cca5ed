/**
 * Asserting on a journal (src/http/find-requests.ts): what each field of a matcher matches, JSON
 * bodies matched exactly (int64 ids beyond 2^53 included), and a failed assertion that says what
 * the journal holds instead.
 */
import { describe, expect, it } from 'vitest';
import { assertRequests, createJournal, findRequests, RequestAssertionError, type AppRequest, type Journal } from '../../src/http/index.js';
import { createApp } from '../../src/reference/index.js';
import { TEST_TOKEN } from '../support/servers.js';

const HEADERS = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };
const post = (body: string, headers: Record<string, string> = HEADERS): AppRequest => ({ method: 'POST', url: '/plants?dry=1', headers, body });

/** A journal of five requests: Fern twice (once refused), an int64 id, a malformed body, a refused head. */
function sent(): Journal {
  const journal = createJournal();
  const app = createApp({ tokens: [TEST_TOKEN], journal });
  app.request(post('{"name":"Fern","id":1,"tag":"shade","extra":{"a":[1,2]}}'));
  app.request(post('{"name":"Fern"}'));
  app.request(post('{"name":"Monstera","id":9223372036854775807}'));
  app.request(post('{"name":'));
  app.request(post('{"name":"Fern","id":3}', { 'content-type': 'application/json' }));
  return journal;
}

describe('findRequests', () => {
  const journal = sent();
  const ids = (matcher: Parameters<typeof findRequests>[1]): number[] => findRequests(journal.list(), matcher).map((entry) => entry.id);

  it('matches method, path (exactly or by RegExp), status, outcome and rule', () => {
    expect(ids({ method: 'POST', path: '/plants' })).toEqual([1, 2, 3, 4, 5]);
    expect(ids({ method: 'GET' })).toEqual([]);
    expect(ids({ path: '/plants?dry=1' })).toEqual([]);
    expect(ids({ path: /^\/plan/ })).toEqual([1, 2, 3, 4, 5]);
    expect(ids({ status: 200 })).toEqual([1, 3]);
    expect(ids({ outcome: 'refused' })).toEqual([2, 4, 5]);
    expect(ids({ rule: 'schema' })).toEqual([2]);
    expect(ids({ rule: 'credentials', status: 401 })).toEqual([5]);
  });

  it('matches a JSON body by the members given, at any depth; arrays element by element', () => {
    expect(ids({ body: { name: 'Fern' } })).toEqual([1, 2]);
    expect(ids({ body: { name: 'Fern', tag: 'shade' } })).toEqual([1]);
    expect(ids({ body: { extra: { a: [1, 2] } } })).toEqual([1]);
    expect(ids({ body: { extra: { a: [1] } } })).toEqual([]);
    expect(ids({ body: { tag: null } })).toEqual([]);
    expect(ids({ body: { name: 'fern' } })).toEqual([]);
  });

  it('compares numbers exactly: a bigint for an int64 id, and 1 is not 1.5', () => {
    expect(ids({ body: { id: 9223372036854775807n } })).toEqual([3]);
    expect(ids({ body: { id: 9223372036854775806n } })).toEqual([]);
    expect(ids({ body: { id: 1 } })).toEqual([1]);
    expect(ids({ body: { id: 1.5 } })).toEqual([]);
    expect(ids({ body: { id: '1' } })).toEqual([]);
  });

  it('a string or RegExp body matches the text; a body not read or not JSON matches no pattern', () => {
    expect(ids({ body: '{"name":' })).toEqual([4]);
    expect(ids({ body: /Monstera/ })).toEqual([3]);
    expect(ids({ body: {} })).toEqual([1, 2, 3]);
  });

  it('matches headers as journaled, credentials masked', () => {
    expect(ids({ headers: { authorization: 'Bearer ***' } })).toEqual([1, 2, 3, 4]);
    expect(ids({ headers: { Authorization: /^Bearer/ } })).toEqual([1, 2, 3, 4]);
    expect(ids({ headers: { authorization: `Bearer ${TEST_TOKEN}` } })).toEqual([]);
  });

  it('takes a server that keeps a journal as well as its entries', () => {
    expect(findRequests({ requests: () => journal.list() }, { body: { name: 'Monstera' } }).map((entry) => entry.id)).toEqual([3]);
  });
});

describe('assertRequests', () => {
  const journal = sent();

  it('gives the matching entries when exactly `times` match (once by default)', () => {
    expect(assertRequests(journal.list(), { body: { name: 'Monstera' } }).map((entry) => entry.id)).toEqual([3]);
    expect(assertRequests(journal.list(), { body: { name: 'Fern' } }, 2)).toHaveLength(2);
    expect(assertRequests(journal.list(), { method: 'DELETE' }, 0)).toEqual([]);
  });

  it('otherwise throws, listing what the journal holds', () => {
    let thrown: unknown;
    try {
      assertRequests(journal.list(), { method: 'POST', path: '/plants', body: { name: 'Fern', id: 3n } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RequestAssertionError);
    const { message, found } = thrown as RequestAssertionError;
    expect(found).toEqual([]);
    expect(message.split('\n')).toEqual([
      'expected 1 request matching {"method":"POST","path":"/plants","body":{"name":"Fern","id":"3n"}}, found 0; the journal holds 5:',
      '  #1 POST /plants?dry=1 -> 200, accepted; body {"name":"Fern","id":1,"tag":"shade","extra":{"a":[1,2]}}',
      '  #2 POST /plants?dry=1 -> 400, refused by schema (invalid_body); body {"name":"Fern"}',
      '  #3 POST /plants?dry=1 -> 200, accepted; body {"name":"Monstera","id":9223372036854775807}',
      '  #4 POST /plants?dry=1 -> 400, refused by json (malformed_json); body {"name":',
      '  #5 POST /plants?dry=1 -> 401, refused by credentials (unauthorized); body not read',
    ]);
    expect(() => assertRequests([], { method: 'POST' })).toThrow('found 0; the journal is empty');
    expect(() => assertRequests(journal.list(), { body: { name: 'Fern' } })).toThrow('expected 1 request matching {"body":{"name":"Fern"}}, found 2');
  });
});
