/** Judging the run as a whole: run checks counted in the tally, their findings with the exchanges to replay. */
import { describe, expect, it } from 'vitest';
import { RunTimeline } from '../../../fuzz/run/timeline.js';
import { judgeRun } from '../../../fuzz/run/run-checks.js';
import { findingKey, Tally } from '../../../fuzz/run/tally.js';
import { contract, plants } from './support.js';

const timed = (index: number, durationMs: number, fresh = false) => ({ phase: 'random', index, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: index, durationMs, status: 201, ...(fresh ? { fresh } : {}) }) as const;

describe('judgeRun', () => {
  it('counts each run check and keeps a slow answer as a candidate to replay', () => {
    const timeline = new RunTimeline();
    for (let i = 0; i < 200; i++) timeline.add(timed(i, 2));
    timeline.add(timed(200, 5000, true));
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const findings = judgeRun(timeline.record(1000), { contract, profile: 'reference' }, tally);
    const slow = findings.get(findingKey('response-time', 'failure'));
    expect(slow?.candidates).toEqual([expect.objectContaining({ phase: 'random', index: 200, fresh: true })]);
    expect(tally.checks['response-time']).toMatchObject({ requests: 201, failures: 1 });
    expect(tally.findings).toBe(1);
    // Too few canary readings to judge a trend: nothing looked at.
    expect(tally.checks.degradation.requests).toBe(0);
  });

  it('finds nothing in a steady run', () => {
    const timeline = new RunTimeline();
    for (let i = 0; i < 200; i++) timeline.add(timed(i, 2));
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    expect(judgeRun(timeline.record(1000), { contract, profile: 'reference' }, tally).size).toBe(0);
  });
});
