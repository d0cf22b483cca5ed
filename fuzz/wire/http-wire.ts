/**
 * HTTP/1.1 on the wire for the engine's client: a request written byte for byte, and a strict,
 * incremental reader of one response (RFC 9112: the status line, the field lines, and the three
 * ways a body ends - a Content-Length, the chunked coding, the close of the connection; section
 * 6.3). The reader says where the answer ended, so whatever follows it on the connection is seen
 * and judged instead of being dropped or read as the next answer (see http-client.ts for why
 * node:http and undici cannot show that).
 */
import type { Framing, RequestFraming } from '../../oracle/index.js';
import type { Writable } from '../writable.js';
import { foldedLine, readChunkSizeLine, readContentLength, readFieldLine, readStatusLine, readTransferEncoding, TOKEN, WireError, type Breach, type Note } from './answer-grammar.js';

export { WireError } from './answer-grammar.js';

export interface ResponseHead {
  readonly version: '1.0' | '1.1';
  readonly status: number;
  /** Lower-case names; repeated fields joined with `, ` (RFC 9110, section 5.3). */
  readonly headers: Record<string, string>;
  readonly framing: Framing;
  readonly contentLength?: number;
  readonly lengthWithTransferEncoding: boolean;
  /** Transfer codings, chunked included, in the order applied. */
  readonly transferCodings: readonly string[];
  /** Whether the connection may carry another request after this answer (RFC 9112, section 9.3). */
  readonly persistent: boolean;
}

export interface ReaderOptions {
  /** The request's method: the answer to a HEAD has no body (RFC 9112, section 6.3). */
  readonly method: string;
  /** A head (status line and fields) larger than this is refused. Default 64 KiB. */
  readonly maxHeadBytes?: number;
  /** A body larger than this (as received, before decoding) is refused. */
  readonly maxBodyBytes: number;
  /**
   * On a reused connection: bytes in front of the status line that end where an `HTTP/1.` status
   * line begins are taken as left over from the previous answer (a Content-Length too short)
   * and kept in `leftover`, instead of making this answer unreadable.
   */
  readonly allowLeftover?: boolean;
  /** The request's HTTP version: an answer to HTTP/1.0 carries no Transfer-Encoding (RFC 9112, section 6.1). Default 1.1. */
  readonly requestVersion?: '1.0' | '1.1';
}

const CR = 0x0d;
const LF = 0x0a;
const DEFAULT_MAX_HEAD_BYTES = 64 * 1024;
/** No bytes: one buffer for every reader (nothing is ever written into it), not one made per push. */
const NOTHING: Buffer = Buffer.alloc(0);
/** A chunk-size line with its extensions (RFC 9112, section 7.1.1) longer than this is refused. */
const MAX_CHUNK_LINE = 4096;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done';

/**
 * Reads one response from the bytes of a connection, as they come. `push` throws a WireError when
 * the bytes are not a response; `complete` turns true at the end of the answer, and `rest` then
 * holds whatever came after it; `end` says the connection closed.
 */
export class ResponseReader {
  head: ResponseHead | undefined;
  complete = false;
  /** Bytes received after the end of the answer. */
  rest: Buffer = NOTHING;
  /** Bytes in front of the status line, left over from the previous answer (see ReaderOptions.allowLeftover). */
  leftover: Buffer | undefined;
  /** Interim (1xx) responses skipped before the final one (RFC 9110, section 15.2). */
  interim = 0;
  /** Whether any byte of the answer came. */
  started = false;
  /**
   * What the answer's sender MUST NOT generate but a recipient may still read, each said once with
   * the section it breaks (answer-grammar.ts: a bare LF line end, obs-fold, whitespace before a
   * colon, a control character in a value, a repeated Content-Length...): `message-framing`'s failures.
   */
  readonly senderFaults: string[] = [];
  /** The same, for breaches that cost a client nothing (Content-Length: 0 on a 204): `message-framing`'s warnings. */
  readonly senderWarnings: string[] = [];

  readonly #options: ReaderOptions;
  readonly #maxHead: number;
  #state: State = 'head';
  #pending: Buffer = NOTHING;
  readonly #body: Buffer[] = [];
  #bodyLength = 0;
  /** Bytes of the current chunk (or of a Content-Length body) still to come. */
  #remaining = 0;

  constructor(options: ReaderOptions) {
    this.#options = options;
    this.#maxHead = options.maxHeadBytes ?? DEFAULT_MAX_HEAD_BYTES;
  }

  /** The body as received so far (chunked framing removed, codings not decoded). */
  get body(): Buffer {
    return this.#body.length === 1 ? (this.#body[0] as Buffer) : Buffer.concat(this.#body, this.#bodyLength);
  }

  get bodyLength(): number {
    return this.#bodyLength;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.started = true;
    if (this.#state === 'done') {
      this.rest = Buffer.concat([this.rest, chunk]);
      return;
    }
    let data = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = NOTHING;
    while (data.length > 0 && !this.complete) data = this.#step(data);
    if (this.complete && data.length > 0) this.rest = Buffer.concat([this.rest, data]);
  }

  /** The connection closed. Returns whether the answer is complete: a body delimited by the close ends here. */
  end(): boolean {
    if (this.#state === 'close') this.#finish();
    return this.complete;
  }

  /** Consumes what it can of `data` and returns the rest. */
  #step(data: Buffer): Buffer {
    switch (this.#state) {
      case 'head':
        return this.#readHead(data);
      case 'length': {
        const rest = this.#take(data);
        if (this.#remaining === 0) this.#finish();
        return rest;
      }
      case 'close':
        this.#addBody(data);
        return data.subarray(data.length);
      case 'chunk-size':
        return this.#readChunkSize(data);
      case 'chunk-data': {
        const rest = this.#take(data);
        if (this.#remaining === 0) this.#state = 'chunk-end';
        return rest;
      }
      case 'chunk-end':
        return this.#readChunkEnd(data);
      case 'trailers':
        return this.#readTrailers(data);
      case 'done':
        return data;
    }
  }

  /** Up to `#remaining` bytes of `data` into the body; returns the rest. */
  #take(data: Buffer): Buffer {
    const take = Math.min(this.#remaining, data.length);
    this.#addBody(data.subarray(0, take));
    this.#remaining -= take;
    return data.subarray(take);
  }

  #addBody(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#bodyLength += bytes.length;
    if (this.#bodyLength > this.#options.maxBodyBytes) throw new WireError('oversized-response', `the response body went past ${this.#options.maxBodyBytes} bytes`);
    this.#body.push(bytes);
  }

  /** Notes a sender's fault once. */
  #fault(message: string): void {
    this.#note({ message });
  }

  readonly #note: Note = (breach: Breach): void => {
    const list = breach.warning === true ? this.senderWarnings : this.senderFaults;
    if (!list.includes(breach.message)) list.push(breach.message);
  };

  #finish(): void {
    this.#state = 'done';
    this.complete = true;
  }

  /** A line ending in LF (a CR before it is dropped: RFC 9112, section 2.2), or undefined when it has not all come. */
  #line(data: Buffer, from: number, max: number, what: string): { line: string; next: number } | undefined {
    const lf = data.indexOf(LF, from);
    if (lf === -1) {
      if (data.length - from > max) throw new WireError(what === 'head' ? 'oversized-response' : 'malformed-response', `a ${what} line longer than ${max} bytes`);
      return undefined;
    }
    const end = lf > from && data[lf - 1] === CR ? lf - 1 : lf;
    // A recipient MAY read a bare LF as a line end; a sender MUST NOT send one (RFC 9112, section 2.2).
    if (end === lf) this.#fault(`a ${what} line ended by a bare LF, not CRLF (RFC 9112, section 2.2)`);
    // A CR anywhere else is not a line ending: the grammar of the line's element notes it (RFC 9112, section 2.2).
    return { line: data.toString('latin1', from, end), next: lf + 1 };
  }

  #readHead(data: Buffer): Buffer {
    // Bytes that cannot begin a status line are refused at once, not after a whole head.
    if (this.#options.allowLeftover !== true && data.length >= 5 && data.toString('latin1', 0, 5) !== 'HTTP/') {
      throw new WireError('malformed-response', `not an HTTP/1.1 status line: ${JSON.stringify(data.toString('latin1', 0, Math.min(data.length, 40)))}`);
    }
    // The head ends at the first empty line.
    const lines: string[] = [];
    let at = 0;
    for (;;) {
      const read = this.#line(data, at, this.#maxHead, 'head');
      if (read === undefined) {
        if (data.length > this.#maxHead) throw new WireError('oversized-response', `the response head went past ${this.#maxHead} bytes`);
        this.#pending = data;
        return NOTHING;
      }
      at = read.next;
      if (read.line === '' && lines.length > 0) break;
      if (read.line === '' && lines.length === 0 && !this.#options.allowLeftover) throw new WireError('malformed-response', 'an empty line where the status line belongs');
      lines.push(read.line);
      if (at > this.#maxHead) throw new WireError('oversized-response', `the response head went past ${this.#maxHead} bytes`);
    }
    const first = lines[0] ?? '';
    if (!first.startsWith('HTTP/')) {
      // On a reused connection the bytes before the status line may be what the previous answer
      // left on it: then they end where this answer's status line begins.
      const start = this.#options.allowLeftover === true && this.leftover === undefined ? data.indexOf('HTTP/1.') : -1;
      if (start > 0 && start < at) {
        this.leftover = data.subarray(0, start);
        return this.#readHead(data.subarray(start));
      }
      throw new WireError('malformed-response', `not an HTTP/1.1 status line: ${JSON.stringify(first.slice(0, 80))}`);
    }
    const head = parseHead(lines, this.#options.method, this.#note);
    // A server MUST NOT send Transfer-Encoding unless the request is HTTP/1.1 or later (RFC 9112, section 6.1).
    if (this.#options.requestVersion === '1.0' && head.transferCodings.length > 0) this.#fault(`Transfer-Encoding: ${head.headers['transfer-encoding'] ?? ''} in the answer to an HTTP/1.0 request (RFC 9112, section 6.1: a server MUST NOT)`);
    if (head.status >= 100 && head.status < 200) {
      // Interim answers come before the final one (RFC 9110, section 15.2); 101 is never asked for.
      if (head.status === 101) throw new WireError('malformed-response', 'a 101 (Switching Protocols) that no request asked for');
      // An HTTP/1.0 client does not know 1xx (RFC 9110, section 15.2: a server MUST NOT send one to it).
      if (this.#options.requestVersion === '1.0') this.#fault(`a ${head.status} interim answer to an HTTP/1.0 request (RFC 9110, section 15.2: a server MUST NOT send a 1xx to an HTTP/1.0 client)`);
      this.interim++;
      return data.subarray(at);
    }
    this.head = head;
    switch (head.framing) {
      case 'none':
        this.#finish();
        break;
      case 'content-length':
        this.#remaining = head.contentLength ?? 0;
        if (this.#remaining > this.#options.maxBodyBytes) throw new WireError('oversized-response', `the response declares a body of ${this.#remaining} bytes, past ${this.#options.maxBodyBytes}`);
        if (this.#remaining === 0) this.#finish();
        else this.#state = 'length';
        break;
      case 'chunked':
        this.#state = 'chunk-size';
        break;
      case 'close':
        this.#state = 'close';
        break;
    }
    return data.subarray(at);
  }

  #readChunkSize(data: Buffer): Buffer {
    const read = this.#line(data, 0, MAX_CHUNK_LINE, 'chunk-size');
    if (read === undefined) {
      this.#pending = data;
      return NOTHING;
    }
    const length = readChunkSizeLine(read.line, this.#note);
    if (length === undefined) throw new WireError('malformed-response', `not a chunk size: ${JSON.stringify(read.line.slice(0, 80))}`);
    if (length === 0) this.#state = 'trailers';
    else {
      if (this.#bodyLength + length > this.#options.maxBodyBytes) throw new WireError('oversized-response', `the response body went past ${this.#options.maxBodyBytes} bytes`);
      this.#remaining = length;
      this.#state = 'chunk-data';
    }
    return data.subarray(read.next);
  }

  #readChunkEnd(data: Buffer): Buffer {
    // The data of a chunk is followed by CRLF; anything else means its size was wrong.
    if (data[0] === LF) {
      this.#fault('chunk data ended by a bare LF, not CRLF (RFC 9112, sections 2.2 and 7.1)');
      this.#state = 'chunk-size';
      return data.subarray(1);
    }
    if (data[0] !== CR) throw new WireError('malformed-response', 'a chunk longer than its chunk size');
    if (data.length < 2) {
      this.#pending = data;
      return NOTHING;
    }
    if (data[1] !== LF) throw new WireError('malformed-response', 'a chunk longer than its chunk size');
    this.#state = 'chunk-size';
    return data.subarray(2);
  }

  #readTrailers(data: Buffer): Buffer {
    // trailer-section, then the final CRLF (RFC 9112, section 7.1.2); trailer fields are read by their grammar, not used.
    let at = 0;
    for (;;) {
      const read = this.#line(data, at, this.#maxHead, 'trailer');
      if (read === undefined) {
        this.#pending = data.subarray(at);
        return NOTHING;
      }
      at = read.next;
      if (read.line === '') {
        this.#finish();
        return data.subarray(at);
      }
      if (read.line.startsWith(' ') || read.line.startsWith('\t')) foldedLine('trailer', this.#note);
      else readFieldLine(read.line, 'trailer', this.#note);
    }
  }
}

/** The field lines of a head by their grammar: lower-case names, repeated fields joined with `, ` (RFC 9110, section 5.3); Content-Length's values as sent. */
function readFields(lines: readonly string[], note: Note): { readonly headers: Record<string, string>; readonly contentLengths: string[] } {
  const headers: Record<string, string> = {};
  const contentLengths: string[] = [];
  let last: string | undefined;
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      // obs-fold: a user agent replaces it with SP (RFC 9112, section 5.2); before any field, the line is ignored (section 2.2).
      foldedLine(last, note);
      if (last !== undefined) headers[last] = `${headers[last] ?? ''} ${line.trim()}`;
      continue;
    }
    const field = readFieldLine(line, 'header', note);
    if (field === undefined) continue;
    last = field.name;
    if (last === 'content-length') contentLengths.push(...field.value.split(',').map((v) => v.trim()));
    headers[last] = headers[last] === undefined ? field.value : `${headers[last]}, ${field.value}`;
  }
  return { headers, contentLengths };
}

/** Status line and fields as RFC 9112 frames them, and how the body is delimited (section 6.3). */
function parseHead(lines: readonly string[], method: string, note: Note): ResponseHead {
  const { version, status: code } = readStatusLine(lines[0] ?? '', note);
  const { headers, contentLengths } = readFields(lines.slice(1), note);
  const transferCodings = readTransferEncoding(headers['transfer-encoding'], code, note);
  // An origin server with a clock MUST send Date in its 2xx, 3xx and 4xx (RFC 9110, section 6.6.1); one without a clock MUST NOT: a client loses nothing either way.
  if (code >= 200 && code < 500 && headers.date === undefined) note({ message: `no Date field in a ${code} (RFC 9110, section 6.6.1: an origin server with a clock MUST send one in its 2xx, 3xx and 4xx)`, warning: true });
  const options = (headers.connection ?? '')
    .split(',')
    .map((o) => o.trim().toLowerCase())
    .filter((o) => o !== '');
  // Several values are fine only when they are the same number (RFC 9110, section 8.6; RFC 9112, section 6.3, item 5).
  const declared = transferCodings.length > 0 && contentLengths.length > 0 ? undefined : readContentLength(contentLengths, headers['content-length'] ?? '', code, note);
  let framing: Framing;
  let contentLength: number | undefined;
  if (method.toUpperCase() === 'HEAD' || code === 204 || code === 304 || (code >= 100 && code < 200)) framing = 'none';
  else if (transferCodings.length > 0) framing = transferCodings[transferCodings.length - 1] === 'chunked' ? 'chunked' : 'close';
  else if (declared !== undefined) {
    framing = 'content-length';
    contentLength = declared;
  } else framing = 'close';
  const lengthWithTransferEncoding = transferCodings.length > 0 && contentLengths.length > 0;
  if (lengthWithTransferEncoding && /^[0-9]{1,15}$/.test(contentLengths[0] ?? '')) contentLength = Number(contentLengths[0]);
  // HTTP/1.1 keeps the connection unless `close`; HTTP/1.0 only with `keep-alive` (RFC 9112, section 9.3).
  // A body delimited by the close, or framed both ways (section 6.3, item 3), leaves nothing to reuse.
  const persistent = framing !== 'close' && !lengthWithTransferEncoding && !options.includes('close') && (version === '1.1' || options.includes('keep-alive'));
  const head: Writable<ResponseHead> = { version, status: code, headers, framing, lengthWithTransferEncoding, transferCodings, persistent };
  if (contentLength !== undefined) head.contentLength = contentLength;
  return head;
}

/** RFC 9110, section 5.5 as node:http enforces it: HTAB, visible ASCII, SP and obs-text; no CR, LF or NUL. */
const SENDABLE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The head of a request as the engine's client writes it (not src/http's RequestHead, the head a kit server received). */
export interface OutgoingHead {
  readonly method: string;
  /** Origin-form: path and query (RFC 9112, section 3.2.1). */
  readonly target: string;
  /** The Host field's value (RFC 9112, section 3.2). */
  readonly host: string;
  /** Lower-case names; a name with several values is sent on a line for each, in order (header-lines.ts). */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly bodyLength: number;
  /** Ask the server to close the connection after its answer (RFC 9112, section 9.6). */
  readonly close: boolean;
  /** Other framings than plain HTTP/1.1 with Host and Content-Length (see RequestFraming). */
  readonly framing?: RequestFraming;
}

/**
 * A request's head as bytes: the request line, Host (unless the request has its own), the fields
 * as given, Content-Length for the body as it is, and `Connection: close` when asked. A framing's
 * spelling (MessageSpelling) changes what RFC 9112's grammar lets it change, or breaks it on
 * purpose. Throws a TypeError for a field a request cannot carry (a name that is not a token, a CR
 * or LF in a value) where the spelling does not write it so on purpose.
 */
export function writeRequestHead(request: OutgoingHead): Buffer {
  if (!TOKEN.test(request.method)) throw new TypeError(`not a method: ${JSON.stringify(request.method)}`);
  // A target written exactly (RequestFraming.target) may hold what a target must not (a space, a control character), never a line end.
  const writable = request.framing?.target === undefined ? /^[\x21-\x7e]+$/ : /^[^\r\n]+$/;
  if (!writable.test(request.target)) throw new TypeError(`not a request target: ${JSON.stringify(request.target)}`);
  const framing = request.framing ?? {};
  const spelling = framing.spelling ?? {};
  const sp = spelling.separator ?? ' ';
  let head = `${'\r\n'.repeat(spelling.emptyLinesBefore ?? 0)}${request.method}${sp}${request.target}${sp}${spelling.version ?? `HTTP/${framing.version ?? '1.1'}`}\r\n`;
  const fields: [string, string][] = [];
  if (framing.noHost !== true && !Object.keys(request.headers).some((name) => name.toLowerCase() === 'host')) fields.push(['host', request.host]);
  for (const [name, values] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'connection' || lower === 'transfer-encoding') continue;
    for (const value of typeof values === 'string' ? [values] : values) fields.push([name, value]);
  }
  if (framing.expectContinue === true) fields.push(['expect', '100-continue']);
  if (spelling.expect !== undefined) fields.push(['expect', spelling.expect]);
  fields.push(...lengthFields(request, framing));
  if (request.close) fields.push(['connection', 'close']);
  else if (framing.keepAlive === true) fields.push(['connection', 'keep-alive']);
  const [before, after] = spelling.ows ?? ['', ''];
  for (const [name, value] of fields) {
    if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
    if (!SENDABLE_VALUE.test(value)) throw new TypeError(`invalid character in the ${name} header's value`);
    head += `${name}:${before === '' ? ' ' : before}${value}${after}\r\n`;
  }
  for (const line of spelling.fieldLines ?? []) head += `${line}\r\n`;
  return Buffer.from(`${head}\r\n`, 'latin1');
}

/**
 * How the body's length is said: Content-Length, or Transfer-Encoding: chunked (RFC 9112, section
 * 6.2: a sender MUST NOT send both); a spelling's own Content-Length values instead, beside
 * Transfer-Encoding where the body is chunked (a request a server MUST refuse or read by its
 * Transfer-Encoding, section 6.1).
 */
function lengthFields(request: OutgoingHead, framing: RequestFraming): [string, string][] {
  const lengths = (framing.spelling?.contentLength ?? []).map((value): [string, string] => ['content-length', value]);
  if (framing.chunked === true) return [['transfer-encoding', 'chunked'], ...lengths];
  return lengths.length > 0 ? lengths : [['content-length', String(request.bodyLength)]];
}
