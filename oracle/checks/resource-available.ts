/**
 * `resource-available`: after a create whose success declares a link to a read, the read the link
 * leads to answers the resource that was created. The link's meaning (OpenAPI 3.1, section
 * 4.8.20: the value of the create's answer names the resource of the target operation) and GET's
 * (RFC 9110, section 9.3.1: a transfer of the target resource's current representation) together:
 * a 2xx whose body has every property the create sent, exactly (int64 digit for digit), and the
 * key the create sent or the server assigned, unchanged. A 404 or
 * another 4xx means the created resource is not there. A server may add properties. After writes
 * of the resource in flight together (the overlap phase), the read answers one of them, not a mix.
 *
 * A read the contract lets the target refuse (`lenient`: the capacity phase reads back plants
 * stored thousands of plants before, which a bounded store may have forgotten) warns of a 4xx;
 * what it answers once it answers a 2xx is held as exactly as any read.
 */
import { exchangeCheck, warning } from '../check.js';
import { along, endsSequence, keyDifference, linkJudgement, resourceDifferences, unresolvedJudgement } from '../linked.js';
import { excerpt } from '../messages.js';

export const resourceAvailable = exchangeCheck({
  name: 'resource-available',
  description: 'after a create, the read its link leads to answers 2xx with the resource created: every property sent, exactly, int64 digit for digit, and its key as the create gave it (the link; RFC 9110 §9.3.1 GET); after writes of it in flight together, one of them, never a mix',
  skippedUnder: { mock: 'a mock stores nothing, so it cannot answer with what was created' },
  applies: (request, outcome) => endsSequence(request, outcome, 'created'),
  judge: (request, outcome, { contract }) => {
    const step = request.link;
    if (outcome.kind !== 'response' || step === undefined) return [];
    if (step.unresolved !== undefined) return unresolvedJudgement(request);
    if (outcome.status < 200 || outcome.status >= 300) {
      const message = `${along(request)} got ${outcome.status}, not the resource created; body: ${excerpt(outcome.body)}`;
      return [request.lenient === undefined ? linkJudgement(step, message) : warning(`${message} (allowed: ${request.lenient})`)];
    }
    // After writes in flight together, any one of them is the resource (LinkStep.alternatives).
    const each = [step.resource ?? '{}', ...(step.alternatives ?? [])].map((resource) => resourceDifferences(contract, request, outcome, resource));
    const key = keyDifference(request, outcome).map((difference) => linkJudgement(step, `${along(request)}: ${difference}`));
    if (each.some((differences) => differences.length === 0)) return key;
    const mix = step.alternatives === undefined ? '' : ` (none of the ${step.alternatives.length + 1} writes in flight together: a mix of them)`;
    return [...key, ...(each[0] ?? []).map((difference) => linkJudgement(step, `${along(request)}: ${difference}${mix}`))];
  },
});
