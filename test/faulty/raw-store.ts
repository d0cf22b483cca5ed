/**
 * A Plant Store whose HTTP layer is written by hand on node:net, as small services and embedded
 * servers write it: requests read by RFC 9112's grammar (request line, fields, Content-Length or
 * chunked), answered by the reference. Its `layer` says how it handles the connection where
 * hand-written layers differ (node:http cannot be made to do these): whether it honours the
 * client's `Connection: close`, what it does with bytes after a request (a pipelined one, RFC 9112,
 * section 9.3.2), in which order it writes answers whose handling takes different times, and how
 * it reads the message (`reading`: where hand-written parsers get RFC 9112 wrong).
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, type App, type AppOptions, type AppRequest, type AppResponse } from '../../src/reference/index.js';
import { TEST_TOKEN } from '../support/servers.js';
import { errorResponse } from './helpers.js';

export interface RawLayer {
  /**
   * `honoured`: the connection closes after the answer to `Connection: close` and to HTTP/1.0
   * without keep-alive; `ignored`: it stays open; `first-request`: `close` is read on a
   * connection's first request only (keep-alive decided once per connection); `field-only`: only
   * the field is read, so an HTTP/1.0 connection stays open unless it says `close`.
   */
  readonly clientClose: 'honoured' | 'ignored' | 'first-request' | 'field-only';
  /** `kept`: bytes after a request are the start of the next; `dropped`: the buffer is emptied after each request. */
  readonly bytesAfterRequest: 'kept' | 'dropped';
  /** `arrival`: answers go in the order their requests came; `completion`: each as soon as it is ready. */
  readonly answerOrder: 'arrival' | 'completion';
  /** How long the store takes for a request (a tagged plant is two inserts, an untagged one). Default: no time. */
  readonly storeMs?: (request: AppRequest) => number;
  /** How the message is read where hand-written layers get RFC 9112 wrong (MessageReading); careful by default. */
  readonly reading?: Partial<MessageReading>;
  /**
   * How the store answers a request, where not as the reference does (a dispatcher of its own:
   * test/faulty/map-targets.ts), given its request line as read; `die`: the process dies (the
   * server stops and drops every connection). A request without Host is still answered 400 first.
   */
  readonly answer?: (request: AppRequest, line: string, app: App) => AppResponse | 'die';
  /** `ignored`: an HTTP/1.1 request without Host is answered as any other (RFC 9112, section 3.2 asks for 400). Default: `required`. */
  readonly host?: 'required' | 'ignored';
}

/**
 * How a layer reads a message. The careful reading is RFC 9112's; each other value is a way
 * hand-written layers get it wrong (test/faulty/map-messages.ts).
 */
export interface MessageReading {
  /** `skipped`: empty lines before the request line (section 2.2); `read`: one is read as a request line, and refused. */
  readonly emptyLines: 'skipped' | 'read';
  /** `grammar`: method SP target SP version, any HTTP/1.x read as 1.1 (RFC 9110, section 2.5); `exact-version`: 505 to any but 1.0 and 1.1; `split-on-space`: `line.split(' ')`, whose missing version throws. */
  readonly requestLine: 'grammar' | 'exact-version' | 'split-on-space';
  /** `grammar`: a token, no space before the colon (section 5.1); `trimmed`: the name trimmed, so `name :` reads as `name:`. */
  readonly fieldNames: 'grammar' | 'trimmed';
  /** `grammar`: OWS around the value dropped (section 5.1); `after-colon-space`: the value is what follows `": "`, and a line without one is skipped. */
  readonly fieldValues: 'grammar' | 'after-colon-space';
  /** `refused`: obs-fold, a NUL or a CTL in a value, a name that is no token answered 400 (sections 5.2, 5.5); `split-on-colon`: `line.split(':')`, a line without one throws; `headers-object`: copied into a fetch Headers, whose TypeError answers 500. */
  readonly oddFields: 'refused' | 'split-on-colon' | 'headers-object';
  /** `grammar`: 1*DIGIT, the same in every field (section 6.3); `parse-int`: parseInt of the fields joined. */
  readonly contentLength: 'grammar' | 'parse-int';
  /** Transfer-Encoding beside Content-Length: `close` after the answer (section 6.1); `kept`: the connection kept. */
  readonly lengthWithChunked: 'close' | 'kept';
  /** `grammar`: hex digits, extensions ignored (section 7.1.1); `number`: Number('0x' + line), which an extension makes NaN. */
  readonly chunkSize: 'grammar' | 'number';
  /** `grammar`: trailer fields read to the empty line (section 7.1.2); `none`: the empty line must follow the last chunk. */
  readonly trailers: 'grammar' | 'none';
  /** `buffered`: bytes kept until the request is whole; `one-read`: each read parsed as a whole request. */
  readonly reads: 'buffered' | 'one-read';
  /** `http11`: a 100 (Continue) to an HTTP/1.1 Expect: 100-continue only; `any-version`: to HTTP/1.0 too (RFC 9110, section 10.1.1). */
  readonly expectContinue: 'http11' | 'any-version';
  /** Another expectation: `417` (RFC 9110, section 10.1.1); `switch-throws`: a switch whose default case throws, answered 500. */
  readonly otherExpectations: '417' | 'switch-throws';
}

const CAREFUL_READING: MessageReading = {
  emptyLines: 'skipped',
  requestLine: 'grammar',
  fieldNames: 'grammar',
  fieldValues: 'grammar',
  oddFields: 'refused',
  contentLength: 'grammar',
  lengthWithChunked: 'close',
  chunkSize: 'grammar',
  trailers: 'grammar',
  reads: 'buffered',
  expectContinue: 'http11',
  otherExpectations: '417',
};

/** A request as the layer read it. */
interface ReadRequest {
  readonly request: AppRequest;
  readonly version: string;
  readonly line: string;
  /** Its Connection field, lower-cased. */
  readonly connection: string;
  /** Whether the request asks to close (its Connection field, or HTTP/1.0 without keep-alive). */
  readonly asksClose: boolean;
  /** Whether the layer closes after it whatever it asks (Transfer-Encoding beside Content-Length, RFC 9112, section 6.1). */
  readonly mustClose: boolean;
  /** HTTP/1.1 without Host: 400 (RFC 9112, section 3.2). */
  readonly hostMissing: boolean;
}

/** Why a message cannot be read: answered with this status, and the connection closed (RFC 9112, section 2.2). */
class Unreadable extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** CTLs other than HTAB, and DEL (RFC 9110, section 5.5). */
// eslint-disable-next-line no-control-regex -- the point: control characters in a field value
const CTL = /[\x00-\x08\x0a-\x1f\x7f]/;

function fieldsOf(lines: readonly string[], reading: MessageReading): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    // A field twice is one list (RFC 9110, section 5.3): two Authorization fields are one malformed value.
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  };
  if (reading.oddFields === 'headers-object') {
    // The fields go into a fetch Headers for the handler; what it refuses throws a TypeError.
    const copy = new Headers();
    for (const line of lines) copy.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1));
  }
  for (const line of lines) {
    if (reading.oddFields === 'split-on-colon') {
      const [name, value] = line.split(':') as [string, string | undefined];
      add(name.trim().toLowerCase(), (value as string).trim());
      continue;
    }
    // A hand-written split on ": " skips a line written otherwise (`name:\tvalue`), and keeps the rest of the OWS.
    if (reading.fieldValues === 'after-colon-space' && !line.includes(': ')) continue;
    if (/^[ \t]/.test(line)) throw new Unreadable(400, 'a field line folded onto the next (obs-fold, RFC 9112, section 5.2)');
    const colon = line.indexOf(':');
    const rawName = colon === -1 ? line : line.slice(0, colon);
    const name = reading.fieldNames === 'trimmed' ? rawName.trim() : rawName;
    if (!TOKEN.test(name)) throw new Unreadable(400, `not a field line: ${JSON.stringify(line.slice(0, 40))} (RFC 9112, section 5.1)`);
    // Only spaces and tabs around a value are whitespace (RFC 9110, section 5.5): String.trim would take a no-break space too.
    const value = reading.fieldValues === 'after-colon-space' ? line.slice(line.indexOf(': ') + 2) : line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (CTL.test(value)) throw new Unreadable(400, `a control character in the ${name} field (RFC 9110, section 5.5)`);
    add(name.toLowerCase(), value);
  }
  return headers;
}

/** The request line's method, target and version (RFC 9112, section 3); HTTP/1.x with x above 1 is read as 1.1 (RFC 9110, section 2.5). */
function requestLineOf(line: string, reading: MessageReading): [string, string, string] {
  if (reading.requestLine === 'split-on-space') {
    const [method, url, version] = line.split(' ') as [string, string, string];
    return [method, url, version.startsWith('HTTP/1.0') ? 'HTTP/1.0' : 'HTTP/1.1'];
  }
  const parts = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/([0-9])\.([0-9])$/.exec(line);
  if (parts === null) throw new Unreadable(400, `not a request line: ${JSON.stringify(line.slice(0, 60))} (RFC 9112, section 3)`);
  const [, method = '', url = '', major, minor] = parts;
  if (major !== '1') throw new Unreadable(505, `HTTP/${major ?? ''} is not supported`);
  if (reading.requestLine === 'exact-version' && minor !== '0' && minor !== '1') throw new Unreadable(505, `HTTP/1.${minor ?? ''} is not supported`);
  return [method, url, minor === '0' ? 'HTTP/1.0' : 'HTTP/1.1'];
}

/** Content-Length: 1*DIGIT, one value however often it is given (RFC 9112, section 6.3), or undefined. */
function lengthOf(value: string | undefined, reading: MessageReading): number | undefined {
  if (value === undefined) return undefined;
  if (reading.contentLength === 'parse-int') return parseInt(value, 10) || 0;
  const values = value.split(',').map((v) => v.trim());
  if (!values.every((v) => /^[0-9]{1,15}$/.test(v)) || new Set(values.map(Number)).size !== 1) throw new Unreadable(400, `an invalid Content-Length: ${JSON.stringify(value)} (RFC 9112, section 6.3)`);
  return Number(values[0]);
}

/** A chunked body from `start` (RFC 9112, section 7.1): the body and where it ends, or undefined while incomplete. */
function chunkedBody(buffer: Buffer, start: number, reading: MessageReading): { readonly body: Buffer; readonly end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const line = buffer.toString('latin1', at, lineEnd);
    const size = reading.chunkSize === 'number' ? Number(`0x${line}`) : parseInt(/^[0-9A-Fa-f]{1,15}(?=$|[ \t]*;)/.exec(line)?.[0] ?? 'x', 16);
    if (Number.isNaN(size)) throw new Unreadable(400, `not a chunk size: ${JSON.stringify(line.slice(0, 40))}`);
    if (size === 0) {
      if (reading.trailers === 'none') {
        if (buffer.length < lineEnd + 4) return undefined;
        if (buffer.toString('latin1', lineEnd + 2, lineEnd + 4) !== '\r\n') throw new Unreadable(400, 'the chunked body does not end after its last chunk');
        return { body: Buffer.concat(parts), end: lineEnd + 4 };
      }
      // The trailer section, to the empty line (RFC 9112, section 7.1.2).
      const end = buffer.indexOf('\r\n\r\n', lineEnd);
      return end === -1 ? undefined : { body: Buffer.concat(parts), end: end + 4 };
    }
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The first whole request in the buffer and where it ends, or undefined while it is incomplete; throws Unreadable. */
function readRequest(buffer: Buffer, reading: MessageReading, onHead: (version: string, headers: Record<string, string>) => void): { readonly read: ReadRequest; readonly end: number } | undefined {
  let begin = 0;
  // A server SHOULD ignore at least one empty line before the request line (RFC 9112, section 2.2).
  while (reading.emptyLines === 'skipped' && buffer.toString('latin1', begin, begin + 2) === '\r\n') begin += 2;
  const headEnd = buffer.indexOf('\r\n\r\n', begin);
  if (headEnd === -1) return undefined;
  const [line = '', ...fieldLines] = buffer.toString('latin1', begin, headEnd).split('\r\n');
  const [method, url, version] = requestLineOf(line, reading);
  const headers = fieldsOf(fieldLines, reading);
  onHead(version, headers);
  const codings = (headers['transfer-encoding'] ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  const chunked = codings.length > 0;
  if (chunked && codings.join() !== 'chunked') throw new Unreadable(codings.at(-1) === 'chunked' ? 501 : 400, `Transfer-Encoding: ${codings.join(', ')} (RFC 9112, section 6.1)`);
  const length = chunked ? undefined : lengthOf(headers['content-length'], reading);
  const bodyStart = headEnd + 4;
  const whole = chunked ? chunkedBody(buffer, bodyStart, reading) : buffer.length >= bodyStart + (length ?? 0) ? { body: buffer.subarray(bodyStart, bodyStart + (length ?? 0)), end: bodyStart + (length ?? 0) } : undefined;
  if (whole === undefined) return undefined;
  const connection = (headers.connection ?? '').toLowerCase();
  const asksClose = connection.includes('close') || (version === 'HTTP/1.0' && !connection.includes('keep-alive'));
  const mustClose = chunked && headers['content-length'] !== undefined && reading.lengthWithChunked === 'close';
  return { read: { request: { method, url, headers, body: whole.body }, version, line, connection, asksClose, mustClose, hostMissing: version === 'HTTP/1.1' && headers.host === undefined }, end: whole.end };
}

function answerBytes(answer: AppResponse, close: boolean): string {
  const fields = [...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`), `date: ${new Date().toUTCString()}`, `content-length: ${Buffer.byteLength(answer.body)}`, ...(close ? ['connection: close'] : [])];
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${fields.join('\r\n')}\r\n\r\n${answer.body}`;
}

/** Whether the layer closes after the answer to a request, by what it reads of `Connection` (RawLayer.clientClose). */
function closesAfter(layer: RawLayer, read: ReadRequest, first: boolean): boolean {
  if (read.mustClose) return true;
  switch (layer.clientClose) {
    case 'honoured':
      return read.asksClose;
    case 'ignored':
      return false;
    case 'first-request':
      return first && read.asksClose;
    case 'field-only':
      return read.connection.includes('close');
  }
}

export async function startRawStore(layer: RawLayer, options: Partial<AppOptions> = {}): Promise<{ readonly url: string; close(): Promise<void> }> {
  const app = createApp({ tokens: [TEST_TOKEN], ...options });
  const reading: MessageReading = { ...CAREFUL_READING, ...layer.reading };
  const serve = (socket: Socket): void => {
    let buffer: Buffer = Buffer.alloc(0);
    let first = true;
    let continued = false;
    // Answers in the order of their requests: each waits for the one before it.
    let previous: Promise<unknown> = Promise.resolve();
    const handle = (read: ReadRequest): void => {
      const close = closesAfter(layer, read, first);
      first = false;
      continued = false;
      const { request, line, hostMissing } = read;
      const answered = sleep(layer.storeMs?.(request) ?? 0).then(() => (hostMissing && layer.host !== 'ignored' ? errorResponse(400, 'an HTTP/1.1 request needs a Host field') : (layer.answer?.(request, line, app) ?? app.request(request))));
      const before = previous;
      const written = (layer.answerOrder === 'arrival' ? before.then(() => answered) : answered).then((answer) => {
        if (answer === 'die') return running.close();
        if (socket.destroyed) return;
        socket.write(answerBytes(answer, close));
        if (close) socket.end();
      });
      previous = written;
    };
    // The answer to a message that cannot be read, after those before it; the connection closes (RFC 9112, section 2.2).
    const refuse = (status: number, message: string): void => {
      buffer = Buffer.alloc(0);
      previous = previous.then(() => {
        if (!socket.destroyed) socket.end(answerBytes(errorResponse(status, message), true));
      });
    };
    // A 100 (Continue) as soon as the head asks for it (RFC 9110, section 10.1.1); 417 to another expectation.
    const onHead = (version: string, headers: Record<string, string>): void => {
      const expect = (headers.expect ?? '').toLowerCase();
      if (expect !== '' && expect !== '100-continue') {
        if (reading.otherExpectations === 'switch-throws') throw new Error(`unsupported expectation ${expect}`);
        throw new Unreadable(417, `expectation ${expect} cannot be met`);
      }
      if (continued || expect !== '100-continue') return;
      if (version === 'HTTP/1.1' || reading.expectContinue === 'any-version') socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      continued = true;
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = reading.reads === 'one-read' ? chunk : Buffer.concat([buffer, chunk]);
      try {
        for (let next = readRequest(buffer, reading, onHead); next !== undefined; next = readRequest(buffer, reading, onHead)) {
          buffer = layer.bytesAfterRequest === 'kept' ? buffer.subarray(next.end) : Buffer.alloc(0);
          handle(next.read);
        }
        if (reading.reads === 'one-read' && buffer.length > 0) throw new Unreadable(400, 'an incomplete request');
      } catch (error) {
        // A hand-written layer's own exception (a TypeError) answers 500, as a framework's catch-all does.
        if (error instanceof Unreadable) refuse(error.status, error.message);
        else refuse(500, error instanceof Error ? error.message : String(error));
      }
    });
  };
  // Read only once a request came: the server is listening by then.
  const running = await listenRaw(serve);
  return running;
}

/** A node:net server on a loopback port, each connection given to `serve`; closing it destroys them all. */
export async function listenRaw(serve: (socket: Socket) => void): Promise<{ readonly url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    serve(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Correct: what a careful hand-written layer does. */
export const CAREFUL_LAYER: RawLayer = { clientClose: 'honoured', bytesAfterRequest: 'kept', answerOrder: 'arrival' };

/** A tagged plant is two inserts (the plant, its tag), an untagged one a single insert, 5 ms each. */
export function insertsMs(request: AppRequest): number {
  try {
    const body: unknown = JSON.parse(Buffer.from(request.body ?? []).toString('utf8'));
    return typeof body === 'object' && body !== null && 'tag' in body ? 10 : 5;
  } catch {
    return 0;
  }
}
