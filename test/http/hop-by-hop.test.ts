/** The one hop-by-hop list (RFC 9110, section 7.6.1) both forwarders use: the proxy and verify's loopback forwarder. */
import { describe, expect, it } from 'vitest';
import { endToEnd, HOP_BY_HOP, hopByHopFields } from '../../src/http/index.js';

describe('hop-by-hop fields', () => {
  it('are the fields RFC 9110, section 7.6.1 names, and no other', () => {
    expect([...HOP_BY_HOP].sort()).toEqual(['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade']);
  });

  it('take in every connection option the Connection field lines name, in any case and spacing, empty elements skipped', () => {
    const dropped = hopByHopFields(['close, X-Hop ,', 'x-other'], []);
    expect([...dropped].sort()).toEqual([...HOP_BY_HOP, 'close', 'x-hop', 'x-other'].sort());
  });

  it('take in the fields a forwarder frames itself, and nothing else', () => {
    expect(hopByHopFields([], ['content-length'])).toEqual(new Set([...HOP_BY_HOP, 'content-length']));
  });

  it('leave the end-to-end fields of raw header pairs, in order and as spelled, repeated ones kept', () => {
    const raw = ['Host', 'a', 'Connection', 'keep-alive, X-Trace', 'X-Trace', '1', 'Keep-Alive', 'timeout=5', 'Set-Cookie', 'a=1', 'TE', 'trailers', 'Set-Cookie', 'b=2', 'Content-Length', '3', 'Upgrade', 'h2c'];
    expect(endToEnd(raw)).toEqual([['Host', 'a'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Length', '3']]);
    expect(endToEnd(raw, ['content-length'])).toEqual([['Host', 'a'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]);
  });
});
