/**
 * Differential test: the reference implementation and the mock answer the same requests with
 * the same statuses. The request source is the battery; see differential.ts for the freedoms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { TEST_TOKEN, startFaulty, startReference, type RunningFaulty } from '../support/servers.js';
import { battery } from './battery.js';
import { compare, type RequestSource } from './differential.js';
import { startMock, type RunningMock } from './support.js';

const batterySource: RequestSource = () => battery(TEST_TOKEN).map(({ name, request }) => ({ description: name, request }));

describe('the reference implementation and the mock agree on every status', () => {
  let reference: RunningServer;
  let mock: RunningMock;
  beforeAll(async () => {
    [reference, mock] = await Promise.all([startReference(), startMock()]);
  });
  afterAll(() => Promise.all([reference.close(), mock.close()]));

  it('on the battery of edge and hostile requests', async () => {
    const { compared, disagreements } = await compare(batterySource, { referenceUrl: reference.url, mockUrl: mock.url, token: TEST_TOKEN });
    expect(compared).toBe(battery(TEST_TOKEN).length);
    expect(disagreements).toEqual([]);
  });

  it('and lists every disagreement with its request (a reference with one defect and without the mock\'s freedoms)', async () => {
    // Refuses the scheme written in lower case, as raw Prism does.
    const faulty: RunningFaulty = await startFaulty((request, correct, app) =>
      String(request.headers.authorization ?? '').startsWith('bearer ') ? app.request({ ...request, headers: { ...request.headers, authorization: 'Basic x' } }) : correct(),
    );
    try {
      const { disagreements } = await compare(batterySource, { referenceUrl: reference.url, mockUrl: faulty.url, token: TEST_TOKEN });
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
