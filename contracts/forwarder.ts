/**
 * A loopback forwarder between pact-js's verification proxy and the implementation under test.
 *
 * pact-js's proxy (http-proxy) has no error handler: when the target resets a connection or sends
 * something that is not HTTP, the error is thrown out of an event handler, the verifying process
 * dies while the native verifier keeps waiting, and `plant-store verify` hangs. Forwarding through
 * this server instead turns every such transport failure into an answer - 502, or 504 after the
 * timeout - that the verifier reports as a mismatch of that interaction, and records what happened
 * so the summary can say it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hopByHopFields } from '../src/http/index.js';

export interface ForwardingFailure {
  readonly method: string;
  readonly path: string;
  readonly reason: string;
}

export interface Forwarder {
  /** The forwarder's origin with the target's path: what pact-js should verify. */
  readonly url: string;
  readonly failures: readonly ForwardingFailure[];
  close(): Promise<void>;
}

/**
 * The message's fields less the hop-by-hop ones (src/http/hop-by-hop.ts) and Trailer: the body is
 * piped on without its trailer section.
 */
function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const connection = headers.connection;
  const dropped = hopByHopFields(connection === undefined ? [] : [connection], ['trailer']);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name)));
}

/** Forwards to `target`, answering 502 when it fails and 504 when it is silent for `timeoutMs`. */
export async function startForwarder(target: string, timeoutMs: number): Promise<Forwarder> {
  const base = new URL(target);
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const failures: ForwardingFailure[] = [];
  const server = createServer((incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    const upstream = send(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, method, path, headers: { ...endToEnd(incoming.headers), host: base.host }, timeout: timeoutMs },
      (answer) => {
        if (answer.statusMessage) outgoing.statusMessage = answer.statusMessage;
        outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
      },
    );
    let failed = false;
    const fail = (status: number, reason: string): void => {
      if (failed) return;
      failed = true;
      failures.push({ method, path, reason });
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      outgoing.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      outgoing.end(`plant-store verify: the target ${reason}\n`);
    };
    upstream.on('timeout', () => {
      fail(504, `did not answer within ${timeoutMs} ms`);
      upstream.destroy();
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      fail(502, `failed to answer (${error.code ?? error.message})`);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '')}`,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
