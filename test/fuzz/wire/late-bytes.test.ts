/** Late bytes: a goodbye 408 told apart from a second answer; the bytes kept bounded; added to an outcome's wire facts. */
import { describe, expect, it } from 'vitest';
import { extraOf, isGoodbye, withExtra } from '../../../fuzz/wire/late-bytes.js';
import type { HttpOutcome } from '../../../oracle/types.js';

describe('late bytes', () => {
  it('a lone 408 before a close is a goodbye; a 408 with more after it, or any other answer, is not', () => {
    const goodbye = 'HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n';
    expect(isGoodbye(Buffer.from(goodbye))).toBe(true);
    expect(isGoodbye(Buffer.from(goodbye + 'HTTP/1.1 200 OK\r\n\r\n'))).toBe(false);
    expect(isGoodbye(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'))).toBe(false);
    expect(isGoodbye(Buffer.from('garbage'))).toBe(false);
  });

  it('keeps the first 512 bytes and counts them all', () => {
    const extra = extraOf([Buffer.alloc(400, 1), Buffer.alloc(400, 2)], 3, 'idle');
    expect(extra).toMatchObject({ length: 800, afterMs: 3, seen: 'idle' });
    expect(extra.bytes).toHaveLength(512);
  });

  it('adds them to a response seen on the wire, and leaves anything else as it is', () => {
    const extra = extraOf([Buffer.from('x')], 0, 'settling');
    const wire = { connection: 1, exchangesBefore: 0, framing: 'content-length', receivedLength: 0, contentCodings: [], transferCodings: [], others: [] } as const;
    const response: HttpOutcome = { kind: 'response', status: 200, headers: {}, body: new Uint8Array(), durationMs: 1, wire };
    expect(withExtra(response, extra)).toMatchObject({ wire: { extraBytes: extra } });
    const failure: HttpOutcome = { kind: 'failure', failure: 'reset', message: 'm', durationMs: 1 };
    expect(withExtra(failure, extra)).toBe(failure);
  });
});
