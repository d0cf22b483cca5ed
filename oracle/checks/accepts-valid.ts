/**
 * `accepts-valid`: a valid request with valid credentials gets the declared success status (rule 1:
 * 200). A request the contract lets a target refuse (`lenient`) may get a declared 4xx (any 4xx
 * where what is open is the target, `lenientAbout: 'target'`): a warning;
 * one whose meaning it leaves open (`open`: duplicate names, deep nesting) may get one silently;
 * one whose Accept no declared success media type satisfies may get 406; one whose answering is
 * left open (`lenientAbout: 'silence'`) may get a closed connection: a warning.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import type { OperationContract } from '../../src/openapi/index.js';
import { isServerError } from '../answer-facts.js';
import { isDeclared4xx, operationOf, successStatuses } from '../declared.js';
import { refusedByHttp, refusedTarget, silentlyRefused } from '../leniencies.js';
import { acceptUnsatisfiable } from '../media-values.js';
import { describeRequest, excerpt } from '../messages.js';

/**
 * Valid path parameters name an item the target need not hold: a read, replace or delete of an
 * id nothing was stored under may get a declared 404 (RFC 9110, section 15.5.5). Only where the
 * contract declares it, and only for an operation with path parameters.
 */
function mayBeMissing(operation: OperationContract | undefined, status: number): boolean {
  return status === 404 && isDeclared4xx(operation, status) && operation?.parameters.some((p) => p.in === 'path') === true;
}

export const acceptsValid = exchangeCheck({
  name: 'accepts-valid',
  description: 'every valid request with valid credentials gets its declared success (200, rule 1), a repeated id included, whatever valid spelling, media type parameters or Accept header it comes with; a request naming an item by its path may get a declared 404',
  // A method the path does not declare is method-semantics' to judge; the read that ends a
  // sequence along links, the stateful phase's checks (what it must answer depends on the sequence).
  applies: (request, outcome, { contract }) => request.content === 'valid' && request.credentials === 'valid' && request.link === undefined && (!isServerError(outcome) || silentlyRefused(request, outcome)) && operationOf(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    if (silentlyRefused(request, outcome)) return [warning(`${describeRequest(request)}: the connection closed with no answer (allowed: ${request.lenient ?? ''})`)];
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    const expected = successStatuses(operation);
    if (expected.includes(outcome.status) || mayBeMissing(operation, outcome.status)) return [];
    // An Accept no declared success media type satisfies may get 406 (RFC 9110, section 15.5.7).
    if (outcome.status === 406 && acceptUnsatisfiable(operation, request)) return [];
    const message = `${describeRequest(request)} got ${outcome.status}, expected ${expected.join(' or ')}; body: ${excerpt(outcome.body)}`;
    // A body whose meaning is left open (RequestCase.open) may be refused: no finding either way;
    // 413 too, declared or not: a body past what a server will process (RFC 9110, section 15.5.14; status-declared warns).
    if (request.open !== undefined && (isDeclared4xx(operation, outcome.status) || outcome.status === 413 || refusedByHttp(request, outcome.status))) return [];
    if (request.lenient !== undefined && (isDeclared4xx(operation, outcome.status) || refusedTarget(request, outcome.status) || refusedByHttp(request, outcome.status))) return [warning(`${message} (allowed: ${request.lenient})`)];
    return [failure(message)];
  },
});
