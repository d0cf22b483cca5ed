/**
 * Misbehaviour below HTTP semantics, for faults that take over the raw response (see Fault in
 * test/support/servers.ts): bytes that are not HTTP, a response body that never ends.
 */
import type { ServerResponse } from 'node:http';

/** Bytes that are not an HTTP response (a crashed proxy, a TLS or binary protocol on the port). */
export function sendGarbage(res: ServerResponse): void {
  res.socket?.end(Buffer.from([0x00, 0xff, 0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x0a, 0x47, 0x41, 0x52, 0x42, 0x41, 0x47, 0x45, 0x0d, 0x0a, 0x0d, 0x0a]));
}

/** A 200 whose JSON body never ends, written as fast as the client reads, until it hangs up. */
export function sendEndlessBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const chunk = Buffer.from('{"name":"Monstera","id":1},'.repeat(2048));
  let open = true;
  res.on('close', () => {
    open = false;
  });
  const pump = (): void => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  pump();
}
