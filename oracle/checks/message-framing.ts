/**
 * `message-framing`: the answer is framed as RFC 9112 says a sender must frame it. The engine's
 * reader is as lenient as a recipient may be (it reads a bare LF, obs-fold, a repeated
 * Content-Length), and notes what a sender MUST NOT send (WireFacts.senderFaults): each is a
 * finding here, for other recipients (proxies, stricter clients) refuse or misread it. A `Date`,
 * where there is one, is an IMF-fixdate (RFC 9110, section 5.6.7: a sender MUST generate that form).
 * And the connection ends as the request asked: after the answer to a request that said
 * `Connection: close`, the server closes it (RFC 9112, section 9.6: it MUST initiate closure), or
 * a client that waits for the close, as HTTP/1.0-era clients and scripts reading to the end do,
 * hangs; the engine waits the request's timeout for it (WireFacts.leftOpenMs).
 * What a sender may do is not judged: 1xx answers before the final one, a body delimited by the
 * close, trailers, any reason phrase.
 */
import { exchangeCheck, failure, type Judgement } from '../check.js';
import { describeRequest } from '../messages.js';
import { imfFixdateProblem } from '../imf-fixdate.js';

export const messageFraming = exchangeCheck({
  name: 'message-framing',
  description: 'the answer is framed as a sender must: CRLF line ends (RFC 9112, section 2.2), no obs-fold (section 5.2), one Content-Length (RFC 9110, section 8.6), no Transfer-Encoding to HTTP/1.0 (section 6.1), chunks framed by section 7.1; a Date in IMF-fixdate (RFC 9110, section 5.6.7); the connection closed after the answer to Connection: close (RFC 9112, section 9.6)',
  applies: (_request, outcome) => outcome.kind === 'response',
  judge: (request, outcome) => {
    if (outcome.kind !== 'response') return [];
    const judgements: Judgement[] = (outcome.wire?.senderFaults ?? []).map((fault) => failure(`${fault}; status ${outcome.status}; ${describeRequest(request)}`));
    const date = outcome.headers.date;
    const problem = date === undefined ? undefined : imfFixdateProblem(date);
    const leftOpen = outcome.wire?.leftOpenMs;
    if (leftOpen !== undefined) {
      judgements.push(failure(`the request said Connection: close, and the connection was still open ${Math.round(leftOpen)} ms after the answer (RFC 9112, section 9.6: a server that receives "close" MUST initiate closure after its final response); status ${outcome.status}; ${describeRequest(request)}`));
    }
    if (problem !== undefined) judgements.push(failure(`Date: ${JSON.stringify(date)} is not an IMF-fixdate (${problem}; RFC 9110, section 5.6.7: a sender MUST generate e.g. "Sun, 06 Nov 1994 08:49:37 GMT"); status ${outcome.status}; ${describeRequest(request)}`));
    return judgements;
  },
});
