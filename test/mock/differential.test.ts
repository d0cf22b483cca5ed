/**
 * Differential test: the reference implementation and the mock answer the same requests with
 * the same statuses (bodies may differ). Two sources of requests, each swappable for another:
 * the conformance engine's generators (seeded) and the battery of edge and hostile requests.
 * See differential.ts, and the mock's freedoms in test/battery/targets.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestArbitrary, type RequestCase } from '../../fuzz/index.js';
import { loadContract } from '../../src/openapi/index.js';
import type { RunningServer } from '../../src/reference/index.js';
import { ALL_CASES, toWireRequest } from '../battery/battery.js';
import { runnable } from '../battery/run.js';
import { seedFrom } from '../support/seed.js';
import { TEST_TOKEN, startFaulty, startMock, startReference, type RunningFaulty, type RunningMock } from '../support/servers.js';
import { compare, type RequestSource, type SourcedRequest } from './differential.js';

const SEED = seedFrom('PLANT_STORE_DIFFERENTIAL_SEED', 4010, 'differential: generated requests');
const GENERATED = 1000;

/** Generated requests of every kind, a request's setup (the same id posted before) sent first. */
const generated: RequestSource = () => {
  const cases = fc.sample(requestArbitrary(loadContract(), { token: TEST_TOKEN }), { seed: SEED, numRuns: GENERATED });
  const sourced = (c: RequestCase): SourcedRequest => ({ description: `${c.kind}: ${c.variant}`, request: { method: c.method, path: c.path, headers: c.headers, body: c.body } });
  return cases.flatMap((c) => [...c.setup.map(sourced), sourced(c)]);
};

/** The battery, but for the requests no HTTP/1.1 client can send as written. */
const battery: RequestSource = () => runnable(ALL_CASES, 'socket').map((c) => ({ description: c.name, request: toWireRequest(c) }));

describe('the reference implementation and the mock agree on every status', () => {
  let reference: RunningServer;
  let mock: RunningMock;
  beforeAll(async () => {
    [reference, mock] = await Promise.all([startReference(), startMock()]);
  });
  afterAll(() => Promise.all([reference.close(), mock.close()]));

  it.each([
    [`${GENERATED} requests from the conformance engine's generators, seed ${SEED}`, generated, []],
    // The mock honours Prefer; what it then answers is the battery's to state (test/mock/battery.test.ts).
    ['the battery of edge and hostile requests', battery, ['Prefer is ignored (the mock honours it)']],
  ])('on %s', { timeout: 60_000 }, async (_, source, prefer) => {
    const { compared, disagreements, uncompared } = await compare(source, { referenceUrl: reference.url, mockUrl: mock.url, token: TEST_TOKEN });
    expect(compared).toBeGreaterThan(50);
    expect(disagreements).toEqual([]);
    expect(uncompared).toEqual(prefer);
  });

  it('and lists every disagreement with its request (a reference with one defect and without the mock\'s freedoms)', async () => {
    // Refuses the scheme written in lower case, as raw Prism does.
    const faulty: RunningFaulty = await startFaulty((request, correct, app) =>
      String(request.headers.authorization ?? '').startsWith('bearer ') ? app.request({ ...request, headers: { ...request.headers, authorization: 'Basic x' } }) : correct(),
    );
    try {
      const { disagreements } = await compare(battery, { referenceUrl: reference.url, mockUrl: faulty.url, token: TEST_TOKEN });
      // A token the reference does not know is the accepted one to the mock: the reference's answer to that.
      const anyToken = (description: string, authorization: string, expected: number) => ({ description, request: expect.stringContaining(`[authorization: ${authorization};`) as string, expected, mock: 401, freedom: 'any-token' });
      expect(disagreements).toEqual([
        anyToken('a wrong token -> 401', 'Bearer wrong-token', 200),
        anyToken('a prefix of the token -> 401', `Bearer ${TEST_TOKEN.slice(0, -1)}`, 200),
        anyToken('the token and more -> 401', `Bearer ${TEST_TOKEN}x`, 200),
        anyToken('the token in another case -> 401', `Bearer ${TEST_TOKEN.toUpperCase()}`, 200),
        anyToken('credentials are checked before the body', 'Bearer wrong', 400),
        anyToken('credentials are checked before the size', 'Bearer wrong', 400),
        {
          description: 'the scheme written bearer is accepted (RFC 9110 section 11.1)',
          request: `POST /plants [authorization: bearer ${TEST_TOKEN}; content-type: application/json] "{\\"name\\":\\"Monstera\\",\\"id\\":5}"`,
          expected: 200,
          mock: 401,
        },
        { description: 'a CORS preflight is an OPTIONS request like any other -> 405', request: expect.stringMatching(/^OPTIONS \/plants \[origin: /) as string, expected: 204, mock: 405, freedom: 'cors-preflight' },
      ]);
    } finally {
      await faulty.close();
    }
  });
});
