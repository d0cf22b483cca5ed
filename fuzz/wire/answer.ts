/**
 * Reading an answer into an outcome: the body decoded (content codings, then transfer codings),
 * the wire facts the checks read, and the words for an answer that did not come whole.
 */
import { codingList, codingName, decodeCodings, type ExtraBytes, type HttpOutcome, type NeighbourRequest, type PartialResponse, type TransportFailure, type WireFacts } from '../../oracle/index.js';
import type { ResponseReader } from './http-wire.js';
import type { Writable } from '../writable.js';
import { extraOf } from './late-bytes.js';

/** A socket error as a transport failure. */
export function failureOfError(error: NodeJS.ErrnoException): TransportFailure {
  const code = error.code ?? '';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  return 'error';
}

/** What came of an answer that did not come whole: its head and the body so far, if the head came. */
export function partialOf(reader: ResponseReader, maxBytes: number): { partial?: PartialResponse } {
  const head = reader.head;
  if (head === undefined) return {};
  return {
    partial: { status: head.status, headers: head.headers, framing: head.framing, ...(head.contentLength === undefined ? {} : { contentLength: head.contentLength }), body: Uint8Array.from(reader.body.subarray(0, maxBytes)) },
  };
}

/** The connection closed before the answer was complete: how far it got. */
export function closedMessage(reader: ResponseReader): string {
  const what = reader.head === undefined ? 'before the response was complete' : `after ${reader.bodyLength} bytes of the body${reader.head.contentLength === undefined ? '' : ` (Content-Length: ${reader.head.contentLength})`}`;
  return `the connection closed ${what}`;
}

/** No complete answer within the deadline: how far it got. */
export function timeoutMessage(reader: ResponseReader, timeoutMs: number): string {
  const what = reader.head === undefined ? '' : ` (the head came; ${reader.bodyLength} bytes of the body${reader.head.contentLength === undefined ? '' : ` of ${reader.head.contentLength}`})`;
  return `no complete response within ${timeoutMs} ms${what}`;
}

/** What the client knows of an exchange besides its answer's bytes. */
export interface AnswerFacts {
  readonly connection: number;
  /** Exchanges completed on the connection before this one. */
  readonly exchangesBefore: number;
  readonly others: NeighbourRequest[];
  readonly started: number;
  readonly endedAt: number;
  /** Bytes after the answer, while it settled, and when the first came. */
  readonly extra: readonly Buffer[];
  readonly extraAt: number | undefined;
  readonly maxBytes: number;
  /** The connection was still open this long after the answer to a request that asked the server to close it. */
  readonly leftOpenMs?: number;
}

/** A complete answer (the reader has its head) as an outcome, with the bytes after it if any. */
export function answerOf(reader: ResponseReader, facts: AnswerFacts): { readonly outcome: HttpOutcome; readonly extraBytes: ExtraBytes | undefined } {
  const head = reader.head;
  if (head === undefined) throw new TypeError('an answer without its head');
  const received = reader.body;
  const contentCodings = codingList(head.headers['content-encoding']).filter((c) => c !== 'identity');
  const transferCodings = head.transferCodings.filter((c) => c !== 'chunked').map(codingName);
  // Content codings were applied first, transfer codings after them (RFC 9112, section 7).
  const decoded = contentCodings.length + transferCodings.length === 0 ? { body: received, rawDeflate: false } : decodeCodings([...contentCodings, ...transferCodings], received, facts.maxBytes);
  const { endedAt } = facts;
  const extraChunks = [reader.rest, ...facts.extra].filter((b) => b.length > 0);
  const extraBytes = extraChunks.length === 0 ? undefined : extraOf(extraChunks, (reader.rest.length > 0 ? endedAt : (facts.extraAt ?? endedAt)) - endedAt, 'settling');
  const wire: Writable<WireFacts> = { connection: facts.connection, exchangesBefore: facts.exchangesBefore, framing: head.framing, receivedLength: received.length, contentCodings, transferCodings, others: facts.others };
  if (head.contentLength !== undefined) wire.contentLength = head.contentLength;
  if (head.lengthWithTransferEncoding) wire.lengthWithTransferEncoding = true;
  if ('error' in decoded) wire.undecodable = decoded.error;
  if ('rawDeflate' in decoded && decoded.rawDeflate) wire.rawDeflate = true;
  if (extraBytes !== undefined) wire.extraBytes = extraBytes;
  if (facts.leftOpenMs !== undefined) wire.leftOpenMs = facts.leftOpenMs;
  if (head.version === '1.0') wire.version = '1.0';
  if (reader.senderFaults.length > 0) wire.senderFaults = [...reader.senderFaults];
  if (reader.senderWarnings.length > 0) wire.senderWarnings = [...reader.senderWarnings];
  if (reader.interim > 0) wire.interim = reader.interim;
  const durationMs = endedAt - facts.started;
  const outcome: HttpOutcome =
    'error' in decoded && decoded.oversized === true
      ? { kind: 'failure', failure: 'oversized-response', message: decoded.error, durationMs }
      : { kind: 'response', status: head.status, headers: head.headers, body: 'body' in decoded ? decoded.body : received, durationMs, wire };
  return { outcome, extraBytes };
}
