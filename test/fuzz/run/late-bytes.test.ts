/** Late bytes: the exchange judged again with them; what it adds is counted once, when its case is recorded. */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../oracle/index.js';
import { LateBytesJudge } from '../../../fuzz/run/late-bytes.js';
import { Tally, type RunExchange } from '../../../fuzz/run/tally.js';
import type { HttpOutcome } from '../../../oracle/types.js';
import { contract, kept, plants } from './support.js';

const judge = (request: RunExchange['request'], outcome: HttpOutcome): ReturnType<typeof runChecks> => runChecks(request, outcome, contract, { profile: 'reference' });

/** The answer as the wire brought it, with a second answer after it if `second`. */
function onTheWire(outcome: HttpOutcome, second: boolean): HttpOutcome {
  if (outcome.kind !== 'response') throw new TypeError('a response');
  const bytes = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
  const wire = { connection: 1, exchangesBefore: 0, framing: 'content-length', contentLength: outcome.body.length, receivedLength: outcome.body.length, contentCodings: [], transferCodings: [], others: [] } as const;
  return { ...outcome, wire: second ? { ...wire, extraBytes: { bytes: Uint8Array.from(bytes), length: bytes.length, afterMs: 1, seen: 'settling' } } : wire };
}
const withSecondAnswer = (outcome: HttpOutcome): HttpOutcome => onTheWire(outcome, true);

describe('LateBytesJudge', () => {
  it('adds what the late bytes show to the exchange, and counts it once its case is recorded', () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const late = new LateBytesJudge(judge, tally);
    const good = kept(1);
    const before: RunExchange = { ...good, outcome: onTheWire(good.outcome, false) };
    const exchanges: RunExchange[] = [before];
    late.sent(before.outcome, exchanges, 0);
    const place = { phase: 'random', order: 0, item: { index: 1, request: good.request, fresh: false } } as const;
    late.recordedAt(exchanges, place);
    tally.record(place, exchanges);
    const counted = tally.checks['one-answer-per-request'].failures + tally.checks['one-answer-per-request'].warnings;
    late.onLateBytes({ after: before.outcome, outcome: withSecondAnswer(good.outcome) });
    const added = exchanges[0]?.findings.filter((f) => f.check === 'one-answer-per-request') ?? [];
    expect(added.length).toBeGreaterThan(0);
    expect(tally.checks['one-answer-per-request'].failures + tally.checks['one-answer-per-request'].warnings).toBe(counted + 1);
    // The same bytes again add nothing new.
    late.onLateBytes({ after: before.outcome, outcome: withSecondAnswer(good.outcome) });
    expect(tally.checks['one-answer-per-request'].failures + tally.checks['one-answer-per-request'].warnings).toBe(counted + 1);
  });

  it('ignores bytes after an outcome it never saw sent', () => {
    const tally = new Tally({ contract, profile: 'reference', maxTimeouts: 3, timeoutMs: 50 }, plants.target);
    const late = new LateBytesJudge(judge, tally);
    const good = kept(1);
    late.onLateBytes({ after: good.outcome, outcome: withSecondAnswer(good.outcome) });
    expect(tally.findings).toBe(0);
  });
});
