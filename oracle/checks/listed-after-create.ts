/**
 * `listed-after-create`: after a create, the collection's list holds an item with the created
 * resource's key. RFC 9110, section 9.3.3: POST to a collection adds a resource to it, and a GET
 * of the collection (section 9.3.1) transfers its current state; a list in pages is followed by its
 * `next` link (RFC 8288 `Link: <…>; rel="next"`, or a `next` member of the envelope), at most
 * LinkStep.pages pages. A list whose answer is no JSON is response-shape's; a 4xx the list's.
 */
import { exchangeCheck, warning } from '../check.js';
import { along, endsSequence, linkJudgement, unresolvedJudgement } from '../linked.js';
import { excerpt } from '../messages.js';
import { listedIn, nextPage } from '../resource-walks.js';

export const listedAfterCreate = exchangeCheck({
  name: 'listed-after-create',
  description: "after a create, the collection's list holds the created item (by its key), its pages followed by their next link, a bounded number (RFC 9110 §9.3.3 POST, §9.3.1 GET; RFC 8288)",
  skippedUnder: { mock: 'a mock stores nothing, so its list does not hold what was created' },
  applies: (request, outcome) => endsSequence(request, outcome, 'listed'),
  judge: (request, outcome) => {
    const step = request.link;
    if (outcome.kind !== 'response' || step?.key === undefined) return [];
    if (step.unresolved !== undefined) return unresolvedJudgement(request);
    if (outcome.status < 200 || outcome.status >= 300) return [linkJudgement(step, `${along(request)} got ${outcome.status}, not the list; body: ${excerpt(outcome.body)}`)];
    if (listedIn(outcome, step.key) !== false) return [];
    const page = step.page ?? 1;
    const more = nextPage(outcome, request.path) !== undefined;
    // The engine follows the next page (run/execute.ts): this page is not the last word.
    if (more && page < (step.pages ?? 1)) return [];
    const item = `${step.key.property} ${JSON.stringify(step.key.text)}`;
    if (more) return [warning(`${along(request)}: no item with ${item} in the first ${page} pages of the list (the engine follows no more)`)];
    return [linkJudgement(step, `${along(request)}: the list (${page} page${page === 1 ? '' : 's'}, the last with no next link) has no item with ${item}, the resource created`)];
  },
});
