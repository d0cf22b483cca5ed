/**
 * Differential test: the reference implementation and the mock answer the same requests with
 * the same statuses (bodies may differ). Three sources of requests, each swappable for another:
 * the conformance engine's generators (seeded), the mock's battery of edge and hostile requests,
 * and the reference implementation's own battery. See differential.ts for the mock's freedoms.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestArbitrary, type RequestCase } from '../../fuzz/index.js';
import { loadContract } from '../../src/openapi/index.js';
import type { RunningServer } from '../../src/reference/index.js';
import { ALL_CASES as REFERENCE_BATTERY } from '../reference/battery.js';
import { TEST_TOKEN, startFaulty, startReference, type RunningFaulty } from '../support/servers.js';
import { battery } from './battery.js';
import { compare, type RequestSource, type SourcedRequest } from './differential.js';
import { startMock, type RunningMock } from './support.js';

/** PLANT_STORE_DIFFERENTIAL_SEED=n replays a run (the seed is in the test's name). */
const SEED = Number(process.env.PLANT_STORE_DIFFERENTIAL_SEED ?? 4010);
const GENERATED = 1000;

/** Generated requests of every kind, a request's setup (the same id posted before) sent first. */
const generated: RequestSource = () => {
  const cases = fc.sample(requestArbitrary(loadContract(), { token: TEST_TOKEN }), { seed: SEED, numRuns: GENERATED });
  const sourced = (c: RequestCase): SourcedRequest => ({ description: `${c.kind}: ${c.variant}`, request: { method: c.method, path: c.path, headers: c.headers, body: c.body } });
  return cases.flatMap((c) => [...c.setup.map(sourced), sourced(c)]);
};

const mockBattery: RequestSource = () => battery(TEST_TOKEN).map(({ name, request }) => ({ description: name, request }));

/** The reference's battery, but for the requests no HTTP/1.1 client can send as written. */
const referenceBattery: RequestSource = () =>
  REFERENCE_BATTERY.filter((c) => c.handlerOnly === undefined).map((c) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.headers)) if (value !== undefined) headers[name] = value;
    const body = typeof c.body === 'string' ? Buffer.from(c.body, 'utf8') : c.body;
    return { description: c.name, request: { method: c.method, path: c.url, headers, ...(body === undefined ? {} : { body }) } };
  });

describe('the reference implementation and the mock agree on every status', () => {
  let reference: RunningServer;
  let mock: RunningMock;
  beforeAll(async () => {
    [reference, mock] = await Promise.all([startReference(), startMock()]);
  });
  afterAll(() => Promise.all([reference.close(), mock.close()]));

  it.each([
    [`${GENERATED} requests from the conformance engine's generators, seed ${SEED}`, generated],
    ["the mock's battery of edge and hostile requests", mockBattery],
    ["the reference implementation's battery", referenceBattery],
  ])('on %s', { timeout: 60_000 }, async (_, source) => {
    const { compared, disagreements } = await compare(source, { referenceUrl: reference.url, mockUrl: mock.url, token: TEST_TOKEN });
    expect(compared).toBeGreaterThan(50);
    expect(disagreements).toEqual([]);
  });

  it('and lists every disagreement with its request (a reference with one defect and without the mock\'s freedoms)', async () => {
    // Refuses the scheme written in lower case, as raw Prism does.
    const faulty: RunningFaulty = await startFaulty((request, correct, app) =>
      String(request.headers.authorization ?? '').startsWith('bearer ') ? app.request({ ...request, headers: { ...request.headers, authorization: 'Basic x' } }) : correct(),
    );
    try {
      const { disagreements } = await compare(mockBattery, { referenceUrl: reference.url, mockUrl: faulty.url, token: TEST_TOKEN });
      expect(disagreements).toEqual([
        {
          description: 'the scheme written bearer (case-insensitive)',
          request: `POST /plants [authorization: bearer ${TEST_TOKEN}; content-type: application/json] "{\\"name\\":\\"a\\",\\"id\\":1}"`,
          expected: 200,
          mock: 401,
        },
        { description: 'a well-formed token the server does not know', request: expect.stringContaining(`Bearer ${TEST_TOKEN}-not-known`) as string, expected: 200, mock: 401, freedom: 'any-token' },
        { description: 'a CORS preflight', request: expect.stringMatching(/^OPTIONS \/plants \[origin: /) as string, expected: 204, mock: 405, freedom: 'cors-preflight' },
      ]);
    } finally {
      await faulty.close();
    }
  });
});
