/** What an outcome shows beyond its status: a server error, a body the client could not decode, bytes after it, an answer cut short of its length. */
import { isJsonObject } from '../src/openapi/index.js';
import { decodeJson } from './json-values.js';
import { isJsonMediaType } from './media-types.js';
import type { ExtraBytes, HttpOutcome } from './types.js';

/** A 5xx, or no response at all: `no-server-error`'s business, so the other checks stay quiet about it. */
export function isServerError(outcome: HttpOutcome): boolean {
  return outcome.kind === 'failure' || outcome.status >= 500;
}

/** Whether the client could not undo the answer's coding: its body is then not what the checks of content can read. */
export function bodyUnreadable(outcome: HttpOutcome): boolean {
  return outcome.kind === 'response' && outcome.wire?.undecodable !== undefined;
}

/** Whether bytes begin an HTTP/1.x status line: a second answer rather than the rest of a body. */
export function startsAnAnswer(extra: ExtraBytes): boolean {
  return Buffer.from(extra.bytes.subarray(0, 5)).toString('latin1') === 'HTTP/';
}

/**
 * Whether an answer's body, as its framing delimits it, is a complete JSON text that ends itself
 * (an object, an array or a string: nothing after its last byte can belong to it). Bytes that
 * follow such a body were not cut off from it by a Content-Length too short: they are stray bytes
 * after a complete answer (a second answer without a head - Python's http.server answers a request
 * line it cannot read so - or garbage), `one-answer-per-request`'s finding, not `content-length`'s.
 */
export function endsItself(outcome: HttpOutcome): boolean {
  if (outcome.kind !== 'response' || !isJsonMediaType(outcome.headers['content-type'])) return false;
  const parsed = decodeJson(outcome.body);
  return 'value' in parsed && (typeof parsed.value === 'string' || Array.isArray(parsed.value) || isJsonObject(parsed.value));
}

/** When extra bytes came after the answer, for messages: `at once`, `42.5 ms later, while the kept-alive connection was idle`. */
export function whenExtra(extra: ExtraBytes): string {
  if (extra.seen === 'before-next') return 'found when the connection carried its next request';
  const later = extra.afterMs < 1 ? 'at once' : `${extra.afterMs.toFixed(1)} ms later`;
  return extra.seen === 'idle' ? `${later}, while the kept-alive connection was idle` : later;
}

/**
 * A failed exchange whose answer stopped short of its Content-Length although what came is a
 * complete JSON text: the declared length, not the body, is wrong (`content-length`'s finding,
 * not a crash of the target).
 */
export function stopsShortOfItsLength(outcome: HttpOutcome): boolean {
  if (outcome.kind !== 'failure' || outcome.partial === undefined) return false;
  const { contentLength, body, framing } = outcome.partial;
  return framing === 'content-length' && contentLength !== undefined && body.length > 0 && body.length < contentLength && 'value' in decodeJson(body);
}
