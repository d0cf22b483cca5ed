/**
 * The battery against the mock (started from examples), without a socket (`mock.request()`) and
 * over one: every case gets the answer the battery states, read through the mock's freedoms
 * (test/battery/targets.ts) - the same Errors as the reference, a declared example for a 200.
 */
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { createMock, type Mock } from '../../mock/index.js';
import { toAppRequest } from '../battery/battery.js';
import { batteryTable, expectPrototypeUnpolluted, sendCase } from '../battery/run.js';
import { expectationFor } from '../battery/targets.js';
import { expectAnswer } from '../support/expect-answer.js';
import { startMock, TEST_TOKEN, type RunningMock } from '../support/servers.js';

afterEach(expectPrototypeUnpolluted);

describe('the battery against the mock, without a socket', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await createMock();
  });

  describe.each(batteryTable('no-socket'))('%s', (_group, cases) => {
    it.each(cases)('%s', async (_name, c) => {
      expectAnswer(await mock.request(toAppRequest(c)), expectationFor(c, 'mock', TEST_TOKEN), c.request);
    });
  });
});

describe('the battery against the mock, over a socket', () => {
  let server: RunningMock;
  beforeAll(async () => {
    server = await startMock();
  });
  afterAll(() => server.close());

  describe.each(batteryTable('socket'))('%s', (_group, cases) => {
    it.each(cases)('%s', async (_name, c) => {
      expectAnswer(await sendCase(server.url, c), expectationFor(c, 'mock', TEST_TOKEN), c.request);
    });
  });
});
