/**
 * Correct but unusual ways to write an answer on the wire, which a strict reader must still take
 * (RFC 9112 lets a sender do each): 1xx answers before the final one, a body delimited by the
 * close, chunked answers with trailers, reason phrases of its own, a hand-written layer that
 * answers pipelined requests in order though they finish out of it.
 * An HTTP/1.0 request gets neither a 1xx (RFC 9110, section 15.2) nor chunked (RFC 9112, section 6.1).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { AppResponse } from '../../src/reference/index.js';
import { startFaulty } from '../support/servers.js';
import { CAREFUL_LAYER, insertsMs, startRawStore } from '../faulty/raw-store.js';

/** As unusual.ts's UnusualImplementation (which imports this file). */
interface UnusualWire {
  readonly name: string;
  readonly trait: string;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

function wire(name: string, trait: string, write: (answer: AppResponse, res: ServerResponse) => void): UnusualWire {
  return {
    name,
    trait,
    start: () =>
      startFaulty((_request, correct) => (res: ServerResponse) => {
        write(correct(), res);
      }),
  };
}

const isHttp10 = (res: ServerResponse): boolean => res.req.httpVersion === '1.0';

/** The answer's head lines, without a framing field. */
const headLines = (answer: AppResponse, reason = STATUS_CODES[answer.status] ?? ''): string[] => [`HTTP/1.1 ${answer.status} ${reason}`, ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`), `date: ${new Date().toUTCString()}`];

/** A body delimited by the close of the connection (RFC 9112, section 6.3, item 8). */
function closeDelimited(answer: AppResponse, res: ServerResponse): void {
  res.socket?.end(Buffer.concat([Buffer.from(`${[...headLines(answer), 'connection: close'].join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(answer.body)]));
}

export const UNUSUAL_WIRE: readonly UnusualWire[] = [
  wire('interim-answers-first', 'a 100 (Continue) nobody asked for and a 103 (Early Hints) come before every answer to HTTP/1.1 (RFC 9110, sections 15.2 and 15.2.1; RFC 8297)', (answer, res) => {
    if (!isHttp10(res)) {
      res.writeContinue();
      res.writeEarlyHints({ link: '</plants>; rel=preload' });
    }
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  }),
  wire('close-delimited-bodies', 'answers carry no Content-Length and end with the close of the connection (RFC 9112, section 6.3, item 8)', closeDelimited),
  wire('chunked-with-trailers', 'chunked answers with a trailer field (RFC 9112, section 7.1.2); close-delimited to HTTP/1.0', (answer, res) => {
    if (isHttp10(res)) {
      closeDelimited(answer, res);
      return;
    }
    res.writeHead(answer.status, { ...answer.headers, 'transfer-encoding': 'chunked', trailer: 'x-plant-count' });
    res.write(answer.body);
    res.addTrailers({ 'x-plant-count': '1' });
    res.end();
  }),
  {
    name: 'hand-written-layer-in-order',
    trait: 'an HTTP layer on raw sockets whose store takes 10 ms for a tagged plant and 5 ms for an untagged one: requests pipelined on one connection are handled at once and answered in the order they came (RFC 9112, section 9.3.2); it closes after the answer to Connection: close (section 9.6)',
    start: () => startRawStore({ ...CAREFUL_LAYER, storeMs: insertsMs }),
  },
  wire('custom-reason-phrases', 'every status line has a reason phrase of its own, or none (RFC 9112, section 4: a client SHOULD ignore it)', (answer, res) => {
    res.writeHead(answer.status, answer.status === 200 ? 'Planted' : '', { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  }),
];
