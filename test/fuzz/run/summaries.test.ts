/** The record of a finished run: passed only with no failure and every request sent; capacity reported when it ran. */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { qualify } from '../../../fuzz/run/options.js';
import { reportOf } from '../../../fuzz/run/summaries.js';
import { Tally } from '../../../fuzz/run/tally.js';
import { broken, contract, kept, plants, token } from './support.js';

const options = (capacity: number) => qualify({ baseUrl: 'http://127.0.0.1:1', token, seed: 9, runs: 3, capacity, contract });

describe('reportOf', () => {
  it('makes the record from the tally', () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    tally.record({ phase: 'capacity', order: 0, item: { index: 0, request: plants.fill(0), fresh: false } }, [kept(0)]);
    const report = reportOf(options(10), tally, [], tally.timeline.record(1000), { reported: [], unconfirmed: { 'response-time': 2 } }, { started: performance.now(), checkingMs: 1000, capacityTarget: 10 });
    expect(report).toMatchObject({ target: 'http://127.0.0.1:1/', seed: 9, runs: 3, requests: 1, requestsPerSecond: 1, passed: true, capacity: { target: 10, stored: 1, stores: true } });
    expect(report.responseTimes.unconfirmed).toBe(2);
    expect(reportOf(options(0), tally, [], tally.timeline.record(1000), { reported: [], unconfirmed: {} }, { started: 0, checkingMs: 0, capacityTarget: 0 }).capacity).toBeUndefined();
  });

  it('fails with a failure, or when the run stopped early; a warning of a failed check is not repeated', () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    tally.record({ phase: 'coverage', order: 0, item: { index: 0, request: plants.fill(0), fresh: false } }, [broken(0)]);
    const finding = { check: 'no-server-error', message: 'm', setup: [], occurrences: 1, reproduced: true, shrinks: 0, seed: 9 } as const;
    const reported = [{ ...finding, severity: 'failure' }, { ...finding, severity: 'warning' }] as const;
    const report = reportOf(options(0), tally, [], tally.timeline.record(1000), { reported, unconfirmed: {} }, { started: 0, checkingMs: 1, capacityTarget: 0 });
    expect(report.passed).toBe(false);
    expect(report.warnings).toEqual([]);
    tally.stoppedEarly = 'stopped';
    expect(reportOf(options(0), tally, [], tally.timeline.record(1000), { reported: [], unconfirmed: {} }, { started: 0, checkingMs: 1, capacityTarget: 0 })).toMatchObject({ passed: false, stoppedEarly: 'stopped' });
  });
});
