/**
 * `rejects-invalid`: a request with one thing wrong (body, JSON, media type) and valid credentials
 * gets a 4xx the contract declares - any of them (decision 6). A request the RFCs let a parser
 * accept anyway (`lenient`) may be accepted: a warning.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { describeRequest, excerpt, isDeclared4xx, isServerError, operationOf } from '../support.js';

export const rejectsInvalid = exchangeCheck({
  name: 'rejects-invalid',
  description: 'every invalid body, malformed JSON, wrong media type or invalid parameter gets a declared 4xx - any of them, not only the 400 the reference uses - never a success',
  applies: (request, outcome, { contract }) => request.content === 'invalid' && request.credentials === 'valid' && !isServerError(outcome) && operationOf(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    if (isDeclared4xx(operation, outcome.status)) return [];
    const fourXX = operation?.responses.map((r) => r.status).filter((s) => s.startsWith('4')) ?? [];
    const message = `${describeRequest(request)} got ${outcome.status}, expected a declared 4xx (${fourXX.join(', ') || 'none declared'}); body: ${excerpt(outcome.body)}`;
    if (request.lenient !== undefined && outcome.status >= 200 && outcome.status < 300) return [warning(`${message} (allowed: ${request.lenient})`)];
    return [failure(message)];
  },
});
