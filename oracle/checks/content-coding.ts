/**
 * `content-coding`: the answer is in a coding its request accepts, and one that can be read.
 * Without Accept-Encoding any coding is acceptable (RFC 9110, section 12.5.3) and the engine
 * decodes gzip, deflate and br itself; with one, a coding it does not list (or lists with q=0) is
 * not acceptable - a request that says `Accept-Encoding: identity` can read only an unencoded
 * answer, and the server can always send one (section 12.5.3: it SHOULD then answer without a
 * coding). A coding nobody can be expected to decode, or data that is not what its coding says,
 * leaves the answer unreadable; so does `deflate` sent as raw DEFLATE, which is not the zlib
 * format RFC 9110, section 8.4.1.2 names `deflate` (the engine reads it all the same, to judge the rest).
 */
import { acceptsCoding } from '../accept-encoding.js';
import { exchangeCheck, failure, warning, type Judgement } from '../check.js';
import { describeRequest } from '../messages.js';

export const contentCoding = exchangeCheck({
  name: 'content-coding',
  description: 'the answer is in a content coding the request accepts (RFC 9110, section 12.5.3: Accept-Encoding: identity means none) and that can be decoded (gzip, deflate, br)',
  applies: (_request, outcome) => outcome.kind === 'response',
  judge: (request, outcome) => {
    if (outcome.kind !== 'response' || outcome.wire === undefined) return [];
    const wire = outcome.wire;
    const acceptEncoding = request.headers['accept-encoding'];
    const judgements: Judgement[] = [];
    const refused = wire.contentCodings.filter((coding) => !acceptsCoding(acceptEncoding, coding));
    if (refused.length > 0) {
      judgements.push(
        failure(
          `Content-Encoding: ${outcome.headers['content-encoding'] ?? ''} answers a request with Accept-Encoding: ${acceptEncoding ?? ''}, which does not accept ${refused.join(', ')} (RFC 9110, section 12.5.3: the server SHOULD then answer without a coding, which it always can; this client cannot read it); status ${outcome.status}; ${describeRequest(request)}`,
        ),
      );
    } else if (wire.undecodable !== undefined) {
      judgements.push(failure(`the answer (status ${outcome.status}, Content-Encoding: ${outcome.headers['content-encoding'] ?? ''}${wire.transferCodings.length > 0 ? `, Transfer-Encoding: ${outcome.headers['transfer-encoding'] ?? ''}` : ''}) cannot be read: ${wire.undecodable}; ${describeRequest(request)}`));
    }
    if (wire.rawDeflate === true) {
      judgements.push(failure(`Content-Encoding: deflate is raw DEFLATE, not the zlib format RFC 9110, section 8.4.1.2 defines deflate to be (RFC 1950 around RFC 1951): zlib-based clients cannot read it; status ${outcome.status}; ${describeRequest(request)}`));
    }
    if (wire.transferCodings.length > 0 && wire.undecodable === undefined) {
      judgements.push(warning(`Transfer-Encoding: ${outcome.headers['transfer-encoding'] ?? ''} applies a transfer coding besides chunked that the request did not ask for (it sent no TE field, RFC 9110, section 10.1.4): most clients cannot read it; status ${outcome.status}; ${describeRequest(request)}`));
    }
    return judgements;
  },
});
