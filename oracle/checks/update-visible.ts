/**
 * `update-visible`: after an update by PATCH (RFC 5789), a read of the resource answers the
 * resource merged with the patch. For `application/merge-patch+json`, RFC 7396 section 2 says
 * how: a member of the patch replaces the target's (null removes it), and every member the patch
 * does not name is kept - a PATCH that replaces the whole resource is caught here. For a partial
 * JSON object the same, member by member (a null member's meaning is left to the server). The key
 * stays as the create gave it. A server may add properties.
 */
import { exchangeCheck } from '../check.js';
import { along, endsSequence, keyDifference, linkJudgement, resourceDifferences, unresolvedJudgement } from '../linked.js';
import { excerpt } from '../messages.js';

export const updateVisible = exchangeCheck({
  name: 'update-visible',
  description: 'after a PATCH, a read of the resource answers it merged with the patch: members the patch names changed, the others kept, the key unchanged (RFC 5789 PATCH; RFC 7396 §2 merge patch)',
  skippedUnder: { mock: 'a mock stores nothing, so it cannot answer with an update' },
  applies: (request, outcome) => endsSequence(request, outcome, 'updated'),
  judge: (request, outcome, { contract }) => {
    const step = request.link;
    if (outcome.kind !== 'response' || step === undefined) return [];
    if (step.unresolved !== undefined) return unresolvedJudgement(request);
    if (outcome.status < 200 || outcome.status >= 300) return [linkJudgement(step, `${along(request)} got ${outcome.status}, not the updated resource; body: ${excerpt(outcome.body)}`)];
    const differences = [...keyDifference(request, outcome), ...resourceDifferences(contract, request, outcome, step.resource ?? '{}').map((difference) => `${difference} (the resource created, merged with the patch)`)];
    return differences.map((difference) => linkJudgement(step, `${along(request)}: ${difference}`));
  },
});
