/**
 * `one-answer-per-request`: every request gets one answer, its own. On a kept-alive connection
 * answers come one per request, in order (RFC 9112, section 9.3): a second answer nobody asked
 * for, or any bytes after an answer that no framing accounts for, shift every later answer on the
 * connection onto the wrong request. The engine's client sees them where they come - right after
 * the answer, on the idle connection, or in front of the next answer - and reports them against
 * the answer they followed (http-client.ts). And an answer is its own request's: a success that
 * carries exactly what another request sent (the one before it on the connection, or one in
 * flight at the same time) instead of what its request sent was delivered to the wrong request -
 * a shared variable between requests, a connection out of step.
 */
import { exchangeCheck, failure, type Judgement } from '../check.js';
import type { NeighbourRequest } from '../types.js';
import { endsItself, startsAnAnswer, whenExtra } from '../answer-facts.js';
import { echoDifferences, misdelivered } from '../echo-differences.js';
import { show } from '../json-values.js';
import { describeRequest, excerpt } from '../messages.js';

/** Which other request an answer went to, for people. */
const WHOSE: Readonly<Record<NeighbourRequest['relation'], (connection: number) => string>> = {
  previous: () => 'the request sent before it on the same connection',
  concurrent: (connection) => `a request in flight at the same time (on connection #${connection})`,
  pipelined: () => 'another request pipelined with it on one connection (RFC 9112, section 9.3.2: answers come in the order of the requests)',
};

export const oneAnswerPerRequest = exchangeCheck({
  name: 'one-answer-per-request',
  description: 'every request gets exactly one answer, its own: no second answer or stray bytes after it on the connection (RFC 9112, section 9.3), no answer carrying what another request sent',
  applies: (_request, outcome) => outcome.kind === 'response',
  judge: (request, outcome, { contract, profile }) => {
    if (outcome.kind !== 'response' || outcome.wire === undefined) return [];
    const wire = outcome.wire;
    const judgements: Judgement[] = [];
    const extra = wire.extraBytes;
    // Bytes after a Content-Length body that are not an answer are content-length's finding,
    // unless the body ends itself (a complete JSON object): then nothing was cut off from it.
    if (extra !== undefined && (startsAnAnswer(extra) || wire.framing !== 'content-length' || endsItself(outcome))) {
      const first = Buffer.from(extra.bytes).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
      const what = startsAnAnswer(extra) ? `a second answer nobody asked for ("${first.slice(0, 60)}")` : `${extra.length} bytes that no framing accounts for (${excerpt(extra.bytes, 60)})`;
      judgements.push(
        failure(`after the answer to this request (status ${outcome.status}), ${what} came on the connection (${whenExtra(extra)}): each request gets one answer (RFC 9112, section 9.3), or every later answer on the connection goes to the wrong request; ${describeRequest(request)}`),
      );
    }
    // A mock answers its examples, whoever asks: only a real implementation's answers carry what was sent.
    if (profile !== 'mock' && request.content === 'valid' && request.credentials === 'valid' && outcome.status >= 200 && outcome.status < 300) {
      const other = misdelivered(contract, request, outcome);
      if (other !== undefined) {
        const whose = WHOSE[other.relation](other.connection);
        const own = (echoDifferences(contract, request, outcome) ?? []).map((d) => `${d.key}: sent ${show(d.sent)}, got ${show(d.got)}`).join('; ');
        judgements.push(failure(`the answer (status ${outcome.status}) is the one for ${whose}, not for this request (${own}): answers went to the wrong requests; ${describeRequest(request)}`));
      }
    }
    return judgements;
  },
});
