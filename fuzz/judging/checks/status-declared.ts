/** `status-declared`: the status is declared for the operation (exactly, by an NXX range, or by `default`). */
import { exchangeCheck, failure } from '../check.js';
import { describeRequest, excerpt, operationOf } from '../support.js';

export const statusDeclared = exchangeCheck({
  name: 'status-declared',
  description: 'the status is declared for POST /plants in openapi.yaml (200, 400, 401)',
  applies: (request, outcome, { contract }) => outcome.kind === 'response' && operationOf(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    const operation = operationOf(contract, request);
    if (outcome.kind !== 'response' || !operation || operation.response(outcome.status)) return [];
    const declared = operation.responses.map((r) => r.status).join(', ');
    return [failure(`status ${outcome.status} is not declared for ${operation.method} ${operation.path} (declared: ${declared}); ${describeRequest(request)}; body: ${excerpt(outcome.body)}`)];
  },
});
