/** How a check's finding is replayed, as the registry says (replayOf): the runner never asks a check's scope. */
import { describe, expect, it } from 'vitest';
import { replayOf } from '../../oracle/index.js';
import { runRecordOf } from '../../fuzz/run/timeline.js';
import { answer, broken, contract, kept } from './run/support.js';

const context = { contract, profile: 'reference' } as const;
const timed = (index: number, durationMs: number) => ({ phase: 'random', index, kind: 'valid', content: 'valid', credentials: 'valid', startedMs: index, durationMs, status: 201 }) as const;
const run = runRecordOf([...Array(200).keys()].map((i) => timed(i, 2)));

describe('replayOf', () => {
  it('an exchange check: shown by its finding on the exchange, once, waiting for late bytes', () => {
    const replay = replayOf('no-server-error', 'failure', run, context);
    expect(replay).toMatchObject({ times: 1, waitsForLateBytes: true, dropsUnconfirmed: false });
    expect(replay.shows(broken(1))).toBe(true);
    expect(replay.shows(kept(1))).toBe(false);
    expect(replay.explain(broken(1))).toBe(broken(1).findings.find((f) => f.check === 'no-server-error')?.message);
    expect(replayOf('no-server-error', 'warning', run, context).shows(broken(1))).toBe(false);
  });

  it('a run check confirmed by replay: shown by what it reproduces, twice in a row, dropped when no replay shows it', () => {
    const replay = replayOf('response-time', 'failure', run, context);
    expect(replay).toMatchObject({ times: 2, waitsForLateBytes: false, dropsUnconfirmed: true });
    const slow = { ...kept(1), outcome: answer(201, {}, 5000) };
    expect(replay.shows(slow)).toBe(true);
    expect(replay.shows(kept(1))).toBe(false);
    expect(replay.explain(slow)).toMatch(/5000/);
  });

  it('a run check about the run as a whole shows nothing in one exchange', () => {
    const replay = replayOf('degradation', 'failure', run, context);
    expect(replay).toMatchObject({ times: 1, dropsUnconfirmed: false });
    expect(replay.shows(kept(1))).toBe(false);
    expect(replay.explain(kept(1))).toBeUndefined();
  });
});
