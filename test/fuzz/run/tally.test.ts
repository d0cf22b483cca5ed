/** The tally: every count written in one place, each finding counted once per exchange, the earliest case kept. */
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../../../oracle/index.js';
import { findingKey, Tally, type Place } from '../../../fuzz/run/tally.js';
import { broken, contract, kept, plants } from './support.js';

const tallyOf = (maxTimeouts = 3): Tally => new Tally({ contract, profile: 'reference', maxTimeouts, timeoutMs: 50 }, plants.target);
const place = (index: number, phase: Place['phase'] = 'random', order = 2): Place => ({ phase, order, item: { index, request: plants.fill(index), fresh: false } });

describe('Tally', () => {
  it('counts exchanges, kinds and findings per check, and keeps the earliest case of each finding', () => {
    const tally = tallyOf();
    const bad = broken(1);
    expect(bad.findings.some((f) => f.check === 'no-server-error')).toBe(true);
    tally.record(place(7), [bad]);
    tally.record(place(3), [broken(2)]);
    tally.record(place(9, 'coverage', 0), [kept(4)]);
    expect(tally.requests).toBe(3);
    expect(tally.kinds.valid).toBe(3);
    expect(tally.checks['no-server-error']).toMatchObject({ requests: 3, failures: 2 });
    expect(tally.findings).toBe(bad.findings.length * 2);
    expect(tally.firsts.get(findingKey('no-server-error', 'failure'))?.item.index).toBe(3);
    // An earlier phase wins over a smaller index.
    tally.record(place(50, 'coverage', 0), [broken(3)]);
    expect(tally.firsts.get(findingKey('no-server-error', 'failure'))?.phase).toBe('coverage');
  });

  it('counts a check once per exchange however many ways it broke', () => {
    const tally = tallyOf();
    const bad = broken(1);
    tally.countFindings([...bad.findings, ...bad.findings], { ...place(1), exchanges: [bad] });
    expect(tally.checks['no-server-error'].failures).toBe(1);
    expect(tally.findings).toBe(bad.findings.length * 2);
  });

  it('keeps the canary out of the kinds', () => {
    const tally = tallyOf();
    tally.record(place(-1), [kept(0)], 'canary');
    expect(tally.requests).toBe(1);
    expect(Object.values(tally.kinds).every((n) => n === 0)).toBe(true);
  });

  it('stops the run after maxTimeouts timeouts', () => {
    const tally = tallyOf(2);
    const timeout = { ...kept(0), outcome: { kind: 'failure', failure: 'timeout', message: 'late', durationMs: 50 } as const, findings: [] };
    tally.record(place(0), [timeout]);
    expect(tally.stoppedEarly).toBeUndefined();
    tally.record(place(1), [timeout]);
    expect(tally.stoppedEarly).toBe('the target timed out on 2 requests (50 ms each); no further requests were started');
  });

  it('counts the capacity phase: stored, refused and replaced', () => {
    const tally = tallyOf();
    tally.record(place(0, 'capacity', 1), [kept(0)]);
    tally.record(place(1, 'capacity', 1), [broken(1)]);
    tally.record(place(plants.target, 'capacity', 1), [kept(0)]);
    expect(tally.capacity).toMatchObject({ stored: 1, refused: 1, replaced: 1 });
  });

  it('counts run checks apart, and drops what no replay confirmed', () => {
    const tally = tallyOf();
    tally.countLookedAt('response-time', 10);
    tally.countRunVerdict('response-time', 'failure');
    tally.countRunVerdict('response-time', 'failure');
    expect(tally.occurrences('response-time', 'failure')).toBe(2);
    expect(tally.dropUnconfirmed('response-time', 'failure')).toBe(2);
    expect(tally.checks['response-time']).toEqual({ requests: 10, failures: 0, warnings: 0 });
    expect(tally.findings).toBe(0);
    expect(Object.keys(tally.checks)).toEqual(CHECK_NAMES);
  });
});
