/** The exclusion: the resource key of a request, and a queue that never hands out two cases with the same key at once. */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/openapi/index.js';
import { capacityCases } from '../../../fuzz/generation/capacity.js';
import { ExclusiveQueue, writtenResource } from '../../../fuzz/run/exclusion.js';
import { listPlan } from '../../../fuzz/run/plan.js';

const contract = loadContract();
const cases = capacityCases(contract, { token: 'test-token', target: 10 });

describe('writtenResource', () => {
  it('is the exact integers of a valid body, whatever the query string', () => {
    const plant = cases.fill(3);
    const key = writtenResource(contract, plant);
    expect(key).toBeDefined();
    expect(writtenResource(contract, { ...plant, path: `${plant.path}?x=1` })).toBe(key);
    // Its replacement is about the same resource; another plant is not.
    expect(writtenResource(contract, cases.replacement(3))).toBe(key);
    expect(writtenResource(contract, cases.fill(4))).not.toBe(key);
  });

  it('is none for a request that stores nothing on a correct target', () => {
    const plant = cases.fill(3);
    expect(writtenResource(contract, { ...plant, content: 'invalid' })).toBeUndefined();
    expect(writtenResource(contract, { ...plant, credentials: 'missing' })).toBeUndefined();
    expect(writtenResource(contract, { ...plant, body: Buffer.from('not json') })).toBeUndefined();
  });
});

describe('ExclusiveQueue', () => {
  it('holds back a case while another with its key is in flight, and hands out the ones behind it', () => {
    const plan = listPlan('coverage', [cases.fill(0), cases.replacement(0), cases.fill(1)]);
    const queue = new ExclusiveQueue(plan, (request) => writtenResource(contract, request), 8);
    const first = queue.take();
    const second = queue.take();
    expect([first?.index, second?.index]).toEqual([0, 2]);
    expect(queue.take()).toBeUndefined();
    expect(queue.done()).toBe(false);
    if (first) queue.release(first);
    expect(queue.take()?.index).toBe(1);
    expect(queue.done()).toBe(true);
  });
});
