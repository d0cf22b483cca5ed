/**
 * `replacement-visible`: after a linked replace, a read of the resource answers
 * the replacement. RFC 9110, section 9.3.4: a successful PUT means the state of the target resource
 * is replaced by the enclosed representation, so a later GET (section 9.3.1) transfers it: a 2xx
 * with every property the replace sent, exactly. A server may add properties.
 */
import { exchangeCheck } from '../check.js';
import { along, endsSequence, keyDifference, linkJudgement, resourceDifferences, unresolvedJudgement } from '../linked.js';
import { excerpt } from '../messages.js';

export const replacementVisible = exchangeCheck({
  name: 'replacement-visible',
  description: 'after a linked replace, a read of the resource answers the replacement: every property sent, exactly (RFC 9110 §9.3.4 PUT)',
  skippedUnder: { mock: 'a mock stores nothing, so it cannot answer with a replacement' },
  applies: (request, outcome) => endsSequence(request, outcome, 'replaced'),
  judge: (request, outcome, { contract }) => {
    const step = request.link;
    if (outcome.kind !== 'response' || step === undefined) return [];
    if (step.unresolved !== undefined) return unresolvedJudgement(request);
    if (outcome.status < 200 || outcome.status >= 300) return [linkJudgement(step, `${along(request)} got ${outcome.status}, not the replaced resource; body: ${excerpt(outcome.body)}`)];
    return [...keyDifference(request, outcome), ...resourceDifferences(contract, request, outcome, step.resource ?? '{}').map((difference) => `${difference} (the replacement)`)].map((difference) => linkJudgement(step, `${along(request)}: ${difference}`));
  },
});
