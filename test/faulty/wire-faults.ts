/**
 * Faulty implementations of what goes on the wire (issue 20): answers a sender MUST NOT write
 * (RFC 9112: bare LF line ends, obs-fold, a repeated Content-Length; RFC 9110: a Date that is not
 * an IMF-fixdate), and requests framed in ways HTTP allows that a hand-written layer mishandles
 * (a 417 to Expect: 100-continue, a decodeURIComponent that throws on `%zz` and takes the process
 * down, a layer on raw sockets that never closes a connection the client asked to close). node:http reads the requests; where node:http cannot write the defect, the answer goes
 * on the socket as bytes, and the connection closes after it (as `Connection: close` says).
 */
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { AppResponse } from '../../src/reference/index.js';
import { startFaulty } from '../support/servers.js';
import { errorResponse } from './helpers.js';
import type { HygieneFault } from './hygiene.js';
import { CAREFUL_LAYER, startRawStore } from './raw-store.js';

/** The answer as bytes, head lines joined by `eol`, with `extra` field lines; the socket closes after it. */
function rawBytes(answer: AppResponse, options: { eol?: string; extra?: readonly string[]; date?: string } = {}): (res: ServerResponse) => void {
  const eol = options.eol ?? '\r\n';
  const body = Buffer.from(answer.body, 'utf8');
  const lines = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    `date: ${options.date ?? new Date().toUTCString()}`,
    `content-length: ${body.length}`,
    ...(options.extra ?? []),
    'connection: close',
  ];
  return (res) => {
    res.socket?.end(Buffer.concat([Buffer.from(`${lines.join(eol)}${eol}${eol}`, 'latin1'), body]));
  };
}

function wireFault(name: string, caughtBy: HygieneFault['caughtBy'], touches: HygieneFault['touches'], defect: string, write: (answer: AppResponse) => (res: ServerResponse) => void): HygieneFault {
  return { name, caughtBy, touches, defect, start: () => startFaulty((_request, correct) => write(correct())) };
}

/** A 417 (Expectation Failed) to every Expect: 100-continue, which node:http lets a server choose (`checkContinue`). */
function refuseExpect(server: Server): void {
  server.on('checkContinue', (_req, res: ServerResponse) => {
    const answer = errorResponse(417, 'expectations are not supported');
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  });
}

/**
 * The store's process dies on the first target with an invalid percent-escape: decodeURIComponent
 * throws a URIError nobody catches (here: the server stops listening and drops its connections,
 * so every later request is refused, as it is when the process is gone).
 */
async function startDyingOnBadEscapes(): Promise<{ readonly url: string; close(): Promise<void> }> {
  let listening: Server | undefined;
  const running = await startFaulty(
    (request, correct) => {
      try {
        decodeURIComponent(request.url);
      } catch {
        listening?.close();
        listening?.closeAllConnections();
        return 'reset';
      }
      return correct();
    },
    {},
    (server) => {
      listening = server;
    },
  );
  return running;
}

export const WIRE_FAULTS: readonly HygieneFault[] = [
  wireFault('bare-lf-answers', 'message-framing', [], 'the answer\'s head is written with "\\n" line ends (a template built on a Unix editor): RFC 9112, section 2.2 says a sender MUST use CRLF', (answer) => rawBytes(answer, { eol: '\n' })),
  wireFault('obs-fold-answers', 'message-framing', [], 'a long header is folded onto a second line that starts with a space (obs-fold, as old mail-style writers do): RFC 9112, section 5.2', (answer) =>
    rawBytes(answer, { extra: ['x-served-by: plant-store,\r\n  shard-7'] }),
  ),
  wireFault('repeated-content-length', 'message-framing', [], 'a middleware adds Content-Length after the framework already did: two identical Content-Length fields (RFC 9110, section 8.6)', (answer) =>
    rawBytes(answer, { extra: [`content-length: ${Buffer.byteLength(answer.body)}`] }),
  ),
  wireFault('rfc850-date', 'message-framing', [], 'Date is written in the obsolete RFC 850 form (Sunday, 06-Nov-94 08:49:37 GMT): RFC 9110, section 5.6.7 says a sender MUST generate IMF-fixdate', (answer) =>
    rawBytes(answer, { date: 'Sunday, 06-Nov-94 08:49:37 GMT' }),
  ),
  {
    name: 'expectation-failed',
    caughtBy: 'accepts-valid',
    touches: ['status-declared'],
    defect: 'a 417 to every request with Expect: 100-continue (what curl sends for a body over 1 kB): RFC 9110, section 10.1.1 lets a server ignore the expectation, never refuse a valid request for it',
    start: () => startFaulty((_request, correct) => correct(), {}, refuseExpect),
  },
  {
    name: 'dies-on-bad-percent-escape',
    caughtBy: 'no-server-error',
    touches: [],
    defect: 'the target is decoded with decodeURIComponent, whose URIError on `%zz` nobody catches: the process dies, and every later request is refused',
    start: startDyingOnBadEscapes,
  },
  {
    name: 'ignores-client-close',
    caughtBy: 'message-framing',
    touches: [],
    defect: 'a hand-written HTTP layer on raw sockets keeps every connection open whatever the request says: the client\'s Connection: close is never read (RFC 9112, section 9.6: the server MUST close after its answer)',
    start: () => startRawStore({ ...CAREFUL_LAYER, clientClose: 'ignored' }),
  },
];
