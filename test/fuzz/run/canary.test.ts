/** The canary: read alone (once nothing is in flight), CANARY_SENDS sends a reading, the fastest kept; due at intervals. */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Canary, CANARY_SENDS, GROWTH_SENDS, InFlight, SESSIONS_PER_READING, type CanaryParts } from '../../../fuzz/run/canary.js';
import { Tally } from '../../../fuzz/run/tally.js';
import { answer, contract, judged, plants } from './support.js';

function canaryOf(tally: Tally, inFlight: InFlight, intervalMs: number, log: string[], more: Partial<CanaryParts> = {}): Canary {
  let send = 0;
  return new Canary({
    item: { index: -1, request: plants.canary, fresh: false },
    intervalMs,
    inFlight,
    tally,
    started: performance.now(),
    send: async (item) => {
      log.push(item.fresh ? 'fresh' : item.request === plants.canary ? 'send' : item.request.kind);
      await sleep(1);
      // The third send is the fastest.
      return { ...judged(item.request, answer(201, {}, ++send === 3 ? 0.5 : 2 + send)), fresh: item.fresh };
    },
    record: (place, exchanges, probe) => {
      tally.record(place, exchanges, probe);
    },
    orderOf: () => 0,
    ...more,
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
    // Then the connections probe: the canary on connections of its own.
    expect(log).toEqual(['left', ...Array<string>(CANARY_SENDS).fill('send'), ...Array<string>(GROWTH_SENDS).fill('fresh')]);
    expect(tally.timeline.record(1000).canary).toMatchObject([{ phase: 'coverage', durationMs: 0.5, samples: CANARY_SENDS, afterExchanges: 0 }]);
    expect(tally.requests).toBe(CANARY_SENDS + GROWTH_SENDS);
  });

  it('takes the growth probes in the same round: connections against those closed, the plant stored last against the plants stored, then new clients', async () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const log: string[] = [];
    const clients: number[] = [];
    tally.freshConnections = 40;
    const canary = canaryOf(tally, new InFlight(), 1000, log, {
      newest: (phase) => (phase === 'capacity' ? { item: { index: 7, request: plants.fill(7), fresh: true }, holds: 8 } : undefined),
      otherClient: (n) => {
        clients.push(n);
        return { ...plants.canary, kind: 'bad-auth' };
      },
    });
    await canary.read('capacity');
    await canary.read('random');
    const round = [...Array<string>(CANARY_SENDS).fill('send'), ...Array<string>(GROWTH_SENDS).fill('fresh')];
    const entries = Array<string>(GROWTH_SENDS).fill('valid');
    const sessions = Array<string>(SESSIONS_PER_READING).fill('bad-auth');
    // The entries probe only while the fill runs; each round's clients are new ones.
    expect(log).toEqual([...round, ...entries, ...sessions, ...round, ...sessions]);
    expect(clients).toEqual(Array.from({ length: 2 * SESSIONS_PER_READING }, (_, n) => n));
    const growth = tally.timeline.record(1000).growth ?? [];
    // Each measure's readings in order; the connections its probe opened count for the next reading.
    expect(growth.map((r) => [r.measure, r.phase, r.holds, r.samples])).toEqual([
      ['connections', 'capacity', 40, GROWTH_SENDS],
      ['connections', 'random', 40 + GROWTH_SENDS, GROWTH_SENDS],
      ['entries', 'capacity', 8, GROWTH_SENDS],
    ]);
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
