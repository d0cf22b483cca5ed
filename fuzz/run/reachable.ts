/** Whether the target accepts a TCP connection at all, before any request: refused or unknown hosts are a usage problem, not a finding. */
import { connect } from 'node:net';

/** The target did not accept a connection at all (exit code 2 in the CLI, not a finding). */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

/** Resolves once a connection to the target's host and port opened (and is closed again); rejects with TargetUnreachableError. */
export function reachTarget(url: URL, timeoutMs: number): Promise<void> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (message: string): void => {
      socket.destroy();
      reject(new TargetUnreachableError(`cannot reach ${url.origin}: ${message}`));
    };
    socket.setTimeout(timeoutMs, () => {
      fail(`no connection within ${timeoutMs} ms`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      fail(error.code ?? error.message);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}
