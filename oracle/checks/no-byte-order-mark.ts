/**
 * `no-byte-order-mark`: no JSON answer starts with a byte order mark. RFC 8259, section 8.1:
 * implementations MUST NOT add one to the beginning of a networked-transmitted JSON text (and a
 * parser MAY reject it: JSON.parse and Go's encoding/json do). The other checks read past it
 * (decodeJson skips it), so the mark is reported here once, not as a broken body.
 */
import { exchangeCheck, failure } from '../check.js';
import { bodyUnreadable } from '../answer-facts.js';
import { operationOf } from '../declared.js';
import { isJsonMediaType } from '../media-types.js';
import { describeRequest } from '../messages.js';

const MARKS: readonly (readonly [string, readonly number[]])[] = [
  ['UTF-8', [0xef, 0xbb, 0xbf]],
  ['UTF-16 (big-endian)', [0xfe, 0xff]],
  ['UTF-16 (little-endian)', [0xff, 0xfe]],
];

/** The encoding whose byte order mark the body starts with, if any. */
export function byteOrderMark(body: Uint8Array): string | undefined {
  return MARKS.find(([, bytes]) => bytes.every((b, i) => body[i] === b))?.[0];
}

export const noByteOrderMark = exchangeCheck({
  name: 'no-byte-order-mark',
  description: 'no JSON answer starts with a byte order mark (RFC 8259, section 8.1: implementations MUST NOT add one)',
  // JSON answers: labelled JSON, or declared JSON for their status by the contract.
  applies: (request, outcome, { contract }) =>
    outcome.kind === 'response' && !bodyUnreadable(outcome) && (isJsonMediaType(outcome.headers['content-type']) || (operationOf(contract, request)?.response(outcome.status)?.mediaTypes.some((t) => isJsonMediaType(t)) ?? false)),
  judge: (request, outcome) => {
    if (outcome.kind !== 'response') return [];
    const mark = byteOrderMark(outcome.body);
    if (mark === undefined) return [];
    return [failure(`the JSON answer (status ${outcome.status}) starts with a ${mark} byte order mark; RFC 8259, section 8.1: implementations MUST NOT add one to JSON sent over a network (JSON.parse rejects it); ${describeRequest(request)}`)];
  },
});
