/**
 * Faulty implementations for the map's rows on answers (oracle/requirements/answers.ts): each
 * writes what RFC 9112 or RFC 9110 says a sender MUST NOT generate, the way hand-written HTTP
 * layers and templates get it wrong. node:http reads the requests and the reference answers them;
 * where node:http cannot write the defect, the answer goes on the socket as bytes and the
 * connection closes after it (as its `Connection: close` says). Each names the check that must
 * catch it, the other checks its defect touches, and the focused run that shows it
 * (test/requirements/map-answers.test.ts).
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { AppResponse } from '../../src/reference/index.js';
import type { CheckName, Phase, Severity } from '../../fuzz/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { startOperationImplementation } from './operations.js';

export interface MapAnswerFault {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  /** `warning` for a breach the map decides costs a client nothing. */
  readonly caughtAs?: Severity;
  readonly touches: readonly CheckName[];
  /** The focused run that provokes it: the request kinds and phases, and the contract (the bundled one, or the example full store, whose DELETE of a stored plant answers 204). */
  readonly kinds: readonly string[];
  readonly phases: readonly Phase[];
  readonly contract: 'bundled' | 'full';
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

/** How a raw answer is written: each part a hand-written layer may get wrong. */
interface RawShape {
  readonly statusLine?: (status: number) => string;
  /** The field lines, from the answer's own (Date and framing included). */
  readonly fields?: (fields: readonly string[]) => readonly string[];
  /** `chunked`: the body in one chunk, the chunk line as `chunkLine` writes it, then `trailers`. */
  readonly framing?: 'length' | 'chunked';
  readonly chunkLine?: (size: number) => string;
  readonly trailers?: readonly string[];
  /** Bytes written before the answer (an interim answer). */
  readonly before?: string;
  /** Bytes after the head in place of the body (content where none belongs). */
  readonly body?: (answer: AppResponse) => Buffer;
}

/** The answer as bytes on the socket, shaped; the connection closes after it. */
function raw(answer: AppResponse, shape: RawShape): (res: ServerResponse) => void {
  const body = shape.body?.(answer) ?? Buffer.from(answer.body, 'utf8');
  const chunked = shape.framing === 'chunked';
  const own = [...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`), `date: ${new Date().toUTCString()}`, chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`, 'connection: close'];
  const status = (shape.statusLine ?? ((code: number) => `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}`))(answer.status);
  const head = `${shape.before ?? ''}${status}\r\n${(shape.fields ?? ((f) => f))(own).map((line) => `${line}\r\n`).join('')}\r\n`;
  const last = Buffer.from(`0\r\n${(shape.trailers ?? []).map((t) => `${t}\r\n`).join('')}\r\n`);
  const chunk = body.length === 0 ? [] : [Buffer.from(`${(shape.chunkLine ?? ((n: number) => n.toString(16)))(body.length)}\r\n`), body, Buffer.from('\r\n')];
  const content = chunked ? Buffer.concat([...chunk, last]) : body;
  return (res) => {
    res.socket?.end(Buffer.concat([Buffer.from(head, 'latin1'), content]));
  };
}

/**
 * The requests of a focused run for a rule on every answer: the wrong media types (14 requests
 * against the bundled contract; their answers carry every field an answer has).
 */
const FEW = ['bad-media-type'];

/** A fault of the bundled store whose every answer is written raw, shaped. */
function rawFault(name: string, defect: string, shape: RawShape, extra: Partial<Pick<MapAnswerFault, 'touches' | 'kinds' | 'caughtAs'>> = {}): MapAnswerFault {
  return { name, defect, caughtBy: 'message-framing', touches: extra.touches ?? [], kinds: extra.kinds ?? FEW, phases: ['coverage'], contract: 'bundled', ...(extra.caughtAs === undefined ? {} : { caughtAs: extra.caughtAs }), start: () => startFaulty((_request, correct) => raw(correct(), shape)) };
}

/** A fault of the bundled store in what its answers say, written by node:http. */
function fieldFault(name: string, defect: string, fault: Fault, touches: readonly CheckName[] = [], kinds: readonly string[] = FEW): MapAnswerFault {
  return { name, defect, caughtBy: 'message-framing', touches, kinds, phases: ['coverage'], contract: 'bundled', start: () => startFaulty(fault) };
}

/** A fault of the example full store's 204s (its DELETE), written raw. */
function noContentFault(name: string, defect: string, shape: (answer: AppResponse) => RawShape, extra: Partial<Pick<MapAnswerFault, 'touches' | 'caughtAs'>> = {}): MapAnswerFault {
  return {
    name,
    defect,
    caughtBy: 'message-framing',
    touches: extra.touches ?? [],
    kinds: ['valid'],
    // The stateful phase deletes the plants it stored: those DELETEs answer 204.
    phases: ['stateful'],
    contract: 'full',
    ...(extra.caughtAs === undefined ? {} : { caughtAs: extra.caughtAs }),
    start: () => startOperationImplementation({ name, fault: (_request, correct) => {
      const answer = correct();
      return answer.status === 204 ? raw(answer, shape(answer)) : answer;
    } }),
  };
}

const withBody = (answer: AppResponse, body: string): AppResponse => ({ ...answer, body });

export const MAP_ANSWER_FAULTS: readonly MapAnswerFault[] = [
  rawFault('status-line-without-reason', 'the status line is written as `HTTP/1.1 ${status}`, without the SP that ends the status code when there is no reason phrase (RFC 9112, section 4)', { statusLine: (code) => `HTTP/1.1 ${code}` }),
  rawFault('whitespace-line-after-status', 'an optional field is written into the head as ` ${extra}`: when it is empty, a line of one space follows the status line (RFC 9112, section 2.2)', { fields: (fields) => [' ', ...fields] }),
  rawFault('space-before-colon', 'the head is written in aligned columns (`name.padEnd(16)`), so whitespace comes between each field name and its colon (RFC 9112, section 5.1)', { fields: (fields) => fields.map((f) => `${(f.split(':', 1)[0] ?? '').padEnd(20)}:${f.slice(f.indexOf(':') + 1)}`) }),
  rawFault('field-name-with-spaces', 'a field named from a configuration\'s label, "X Served By", whose name is not a token (RFC 9110, section 5.1)', { fields: (fields) => [...fields, 'X Served By: plant-store'] }),
  rawFault('bare-cr-in-server-field', 'the Server field is read from a configuration file with Windows line ends split on "\\n": its value ends in a CR (RFC 9112, section 2.2: a bare CR)', { fields: (fields) => [...fields, 'server: plant-store/1.0\r'] }),
  rawFault('ansi-colour-in-field', 'the log line of the request, with its ANSI colour codes (ESC [32m), is copied into an X-Log field: a control character in a value (RFC 9110, section 5.5)', { fields: (fields) => [...fields, 'x-log: \x1b[32mok\x1b[0m'] }),
  rawFault('transfer-encoding-twice', 'a middleware adds Transfer-Encoding: chunked after the framework already did: chunked is declared twice for a body chunked once (RFC 9112, section 6.1)', { framing: 'chunked', fields: (fields) => [...fields, 'transfer-encoding: chunked'] }),
  rawFault('chunked-to-http10', 'a streaming layer answers every request chunked, without looking at the request\'s version: an HTTP/1.0 client gets Transfer-Encoding (RFC 9112, section 6.1)', { framing: 'chunked' }, { kinds: [...FEW, 'framing'] }),
  rawFault('continue-to-http10', 'a hand-written layer writes "100 Continue" before every answer to a request with a body, whether or not it asked, and to an HTTP/1.0 client too (RFC 9110, section 15.2)', { before: 'HTTP/1.1 100 Continue\r\n\r\n' }, { kinds: [...FEW, 'framing'] }),
  {
    ...rawFault('content-length-with-chunked', 'a compression middleware chunks the answer but leaves the Content-Length the handler set: both framings in one answer (RFC 9112, section 6.2: a sender MUST NOT)', { framing: 'chunked', fields: (fields) => [...fields, 'content-length: 2'] }),
    caughtBy: 'content-length',
  },
  rawFault('chunk-size-padded', 'the chunk size is written with a space before its CRLF (`${size.toString(16)} \\r\\n`): whitespace the chunk grammar has no place for (RFC 9112, section 7.1.1; RFC 9110, section 5.6.3)', { framing: 'chunked', chunkLine: (n) => `${n.toString(16)} ` }),
  rawFault('content-length-trailer', 'the length is known only once the body is streamed, so it is sent as a Content-Length trailer after the chunked body (RFC 9110, section 6.5.1)', { framing: 'chunked', trailers: ['content-length: 0'] }),
  fieldFault('spaces-around-charset-equals', 'Content-Type is written as "application/json; charset = utf-8", with spaces around "=" (RFC 9110, sections 8.3.1 and 5.6.6)', (_request, correct) => {
    const answer = correct();
    return { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset = utf-8' } };
  }),
  fieldFault('unquoted-etag', 'a hand-written cache layer sets ETag to the hex digest of the body without the quotes an entity-tag has (RFC 9110, section 8.8.3)', (_request, correct) => {
    const answer = correct();
    return { ...answer, headers: { ...answer.headers, etag: createHash('sha1').update(answer.body).digest('hex') } };
  }),
  fieldFault('vary-separated-by-spaces', 'Vary lists the request fields the answer depends on separated by spaces ("Accept Accept-Encoding"), not commas (RFC 9110, section 5.6.1; Vary = #( "*" / field-name ))', (_request, correct) => {
    const answer = correct();
    return { ...answer, headers: { ...answer.headers, vary: 'Accept Accept-Encoding' } };
  }),
  {
    name: 'allow-separated-by-spaces',
    defect: 'a 405\'s Allow lists the path\'s methods joined with " " ("GET PUT DELETE"), not with commas (RFC 9110, section 10.2.1: Allow = #method)',
    caughtBy: 'message-framing',
    // The path's methods are not listed as methods either.
    touches: ['method-semantics'],
    kinds: [...FEW, 'other-method'],
    phases: ['coverage'],
    // The example full store: its paths declare several methods, which the list separates.
    contract: 'full',
    start: () =>
      startOperationImplementation({
        name: 'allow-separated-by-spaces',
        fault: (_request, correct) => {
          const answer = correct();
          const allow = answer.headers.allow;
          return allow === undefined ? answer : { ...answer, headers: { ...answer.headers, allow: allow.split(/,\s*/).join(' ') } };
        },
      }),
  },
  fieldFault('location-with-raw-name', 'a stored plant\'s Location is /plants/ and its name as it came, not percent-encoded: spaces and non-ASCII characters in a URI (RFC 9110, section 10.2.2; RFC 3986, section 2.1)', (request, correct) => {
    const answer = correct();
    if (request.method !== 'POST' || answer.status !== 200) return answer;
    // The name's UTF-8 bytes as they are (node:http writes a header's characters as bytes); what node:http refuses to write (a control character) is left out.
    const name = Buffer.from(/"name":"([^"]*)"/.exec(answer.body)?.[1] ?? '', 'utf8').toString('latin1').replace(/[^\x20-\x7e\x80-\xff]/g, '').slice(0, 40);
    return { ...answer, headers: { ...answer.headers, location: `/plants/by-name/${name}` } };
  }, [], ['valid']),
  {
    name: 'no-date-field',
    defect: 'the server turns off its Date field (node:http\'s res.sendDate = false) to save a syscall (RFC 9110, section 6.6.1)',
    caughtBy: 'message-framing',
    caughtAs: 'warning',
    touches: [],
    kinds: FEW,
    phases: ['coverage'],
    contract: 'bundled',
    start: () =>
      startFaulty((_request, correct) => {
        const answer = correct();
        return (res: ServerResponse) => {
          res.sendDate = false;
          res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
          res.end(answer.body);
        };
      }),
  },
  noContentFault('content-length-on-204', 'the Content-Length is set from the deleted plant\'s JSON before the handler decides on 204, and the 204 goes out without it (RFC 9110, section 8.6)', () => ({ fields: (fields) => fields.map((f) => (f.startsWith('content-length:') ? `content-length: ${Buffer.byteLength('{"deleted":true}')}` : f)), body: () => Buffer.alloc(0) })),
  noContentFault('zero-content-length-on-204', 'the 204 carries Content-Length: 0, as node:http writes it when a handler sets it (RFC 9110, section 8.6)', () => ({ body: () => Buffer.alloc(0) }), { caughtAs: 'warning' }),
  noContentFault('content-in-204', 'the delete handler writes 204 and then the deleted plant\'s JSON without a Content-Length: the 204 carries content (RFC 9110, section 15.3.5)', (answer) => ({ fields: (fields) => fields.filter((f) => !f.startsWith('content-length:')), body: () => Buffer.from(withBody(answer, '{"deleted":true}').body) }), { touches: ['one-answer-per-request'] }),
  noContentFault('chunked-204', 'a streaming layer chunks every answer, the 204 too: Transfer-Encoding and a last chunk where no content belongs (RFC 9112, section 6.1; RFC 9110, section 15.3.5)', () => ({ framing: 'chunked', body: () => Buffer.alloc(0) }), { touches: ['one-answer-per-request'] }),
];
