/** The canary: read alone (once nothing is in flight), CANARY_SENDS sends a reading, the fastest kept; due at intervals. */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Canary, CANARY_SENDS, InFlight } from '../../../fuzz/run/canary.js';
import { Tally } from '../../../fuzz/run/tally.js';
import { answer, contract, judged, plants } from './support.js';

function canaryOf(tally: Tally, inFlight: InFlight, intervalMs: number, log: string[]): Canary {
  let send = 0;
  return new Canary({
    item: { index: -1, request: plants.canary, fresh: false },
    intervalMs,
    inFlight,
    tally,
    started: performance.now(),
    send: async (item) => {
      log.push('send');
      await sleep(1);
      // The third send is the fastest.
      return judged(item.request, answer(201, {}, ++send === 3 ? 0.5 : 2 + send));
    },
    record: (place, exchanges, probe) => {
      tally.record(place, exchanges, probe);
    },
    orderOf: () => 0,
  });
}

describe('Canary', () => {
  it('waits until nothing is in flight, then sends CANARY_SENDS times; the reading is the fastest', async () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const inFlight = new InFlight();
    const log: string[] = [];
    const canary = canaryOf(tally, inFlight, 1000, log);
    inFlight.enter();
    const reading = canary.read('coverage');
    await sleep(10);
    expect(log).toEqual([]);
    log.push('left');
    inFlight.leave();
    await reading;
    expect(log).toEqual(['left', ...Array<string>(CANARY_SENDS).fill('send')]);
    expect(tally.timeline.record(1000).canary).toMatchObject([{ phase: 'coverage', durationMs: 0.5, samples: CANARY_SENDS, afterExchanges: 0 }]);
    expect(tally.requests).toBe(CANARY_SENDS);
  });

  it('is due once its interval has passed, and every worker shares the reading under way', async () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    // An interval that has passed since the clock's start (no reading yet), and not since a reading just now.
    const canary = canaryOf(tally, new InFlight(), performance.now() - 1, []);
    const first = canary.due('random');
    expect(first).toBeDefined();
    expect(canary.due('random')).toBe(first);
    await first;
    expect(canary.due('random')).toBeUndefined();
  });
});
