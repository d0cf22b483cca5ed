/**
 * `requires-auth`: missing or wrong credentials get 401 with a `WWW-Authenticate` challenge for the
 * contract's scheme (RFC 6750, section 3), never a success. Malformed credentials may also get 400
 * (RFC 6750, section 3.1, `invalid_request`). When the body is wrong too (a double fault), any
 * declared 4xx will do here: the contract allows a refusal for either reason.
 */
import { exchangeCheck, failure, type Verdict } from './check.js';
import { challenges, describeRequest, excerpt, isDeclared4xx, isServerError, operationOf } from './support.js';

export const requiresAuth = exchangeCheck({
  name: 'requires-auth',
  description: 'missing or wrong credentials get 401 with a WWW-Authenticate: Bearer challenge, never a success; malformed credentials may get 400 (RFC 6750, section 3.1)',
  applies: (request, outcome) => request.credentials !== 'valid' && !isServerError(outcome),
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    const scheme = operation?.security[0]?.[0]?.scheme ?? 'bearer';
    const fail = (message: string): Verdict[] => [failure(`${describeRequest(request)}: ${message}`)];
    if (outcome.status >= 200 && outcome.status < 300) return fail(`accepted with ${outcome.status}; credentials must be checked`);
    if (outcome.status === 401) {
      const header = outcome.headers['www-authenticate'];
      if (challenges(header, scheme)) return [];
      return fail(header === undefined ? 'a 401 without a WWW-Authenticate header (RFC 6750, section 3)' : `a 401 whose WWW-Authenticate "${header}" has no ${scheme} challenge (RFC 6750, section 3)`);
    }
    if (outcome.status === 400 && request.credentials === 'malformed') return [];
    if (request.content === 'invalid' && isDeclared4xx(operation, outcome.status)) return [];
    return fail(`got ${outcome.status}, expected 401${request.credentials === 'malformed' ? ' (or 400)' : ''}; body: ${excerpt(outcome.body)}`);
  },
});
