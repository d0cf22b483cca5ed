/** A node:http server on 127.0.0.1, port 0, as a running store: its URL and a close that ends every connection (the framework implementations, the bearer stores). */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningStore {
  readonly url: string;
  close(): Promise<void>;
}

/** A node:http server (what Express's app.listen and @hono/node-server's serve return), once it listens. */
export async function listening(server: Server): Promise<RunningStore> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
