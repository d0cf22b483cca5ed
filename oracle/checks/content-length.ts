/**
 * `content-length`: a Content-Length is the length of the body (RFC 9112, sections 6.3 and 8).
 * Too short, the rest of the body stays on the connection and is read as the start of the next
 * answer; too long, the client waits for bytes that never come until its deadline or the close.
 * The finding is the answer's that declared the length, not the next request's: the client
 * watches the connection after each answer (http-client.ts). And a message never carries both
 * Content-Length and Transfer-Encoding (RFC 9112, section 6.2).
 */
import { exchangeCheck, failure, type Judgement } from '../check.js';
import { endsItself, startsAnAnswer, stopsShortOfItsLength, whenExtra } from '../answer-facts.js';
import { describeRequest, excerpt } from '../messages.js';

export const contentLength = exchangeCheck({
  name: 'content-length',
  description: 'the Content-Length is the length of the body, neither shorter (the rest corrupts the next answer) nor longer (the client hangs) (RFC 9112, sections 6.3 and 8); never together with Transfer-Encoding',
  applies: (_request, outcome) => outcome.kind === 'response' || stopsShortOfItsLength(outcome),
  judge: (request, outcome) => {
    if (outcome.kind === 'failure') {
      if (!stopsShortOfItsLength(outcome) || outcome.partial === undefined) return [];
      const { contentLength: declared = 0, body, status } = outcome.partial;
      const then = outcome.failure === 'timeout' ? 'nothing more came until the deadline' : 'the connection closed';
      return [
        failure(
          `Content-Length: ${declared}, but the body is a complete JSON text of ${body.length} bytes and ${then} (RFC 9112, section 8: a body shorter than its Content-Length is incomplete; clients hang or fail); status ${status}: ${excerpt(body)}; ${describeRequest(request)}`,
        ),
      ];
    }
    const wire = outcome.wire;
    if (wire === undefined) return [];
    const judgements: Judgement[] = [];
    if (wire.lengthWithTransferEncoding === true) {
      judgements.push(failure(`the answer (status ${outcome.status}) has both Transfer-Encoding and Content-Length: a sender MUST NOT send both (RFC 9112, section 6.2), and a recipient must treat it as a possible request smuggling attempt (section 6.3); ${describeRequest(request)}`));
    }
    const extra = wire.extraBytes;
    // After a body that ends itself the length was right: the bytes are stray (one-answer-per-request).
    if (extra !== undefined && wire.framing === 'content-length' && !startsAnAnswer(extra) && !endsItself(outcome)) {
      judgements.push(
        failure(
          `Content-Length: ${wire.contentLength ?? ''}, but ${extra.length} more ${extra.length === 1 ? 'byte' : 'bytes'} followed the body (${whenExtra(extra)}): ${excerpt(extra.bytes, 80)} - the body is longer than its Content-Length (RFC 9112, sections 6.3 and 8: the rest is read as the start of the next answer on the connection); status ${outcome.status}; ${describeRequest(request)}`,
        ),
      );
    }
    return judgements;
  },
});
