/** The exchanges in flight: each told of the others, up to a bound, and none after it left. */
import { describe, expect, it } from 'vitest';
import { ResponseReader } from '../../../fuzz/wire/http-wire.js';
import { InFlightExchanges, type InFlightExchange } from '../../../fuzz/wire/exchange.js';

function exchange(connection: number): InFlightExchange {
  const request = { method: 'POST', path: `/p${connection}`, headers: {}, body: new Uint8Array() };
  return { request, connection, reader: new ResponseReader({ method: 'POST', maxBodyBytes: 10 }), started: 0, others: [], timer: setTimeout(() => undefined, 0), awaitsClose: false, resolve: () => undefined, extra: [], settled: false, holding: false, early: [] };
}

describe('InFlightExchanges', () => {
  it('tells each exchange of those in flight with it', () => {
    const inFlight = new InFlightExchanges();
    const [a, b, c] = [exchange(1), exchange(2), exchange(3)];
    inFlight.join(a);
    inFlight.join(b);
    inFlight.leave(a);
    inFlight.join(c);
    expect(a.others.map((o) => o.connection)).toEqual([2]);
    expect(b.others.map((o) => o.connection)).toEqual([1, 3]);
    expect(c.others).toEqual([{ request: b.request, relation: 'concurrent', connection: 2 }]);
  });

  it('keeps at most 256 neighbours per exchange', () => {
    const inFlight = new InFlightExchanges();
    const first = exchange(0);
    inFlight.join(first);
    for (let i = 1; i <= 300; i++) inFlight.join(exchange(i));
    expect(first.others).toHaveLength(256);
  });
});
