/**
 * `message-framing`: the answer is written as RFC 9112 and RFC 9110 say a sender must write it.
 * The engine's reader parses every answer by the grammars (fuzz/wire/answer-grammar.ts) and is as
 * lenient as a recipient may be; what a sender MUST NOT generate it notes with its section
 * (WireFacts.senderFaults: a bare LF, obs-fold, whitespace before a colon, a control character in
 * a value, a bad status line, a repeated Content-Length, a Content-Length or Transfer-Encoding in
 * a 204...), and each is a finding here, for other recipients (proxies, stricter clients) refuse
 * or misread it. The fields the oracle reads are held to their grammars (field-grammar.ts:
 * Content-Type, Allow, Location, Date). A 204 or 304 carries no content (RFC 9110, sections
 * 15.3.5 and 15.4.5): bytes after its head are. What costs a client nothing is a warning
 * (WireFacts.senderWarnings: no Date, which a server without a clock may leave out, RFC 9110,
 * section 6.6.1; a Content-Length: 0 on a 204). And the connection ends as the request asked: after the answer to a
 * request that said `Connection: close`, the server closes it (RFC 9112, section 9.6: it MUST
 * initiate closure), or a client that waits for the close, as HTTP/1.0-era clients and scripts
 * reading to the end do, hangs; the engine waits the request's timeout for it (WireFacts.leftOpenMs).
 * The same after an HTTP/1.0 request without keep-alive (section 9.3), and after one whose
 * Content-Length is invalid or beside Transfer-Encoding, which MUST close whatever the request
 * said (sections 6.1, 6.3).
 * What a sender may do is not judged: 1xx answers before the final one, a body delimited by the
 * close, trailers, chunk extensions, any reason phrase, obs-text in a value.
 */
import { exchangeCheck, failure, warning, type Judgement } from '../check.js';
import { startsAnAnswer } from '../answer-facts.js';
import { fieldGrammarProblems } from '../field-grammar.js';
import { CLOSE_RULE, closeDemanded, describeRequest } from '../messages.js';
import type { ResponseOutcome } from '../types.js';

/** Content in an answer that has none: a 204 or a 304 (RFC 9110, sections 15.3.5 and 15.4.5). */
function contentWhereNone(outcome: ResponseOutcome): string | undefined {
  const extra = outcome.wire?.extraBytes;
  if ((outcome.status !== 204 && outcome.status !== 304) || extra === undefined || startsAnAnswer(extra)) return undefined;
  const section = outcome.status === 204 ? '15.3.5' : '15.4.5';
  return `${extra.length} bytes of content after the head of a ${outcome.status}, which ends at its head (RFC 9110, section ${section}: a ${outcome.status} has no content; the bytes are read as the start of the next answer)`;
}

export const messageFraming = exchangeCheck({
  name: 'message-framing',
  description:
    'the answer is written as the grammars of RFC 9112 and RFC 9110 say a sender must: CRLF line ends (RFC 9112, section 2.2), the status line (section 4), field lines (section 5.1, no obs-fold 5.2; RFC 9110, section 5.5), one Content-Length and none in a 1xx or 204 (RFC 9110, section 8.6), Transfer-Encoding (section 6.1), chunks (section 7.1), no content in a 204 or 304; Content-Type, Allow, Location and Date by their grammars, Date sent (warning); the connection closed after the answer to Connection: close (RFC 9112, section 9.6), to HTTP/1.0 without keep-alive (section 9.3) and to an invalid or doubled length (sections 6.1, 6.3); no 1xx to HTTP/1.0 (RFC 9110, section 15.2)',
  applies: (_request, outcome) => outcome.kind === 'response',
  judge: (request, outcome) => {
    if (outcome.kind !== 'response') return [];
    const about = `status ${outcome.status}; ${describeRequest(request)}`;
    const judgements: Judgement[] = (outcome.wire?.senderFaults ?? []).map((fault) => failure(`${fault}; ${about}`));
    judgements.push(...(outcome.wire?.senderWarnings ?? []).map((fault) => warning(`${fault}; a client loses nothing by it; ${about}`)));
    judgements.push(...fieldGrammarProblems(outcome.headers).map((problem) => failure(`${problem}; ${about}`)));
    const content = contentWhereNone(outcome);
    if (content !== undefined) judgements.push(failure(`${content}; ${about}`));
    const leftOpen = outcome.wire?.leftOpenMs;
    if (leftOpen !== undefined) {
      const demand = closeDemanded(request) ?? { request: 'the request said Connection: close', rule: CLOSE_RULE };
      judgements.push(failure(`${demand.request}, and the connection was still open ${Math.round(leftOpen)} ms after the answer (${demand.rule}); ${about}`));
    }
    return judgements;
  },
});
