/**
 * The battery of edge and hostile requests against the mock, over a real socket. The same
 * battery against the reference implementation shows the battery itself is right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, startReference } from '../support/servers.js';
import type { RunningServer } from '../../src/reference/index.js';
import { battery } from './battery.js';
import { send } from '../support/http.js';
import { shapeViolations, startMock, type RunningMock } from './support.js';

const cases = battery(TEST_TOKEN);

describe('the battery', () => {
  it('has at least 71 requests, each named once', () => {
    expect(cases.length).toBeGreaterThanOrEqual(71);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
});

describe('the mock holds the battery (with its freedoms)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock.close());

  it.each(cases)('$name', async ({ request, status, mock: freedom }) => {
    const response = await send(mock.url, request);
    expect({ status: response.status, violations: shapeViolations(request, response) }).toEqual({ status: freedom?.status ?? status, violations: [] });
  });
});

describe('the reference implementation holds the battery', () => {
  let reference: RunningServer;
  beforeAll(async () => {
    reference = await startReference();
  });
  afterAll(() => reference.close());

  it.each(cases)('$name', async ({ request, status }) => {
    const response = await send(reference.url, request);
    expect({ status: response.status, violations: shapeViolations(request, response) }).toEqual({ status, violations: [] });
  });
});
