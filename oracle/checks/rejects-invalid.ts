/**
 * `rejects-invalid`: a request with one thing wrong (body, JSON, media type) and valid credentials
 * gets a 4xx the contract declares - any of them (decision 6). A request the RFCs let a parser
 * accept anyway (`lenient`) may be accepted: a warning. A request without Host (RFC 9112, section
 * 3.2: an HTTP/1.1 server MUST answer 400), or one whose message RFC 9112 makes invalid (a space
 * before a colon, an invalid Content-Length), binds only a server that answers as HTTP/1.1.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { isServerError } from '../answer-facts.js';
import { declared4xx, isDeclared4xx, operationOf, successStatuses } from '../declared.js';
import { describeRequest, excerpt } from '../messages.js';
import { acceptUnsatisfiable } from '../media-values.js';
import { http10Reading, refusedByHttp, refusedTarget } from '../leniencies.js';

export const rejectsInvalid = exchangeCheck({
  name: 'rejects-invalid',
  description: 'every invalid body, malformed JSON, wrong media type or invalid parameter gets a declared 4xx - any of them, not only the 400 the reference uses - never a success',
  // A server that speaks HTTP/1.0 reads a request without Host, or one RFC 9112 makes invalid, as HTTP/1.0 (RFC 9110, section 2.5).
  applies: (request, outcome, { contract }) => request.content === 'invalid' && request.credentials === 'valid' && !isServerError(outcome) && operationOf(contract, request) !== undefined && !http10Reading(request, outcome),
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    // An invalid target (a bad percent-escape in a parameter's segment) may be refused with any 4xx: the router's.
    if (isDeclared4xx(operation, outcome.status) || refusedByHttp(request, outcome.status) || refusedTarget(request, outcome.status)) return [];
    // A server may weigh Accept before the body: 406 to an Accept nothing declared satisfies (RFC 9110, section 15.5.7).
    if (outcome.status === 406 && acceptUnsatisfiable(operation, request)) return [];
    const message = `${describeRequest(request)} got ${outcome.status}, expected a declared 4xx (${declared4xx(operation).join(', ') || 'none declared'}); body: ${excerpt(outcome.body)}`;
    // Accepted, as the RFCs let it be: its success, a 2xx or the redirect an operation declares alone (src/openapi/success.ts).
    if (request.lenient !== undefined && ((outcome.status >= 200 && outcome.status < 300) || successStatuses(operation).includes(outcome.status))) return [warning(`${message} (allowed: ${request.lenient})`)];
    return [failure(message)];
  },
});
