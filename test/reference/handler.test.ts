/**
 * The battery against the reference app with no socket (`app.request()`, as Hono's tests do):
 * every decision of docs/DESIGN.md, every answer checked against the contract, and the store checked
 * after each request - bad input changes nothing, a 200 stores exactly what it answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/openapi/index.js';
import { createApp, type App } from '../../src/reference/index.js';
import { DEFAULT_HEADERS, toAppRequest } from '../battery/battery.js';
import { batteryTable, expectPrototypeUnpolluted } from '../battery/run.js';
import { expectationFor } from '../battery/targets.js';
import { expectAnswer } from '../support/expect-answer.js';
import { TEST_TOKEN } from '../support/servers.js';

/** Plants already in the store before each case, under ids the battery also posts. */
const SEED = ['{"name":"seed","id":1}', '{"name":"seed","id":5,"tag":"old"}'];
const SEED_IDS = [1n, 5n];

/** A fresh app with the seed stored; returns the seed as the store holds it. */
function seededApp(): { app: App; seeded: string[] } {
  const app = createApp({ tokens: [TEST_TOKEN] });
  const seeded = SEED.map((body) => {
    const answer = app.request({ method: 'POST', url: '/plants', headers: DEFAULT_HEADERS, body });
    expect(answer.status).toBe(200);
    return answer.body;
  });
  return { app, seeded };
}

afterEach(expectPrototypeUnpolluted);

describe.each(batteryTable('no-socket'))('%s', (_group, cases) => {
  it.each(cases)('%s', (_name, c) => {
    const { app, seeded } = seededApp();
    const answer = app.request(toAppRequest(c));
    const expected = expectationFor(c, 'reference', TEST_TOKEN);
    expectAnswer(answer, expected, c.request);
    if ('plant' in expected) {
      // The answer is the plant as stored (decision 3), under its exact id.
      const id = BigInt(expected.plant.id);
      const stored = app.store.get(id);
      expect(stored && stringifyJson(stored)).toBe(answer.body);
      expect(app.store.size).toBe(SEED.length + (SEED_IDS.includes(id) ? 0 : 1));
    } else {
      // Bad input changes nothing (docs/DESIGN.md, decision 6).
      expect(app.store.size).toBe(SEED.length);
      expect(SEED_IDS.map((id) => stringifyJson(app.store.get(id)))).toEqual(seeded);
    }
  });
});

describe('a repeated id (decision 2)', () => {
  it('replaces the plant and answers with the new one, however the id is written', () => {
    const app = createApp({ tokens: [TEST_TOKEN] });
    const post = (body: string) => app.request({ method: 'POST', url: '/plants', headers: DEFAULT_HEADERS, body });
    expectAnswer(post('{"name":"first","id":9007199254740993,"tag":"a"}'), { status: 200, plant: { name: 'first', tag: 'a', id: '9007199254740993' } });
    // Without a tag the replacement has none: the plant is replaced, not merged.
    expectAnswer(post('{"name":"second","id":9007199254740993}'), { status: 200, plant: { name: 'second', id: '9007199254740993' } });
    expectAnswer(post('{"name":"third","id":9007199254740993.0e0}'), { status: 200, plant: { name: 'third', id: '9007199254740993' } });
    // 2^53+1 and 2^53 are different ids even though they are the same double.
    expectAnswer(post('{"name":"neighbour","id":9007199254740992}'), { status: 200, plant: { name: 'neighbour', id: '9007199254740992' } });
    expect(app.store.size).toBe(2);
    expect(stringifyJson(app.store.get(9007199254740993n))).toBe('{"name":"third","id":9007199254740993}');
  });

  it('an invalid body under a stored id leaves the stored plant alone', () => {
    const app = createApp({ tokens: [TEST_TOKEN] });
    const post = (body: string, headers: Record<string, string> = DEFAULT_HEADERS) => app.request({ method: 'POST', url: '/plants', headers, body });
    expect(post('{"name":"kept","id":3}').status).toBe(200);
    expect(post('{"name":"x","id":3,"tag":null}').status).toBe(400);
    expect(post('{"name":"x","id":3}', { ...DEFAULT_HEADERS, authorization: 'Bearer nope' }).status).toBe(401);
    expect(post('{"name":"x","id":3}', { ...DEFAULT_HEADERS, 'content-type': 'text/plain' }).status).toBe(400);
    expect(stringifyJson(app.store.get(3n))).toBe('{"name":"kept","id":3}');
  });
});

describe('tokens', () => {
  it('accepts every configured token and nothing else', () => {
    const app = createApp({ tokens: ['first-token', 'second~token/+=='] });
    const post = (token: string) => app.request({ method: 'POST', url: '/plants', headers: { ...DEFAULT_HEADERS, authorization: `Bearer ${token}` }, body: '{"name":"a","id":1}' }).status;
    expect([post('first-token'), post('second~token/+=='), post(TEST_TOKEN), post('second~token/+=')]).toEqual([200, 200, 401, 401]);
  });

  it('refuses to start with no token', () => {
    expect(() => createApp({ tokens: [] })).toThrow(/at least one token/);
  });
});

describe('configured limits', () => {
  it('honours maxBodyBytes and maxDepth', () => {
    const app = createApp({ tokens: [TEST_TOKEN], maxBodyBytes: 32, maxDepth: 2 });
    const post = (body: string) => app.request({ method: 'POST', url: '/plants', headers: DEFAULT_HEADERS, body });
    expectAnswer(post('{"name":"a","id":1,"x":[]}'), { status: 200, plant: { name: 'a', id: '1' } });
    expectAnswer(post('{"name":"a","id":1,"x":[[]]}'), { status: 400, code: 'too_deep', message: 'nested deeper than 2 levels' });
    expectAnswer(post(`{"name":"${'a'.repeat(32)}","id":1}`), { status: 400, code: 'body_too_large', message: 'larger than the limit of 32 bytes' });
  });

  it('finds nesting past the limit in bodies just longer than the limit (short ones skip the scan)', () => {
    const app = createApp({ tokens: [TEST_TOKEN], maxDepth: 6 });
    const post = (body: string) => app.request({ method: 'POST', url: '/plants', headers: DEFAULT_HEADERS, body });
    expectAnswer(post('[[[[[[]]]]]]'), { status: 400, code: 'invalid_body', message: 'body: must be an object' });
    expectAnswer(post('[[[[[[[]]]]]]]'), { status: 400, code: 'too_deep', message: 'nested deeper than 6 levels' });
    expectAnswer(post('[[[[[[['), { status: 400, code: 'too_deep', message: 'nested deeper than 6 levels' });
  });
});
