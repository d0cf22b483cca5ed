/**
 * The battery itself: large enough, every name and every request once, each way of sending
 * explained where a case skips one, and the mock's answer stated exactly where a freedom needs it.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../mock/index.js';
import { createApp } from '../../src/reference/index.js';
import { expectAnswer, type Answer } from '../support/expect-answer.js';
import { TEST_TOKEN } from '../support/servers.js';
import { ALL_CASES, BATTERY, toAppRequest, toWireRequest, type BatteryCase } from './battery.js';
import { runnable } from './run.js';
import { expectationFor, freedomOf, stated, type Target } from './targets.js';

/** The request as its bytes would go out, for telling two cases apart. */
function requestKey(c: BatteryCase): string {
  const { method, path, headers, body, chunked, raw } = toWireRequest(c);
  const sortedHeaders = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([method, path, sortedHeaders, body && Buffer.from(body).toString('base64'), chunked, raw && Buffer.from(raw).toString('base64')]);
}

describe('the battery', () => {
  it('is not trivially small, and no group is empty', () => {
    expect(ALL_CASES.length).toBeGreaterThan(200);
    for (const [group, cases] of BATTERY) expect(cases.length, group).toBeGreaterThan(0);
  });

  it('names every case once and sends every request once', () => {
    expect(new Set(ALL_CASES.map((c) => c.name)).size).toBe(ALL_CASES.length);
    const seen = new Map<string, string>();
    for (const c of ALL_CASES) {
      const key = requestKey(c);
      expect(seen.get(key), `${c.name} sends the request of another case`).toBeUndefined();
      seen.set(key, c.name);
    }
  });

  it('says why a case runs only one way, and runs nearly every case both ways', () => {
    for (const c of ALL_CASES) {
      expect(c.onlyWithoutSocket !== undefined && c.onlyOverSocket !== undefined, c.name).toBe(false);
      for (const why of [c.onlyWithoutSocket, c.onlyOverSocket]) if (why !== undefined) expect(why.length, c.name).toBeGreaterThan(10);
      if (c.request.raw) expect(c.onlyOverSocket, `${c.name}: raw bytes run only over a socket`).toBeDefined();
    }
    expect(runnable(ALL_CASES, 'socket').length).toBeGreaterThan(ALL_CASES.length - 5);
    expect(runnable(ALL_CASES, 'no-socket').length).toBeGreaterThan(ALL_CASES.length - 5);
  });

  it("states the mock's answer exactly where a freedom needs it", () => {
    for (const c of ALL_CASES) {
      expect(c.mock !== undefined, `${c.name}: a mock answer is stated iff the any-token or prefer freedom applies`).toBe(stated(freedomOf(c.request, TEST_TOKEN)));
      expect(() => expectationFor(c, 'mock', TEST_TOKEN), c.name).not.toThrow();
    }
  });

  it("exercises every freedom of the mock", () => {
    const freedoms = new Set(ALL_CASES.map((c) => freedomOf(c.request, TEST_TOKEN)));
    expect([...freedoms].sort()).toEqual(['any-token', 'cors-preflight', 'prefer', undefined]);
  });
});

describe("the mock's freedoms, told from the request", () => {
  const post = (authorization: string) => ({ method: 'POST', path: '/plants', headers: { authorization } });

  it.each([
    [`Bearer ${TEST_TOKEN}`, undefined],
    [`bEaReR   ${TEST_TOKEN}`, undefined],
    ['Bearer another-token', 'any-token'],
    ['Bearer abc==', 'any-token'],
    ['bearer a.b_c~d+e/f', 'any-token'],
    ['Bearer a=b', undefined],
    ['Bearer\tother', undefined],
    ['Basic other', undefined],
    ['Bearer', undefined],
    ['', undefined],
  ])('Authorization %j: %s', (authorization, freedom) => {
    expect(freedomOf(post(authorization), TEST_TOKEN)).toBe(freedom);
  });

  it('a preflight needs OPTIONS, Origin and Access-Control-Request-Method', () => {
    const headers = { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' };
    expect(freedomOf({ method: 'OPTIONS', path: '/plants', headers }, TEST_TOKEN)).toBe('cors-preflight');
    expect(freedomOf({ method: 'OPTIONS', path: '/plants', headers: { origin: headers.origin } }, TEST_TOKEN)).toBeUndefined();
    expect(freedomOf({ method: 'POST', path: '/plants', headers }, TEST_TOKEN)).toBeUndefined();
  });

  it('Prefer, or a query parameter Prism reads as one', () => {
    expect(freedomOf({ method: 'POST', path: '/plants', headers: { prefer: 'code=400' } }, TEST_TOKEN)).toBe('prefer');
    expect(freedomOf({ method: 'POST', path: '/plants?__code=400', headers: {} }, TEST_TOKEN)).toBe('prefer');
    expect(freedomOf({ method: 'POST', path: '/plants?code=400&__proto__=1', headers: {} }, TEST_TOKEN)).toBeUndefined();
  });
});

describe('the targets differ exactly where a freedom of the mock applies', () => {
  const failing = async (answer: (c: BatteryCase) => Answer | Promise<Answer>, target: Target): Promise<string[]> => {
    const failed: string[] = [];
    for (const c of runnable(ALL_CASES, 'no-socket')) {
      try {
        expectAnswer(await answer(c), expectationFor(c, target, TEST_TOKEN), c.request);
      } catch {
        failed.push(c.name);
      }
    }
    return failed;
  };
  const different = runnable(ALL_CASES, 'no-socket')
    .filter((c) => !isDeepStrictEqual(expectationFor(c, 'reference', TEST_TOKEN), expectationFor(c, 'mock', TEST_TOKEN)))
    .map((c) => c.name);

  it('the reference fails the mock\'s expectations on those cases, and only on them', async () => {
    expect(await failing((c) => createApp({ tokens: [TEST_TOKEN] }).request(toAppRequest(c)), 'mock')).toEqual(different);
  });

  it('the mock fails the reference\'s expectations on those cases, and only on them', async () => {
    const mock = await createMock();
    expect(await failing((c) => mock.request(toAppRequest(c)), 'reference')).toEqual(different);
  });

  it('a mock answering generated data fails where Prism chooses the answer (a declared example, Prefer), and only there', async () => {
    const mock = await createMock({ dynamic: true, seed: 'battery' });
    const chosenByPrism = runnable(ALL_CASES, 'no-socket')
      .filter((c) => 'example' in expectationFor(c, 'mock', TEST_TOKEN) || freedomOf(c.request, TEST_TOKEN) === 'prefer')
      .map((c) => c.name);
    expect(await failing((c) => mock.request(toAppRequest(c)), 'mock')).toEqual(chosenByPrism);
  });
});
