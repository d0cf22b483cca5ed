/**
 * `deleted-stays-deleted`: after a linked delete, a read of the same resource
 * answers 404 or another declared 4xx - never the resource. RFC 9110, section 9.3.5: DELETE
 * removes the association between the target resource and its current functionality; a later
 * GET (section 9.3.1) has no representation to transfer. A 5xx is no-server-error's, an
 * undeclared 4xx status-declared's.
 */
import { exchangeCheck } from '../check.js';
import { along, endsSequence, linkJudgement } from '../linked.js';
import { excerpt } from '../messages.js';

export const deletedStaysDeleted = exchangeCheck({
  name: 'deleted-stays-deleted',
  description: 'after a linked delete, a read of the resource answers 404 or another 4xx, never the resource (RFC 9110 §9.3.5 DELETE)',
  skippedUnder: { mock: 'a mock stores nothing, so a delete changes nothing it answers' },
  applies: (request, outcome) => endsSequence(request, outcome, 'gone'),
  judge: (request, outcome) => {
    const step = request.link;
    if (outcome.kind !== 'response' || step === undefined || outcome.status >= 300) return [];
    return [linkJudgement(step, `${along(request)} got ${outcome.status}: the deleted resource is still there; body: ${excerpt(outcome.body)}`)];
  },
});
