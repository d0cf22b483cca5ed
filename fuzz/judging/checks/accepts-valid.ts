/**
 * `accepts-valid`: a valid request with valid credentials gets the declared success status (rule 1:
 * 200). A request the contract lets a target refuse (`lenient`) may get a declared 4xx: a warning;
 * one whose meaning it leaves open (`open`: duplicate names, deep nesting) may get one silently.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { describeRequest, excerpt, isDeclared4xx, isServerError, operationOf, successStatuses } from '../support.js';

export const acceptsValid = exchangeCheck({
  name: 'accepts-valid',
  description: 'every valid NewPlant with valid credentials gets 200 (rule 1), a repeated id included, whatever valid spelling, media type parameters or Accept header it comes with',
  // The read that ends a sequence along links is judged by the stateful phase's checks (what it must answer depends on the sequence).
  applies: (request, outcome) => request.content === 'valid' && request.credentials === 'valid' && request.link === undefined && !isServerError(outcome),
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    const expected = successStatuses(operation);
    if (expected.includes(outcome.status)) return [];
    const message = `${describeRequest(request)} got ${outcome.status}, expected ${expected.join(' or ')}; body: ${excerpt(outcome.body)}`;
    // A body whose meaning is left open (RequestCase.open) may be refused: no finding either way.
    if (request.open !== undefined && isDeclared4xx(operation, outcome.status)) return [];
    if (request.lenient !== undefined && isDeclared4xx(operation, outcome.status)) return [warning(`${message} (allowed: ${request.lenient})`)];
    return [failure(message)];
  },
});
