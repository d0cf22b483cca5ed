/**
 * `message-framing`: the answer is framed as RFC 9112 says a sender must frame it. The engine's
 * reader is as lenient as a recipient may be (it reads a bare LF, obs-fold, a repeated
 * Content-Length), and notes what a sender MUST NOT send (WireFacts.senderFaults): each is a
 * finding here, for other recipients (proxies, stricter clients) refuse or misread it. A `Date`,
 * where there is one, is an IMF-fixdate (RFC 9110, section 5.6.7: a sender MUST generate that form).
 * And the connection ends as the request asked: after the answer to a request that said
 * `Connection: close`, the server closes it (RFC 9112, section 9.6: it MUST initiate closure), or
 * a client that waits for the close, as HTTP/1.0-era clients and scripts reading to the end do,
 * hangs; the engine waits the request's timeout for it (WireFacts.leftOpenMs). The same after an
 * HTTP/1.0 request without keep-alive (section 9.3), and after one whose Content-Length is invalid
 * or beside Transfer-Encoding, which MUST close whatever the request said (sections 6.1, 6.3). No
 * interim (1xx) answer goes to an HTTP/1.0 request (RFC 9110, sections 15.2 and 10.1.1).
 * What a sender may do is not judged: 1xx answers before the final one, a body delimited by the
 * close, trailers, any reason phrase.
 */
import { exchangeCheck, failure, type Judgement } from '../check.js';
import { CLOSE_RULE, closeDemanded, describeRequest } from '../messages.js';
import { imfFixdateProblem } from '../imf-fixdate.js';

export const messageFraming = exchangeCheck({
  name: 'message-framing',
  description: 'the answer is framed as a sender must: CRLF line ends (RFC 9112, section 2.2), no obs-fold (section 5.2), one Content-Length (RFC 9110, section 8.6), no Transfer-Encoding to HTTP/1.0 (section 6.1), chunks framed by section 7.1; a Date in IMF-fixdate (RFC 9110, section 5.6.7); the connection closed after the answer to Connection: close (RFC 9112, section 9.6), to HTTP/1.0 without keep-alive (section 9.3) and to an invalid or doubled length (sections 6.1, 6.3); no 1xx to HTTP/1.0 (RFC 9110, section 15.2)',
  applies: (_request, outcome) => outcome.kind === 'response',
  judge: (request, outcome) => {
    if (outcome.kind !== 'response') return [];
    const judgements: Judgement[] = (outcome.wire?.senderFaults ?? []).map((fault) => failure(`${fault}; status ${outcome.status}; ${describeRequest(request)}`));
    const date = outcome.headers.date;
    const problem = date === undefined ? undefined : imfFixdateProblem(date);
    const leftOpen = outcome.wire?.leftOpenMs;
    if (leftOpen !== undefined) {
      const demand = closeDemanded(request) ?? { request: 'the request said Connection: close', rule: CLOSE_RULE };
      judgements.push(failure(`${demand.request}, and the connection was still open ${Math.round(leftOpen)} ms after the answer (${demand.rule}); status ${outcome.status}; ${describeRequest(request)}`));
    }
    const interim = outcome.wire?.interim;
    if (interim !== undefined && request.framing?.version === '1.0') {
      judgements.push(failure(`${interim} interim (1xx) answer${interim === 1 ? '' : 's'} before the final one to an HTTP/1.0 request (RFC 9110, section 15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client; section 10.1.1: it MUST ignore a 100-continue expectation in an HTTP/1.0 request); status ${outcome.status}; ${describeRequest(request)}`));
    }
    if (problem !== undefined) judgements.push(failure(`Date: ${JSON.stringify(date)} is not an IMF-fixdate (${problem}; RFC 9110, section 5.6.7: a sender MUST generate e.g. "Sun, 06 Nov 1994 08:49:37 GMT"); status ${outcome.status}; ${describeRequest(request)}`));
    return judgements;
  },
});
