/** Reaching the target: a listening port is reached, a closed one is a TargetUnreachableError with the reason. */
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { reachTarget, TargetUnreachableError } from '../../../fuzz/run/reachable.js';

describe('reachTarget', () => {
  it('resolves for a port that accepts, and rejects once it is closed', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
    await expect(reachTarget(url, 2000)).resolves.toBeUndefined();
    await new Promise((resolve) => server.close(resolve));
    const refused = reachTarget(url, 2000);
    await expect(refused).rejects.toBeInstanceOf(TargetUnreachableError);
    await expect(refused).rejects.toThrow(`cannot reach ${url.origin}: ECONNREFUSED`);
  });
});
