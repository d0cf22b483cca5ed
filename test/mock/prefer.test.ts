/**
 * The mock's own preferences (mock/prefer.ts): `Prefer: delay=…` and `fault=…` read as RFC 7240
 * writes them, combined with Prism's in one header, ignored when the mock cannot honour them (RFC 7240,
 * section 2), applied to every answer (refusals included) and never without being asked. Without a socket a
 * fault is data on the answer; test/mock/faults.test.ts commits them over real sockets.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJournal, type AppRequest, type AppResponse, type Journal } from '../../src/http/index.js';
import { createMock, type Mock } from '../../mock/index.js';
import { delayPicker, deliveryPreferences, MAX_DELAY_MS, preferences } from '../../mock/prefer.js';
import { declaredExamples } from '../support/expect-answer.js';

const HEADERS = { authorization: 'Bearer any-token', 'content-type': 'application/json' };
const post = (prefer?: string, headers: Record<string, string> = HEADERS): AppRequest => ({ method: 'POST', url: '/plants', headers: prefer === undefined ? headers : { ...headers, prefer }, body: '{"name":"Fern","id":1}' });

describe('reading Prefer (RFC 7240, section 2)', () => {
  it.each([
    ['delay=300', { delay: '300' }],
    ['DELAY = 300 ,fault=reset', { delay: '300', fault: 'reset' }],
    ['delay="100-800"; p=1, code=401', { delay: '100-800', code: '401' }],
    ['example="a, b"; x="y;z", fault=garbage', { example: 'a, b', fault: 'garbage' }],
    ['delay=1, delay=2', { delay: '1' }],
    ['respond-async, wait=10', { 'respond-async': '', wait: '10' }],
    ['', {}],
  ])('%j', (header, expected) => {
    expect(Object.fromEntries(preferences(header))).toEqual(expected);
  });

  it.each([
    [undefined, {}],
    ['code=401, example=withTag', {}],
    ['delay=300', { delay: { min: 300, max: 300 } }],
    ['delay=0', { delay: { min: 0, max: 0 } }],
    ['delay=100-800, fault=truncated', { delay: { min: 100, max: 800 }, fault: 'truncated' }],
    [`delay=${String(MAX_DELAY_MS)}`, { delay: { min: MAX_DELAY_MS, max: MAX_DELAY_MS } }],
    ['fault=timeout, seed=abc', { fault: 'timeout' }],
  ])('delivery preferences of %j', (header, expected) => {
    expect(deliveryPreferences(header)).toEqual(expected);
  });

  it.each(['delay=', 'delay', 'delay=-5', 'delay=1.5', 'delay=abc', 'delay=800-100', 'delay=1e3', `delay=${String(MAX_DELAY_MS + 1)}`, `delay=0-${String(MAX_DELAY_MS + 1)}`, 'delay=1-2-3', 'delay=0x10', 'fault', 'fault=', 'fault=RESET', 'fault=explode', ';;,=,;']) ('%j is ignored (RFC 7240, section 2), and what else is asked still applies', (header) => {
    expect(deliveryPreferences(header)).toEqual({});
    const name = header.split('=', 1)[0] ?? '';
    const other = name === 'fault' ? 'delay=5' : 'fault=reset';
    expect(deliveryPreferences(`${header}, ${other}`)).toEqual(name === 'fault' ? { delay: { min: 5, max: 5 } } : { fault: 'reset' });
  });
});

describe('picking a delay from a range', () => {
  it('stays in the range, reaches both ends, and is the same sequence for the same seed', () => {
    const draw = (seed: string | undefined): number[] => {
      const pick = delayPicker(seed);
      return Array.from({ length: 400 }, () => pick(100, 103));
    };
    const seeded = draw('fern');
    expect(new Set(seeded)).toEqual(new Set([100, 101, 102, 103]));
    expect(draw('fern')).toEqual(seeded);
    expect(draw('another')).not.toEqual(seeded);
    for (const value of draw(undefined)) expect(value >= 100 && value <= 103 && Number.isInteger(value)).toBe(true);
    expect(delayPicker('fern')(250, 250)).toBe(250);
  });
});

describe('delay and faults on the mock, without a socket', () => {
  let mock: Mock;
  let journal: Journal;
  beforeAll(async () => {
    journal = createJournal();
    mock = await createMock({ journal, seed: 'run' });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** How long an answer took in fake time, in 10 ms steps. */
  async function heldFor(request: AppRequest, limitMs = 2_000): Promise<{ ms: number; response: AppResponse }> {
    vi.useFakeTimers();
    let response: AppResponse | undefined;
    void mock.request(request).then((answered) => (response = answered));
    let ms = 0;
    while (response === undefined && ms <= limitMs) {
      await vi.advanceTimersByTimeAsync(10);
      ms += 10;
    }
    vi.useRealTimers();
    if (response === undefined) throw new Error(`no answer within ${String(limitMs)} ms`);
    return { ms, response };
  }

  it('no Prefer: the normal answer, at once and whole', async () => {
    const { ms, response } = await heldFor(post());
    expect(ms).toBe(10);
    expect(response.fault).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual(declaredExamples()[0]?.[2]);
  });

  it('delay=300 holds the answer 300 ms; with Prism’s code=401 in the same header, the 401 example comes late', async () => {
    const plain = await heldFor(post('delay=300'));
    expect([plain.ms, plain.response.status]).toEqual([300, 200]);
    const both = await heldFor(post('code=401, delay=300'));
    expect([both.ms, both.response.status]).toEqual([300, 401]);
  });

  it('a range picks within it, the same sequence for the same --seed', async () => {
    const again = await createMock({ seed: 'run' });
    const pickedBy = async (target: Mock): Promise<number[]> => {
      const picked: number[] = [];
      for (let i = 0; i < 5; i++) {
        vi.useFakeTimers();
        const state = { done: false };
        void target.request(post('delay=100-800')).then(() => (state.done = true));
        let ms = 0;
        while (!state.done) {
          await vi.advanceTimersByTimeAsync(1);
          ms += 1;
        }
        vi.useRealTimers();
        picked.push(ms);
      }
      return picked;
    };
    const fresh = await createMock({ seed: 'run' });
    const [first, second] = [await pickedBy(fresh), await pickedBy(again)];
    expect(first).toEqual(second);
    for (const ms of first) expect(ms >= 100 && ms <= 800).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('applies to refusals too: a 401 and a 404 come late and broken as asked', async () => {
    const unauthorized = await heldFor(post('delay=200, fault=reset', { 'content-type': 'application/json' }));
    expect([unauthorized.ms, unauthorized.response.status, unauthorized.response.fault]).toEqual([200, 401, 'reset']);
    const lost = await heldFor({ ...post('delay=100'), url: '/nowhere' });
    expect([lost.ms, lost.response.status]).toEqual([100, 404]);
  });

  it.each(['reset', 'timeout', 'garbage', 'truncated'])('fault=%s is data on the answer (the socket layer commits it)', async (fault) => {
    const response = await mock.request(post(`fault=${fault}`));
    expect([response.status, response.fault]).toEqual([200, fault]);
  });

  it('overrides --delay per request, and delay=0 takes it away', async () => {
    const slow = await createMock({ delayMs: 500 });
    const swap = mock;
    mock = slow;
    try {
      expect((await heldFor(post())).ms).toBe(500);
      expect((await heldFor(post('delay=100'))).ms).toBe(100);
      expect((await heldFor(post('delay=0'))).ms).toBe(10);
    } finally {
      mock = swap;
    }
  });

  it('a delay or fault it cannot honour is ignored: the answer it would give anyway, the rest of the header applied', async () => {
    const malformed = await heldFor(post('delay=soon, fault=explode'));
    expect([malformed.ms, malformed.response.status, malformed.response.fault]).toEqual([10, 200, undefined]);
    expect(JSON.parse(malformed.response.body)).toEqual(declaredExamples()[0]?.[2]);
    const tooLong = await heldFor(post(`delay=${String(MAX_DELAY_MS + 1)}, fault=truncated`));
    expect([tooLong.ms, tooLong.response.status, tooLong.response.fault]).toEqual([10, 200, 'truncated']);
    // Prism's preferences in the same header still choose the answer.
    const withCode = await heldFor(post('delay=soon, code=401'));
    expect([withCode.ms, withCode.response.status]).toEqual([10, 401]);
    // --delay still applies when the request's own delay is ignored.
    const slow = await createMock({ delayMs: 200 });
    const swap = mock;
    mock = slow;
    try {
      expect((await heldFor(post('delay=800-100'))).ms).toBe(200);
    } finally {
      mock = swap;
    }
  });

  it('never touches a CORS preflight, and the journal records delays and faults', async () => {
    journal.clear();
    const preflight = await mock.request({ method: 'OPTIONS', url: '/plants', headers: { origin: 'http://a.test', 'access-control-request-method': 'POST', prefer: 'fault=reset' } });
    expect([preflight.status, preflight.fault]).toEqual([204, undefined]);
    await heldFor(post('delay=50, fault=truncated'));
    expect(journal.list().map((entry) => [entry.verdict.outcome, entry.answer.delayMs, entry.answer.fault])).toEqual([
      ['preflight', undefined, undefined],
      ['accepted', 50, 'truncated'],
    ]);
  });
});
