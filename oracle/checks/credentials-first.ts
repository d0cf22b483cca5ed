/**
 * `credentials-first`: a request without credentials, or with a wrong token, and with a broken
 * body (a double fault) gets 401, not a 4xx about its body. The contract allows either (any
 * declared 4xx; `requires-auth` holds the rest), so this is a warning, never a failure: a target
 * that answers 400 read and judged the body of a request from someone it had not authenticated
 * (RFC 6750, section 3 and RFC 9110, section 11.6.1 answer such a request with 401 and a
 * challenge) - more of it is exposed to anyone, and its error messages talk to strangers.
 *
 * Only credentials that cannot themselves be the reason for a 400 count: none, or a well-formed
 * wrong token. Malformed credentials may get 400 on their own (RFC 6750, section 3.1), and a target
 * may take another scheme for malformed bearer credentials.
 */
import { exchangeCheck, warning } from '../check.js';
import { isServerError } from '../answer-facts.js';
import { isDeclared4xx, operationOf } from '../declared.js';
import { describeRequest, excerpt } from '../messages.js';
import { refusedScheme } from './requires-auth.js';

export const credentialsFirst = exchangeCheck({
  name: 'credentials-first',
  description: 'a request without credentials (or with a wrong token) and with a broken body gets 401, not a 4xx about its body: a warning, as the contract allows either (RFC 6750, section 3)',
  applies: (request, outcome) => request.content === 'invalid' && (request.credentials === 'missing' || request.credentials === 'wrong-token') && !isServerError(outcome),
  judge: (request, outcome, { contract }) => {
    const operation = operationOf(contract, request);
    if (outcome.kind !== 'response' || outcome.status === 401 || !isDeclared4xx(operation, outcome.status)) return [];
    // An API key's refusal may be the 403 the contract declares (requires-auth).
    if (outcome.status === 403 && refusedScheme(request, operation).apiKey) return [];
    const credentials = request.credentials === 'missing' ? 'without credentials' : 'with a wrong token';
    return [
      warning(
        `${describeRequest(request)}: got ${outcome.status} ${credentials}: the body was judged though the credentials were not good (it is read before them, or they were accepted: see requires-auth), so anyone can have bodies parsed and read the errors; RFC 6750, section 3 and RFC 9110, section 11.6.1 answer 401 with a challenge; body: ${excerpt(outcome.body)}`,
      ),
    ];
  },
});
