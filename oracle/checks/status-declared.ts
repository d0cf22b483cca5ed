/**
 * `status-declared`: the status is declared for the operation (exactly, by an NXX range, or by
 * `default`). A 4xx to a request whose target a server may not recognise as the operation's (an
 * absolute-form target, `lenientAbout: 'target'`) is `accepts-valid`'s warning, not this check's;
 * a 406 to an Accept no declared success media type satisfies is HTTP's own answer, as is a 400
 * to a message RFC 9112 refuses and a 417 to an unknown expectation (leniencies.ts). A 4xx to an
 * invalid request (or one whose acceptance is left open) where the operation declares no status
 * for refusing invalid input (no 400, 422, 4XX or default: declared.ts) is a warning (fails under --strict): the contract leaves refusals open (OpenAPI 3.1, section 4.8.16), and a client loses
 * nothing it was promised. So is a 401 or 403 to bad credentials where the operation is secured
 * but declares neither (refusedCredentials).
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { declaresNoRefusal, operationOf } from '../declared.js';
import { refusedByHttp, refusedTarget } from '../leniencies.js';
import { acceptUnsatisfiable } from '../media-values.js';
import { describeRequest, excerpt } from '../messages.js';
import type { OperationContract } from '../../src/openapi/index.js';
import type { RequestCase } from '../types.js';

/**
 * A 401 (or 403) to a request without valid credentials for an operation the contract secures:
 * the security requirement demands a refusal, and HTTP names these statuses for it, so a
 * contract that lists neither leaves the refusal undeclared, not forbidden.
 */
function refusedCredentials(request: RequestCase, operation: OperationContract, status: number): boolean {
  return (status === 401 || status === 403) && request.credentials !== 'valid' && operation.securedBy.length > 0;
}

export const statusDeclared = exchangeCheck({
  name: 'status-declared',
  description: 'the status is declared for the operation in the contract (in the bundled openapi.yaml, POST /plants: 200, 400, 401)',
  // An operation that declares no response (OpenAPI 3.1 makes `responses` optional) promises no status: named unchecked at load.
  applies: (request, outcome, { contract }) => outcome.kind === 'response' && (operationOf(contract, request)?.responses.length ?? 0) > 0 && !refusedTarget(request, outcome.status),
  judge: (request, outcome, { contract }) => {
    const operation = operationOf(contract, request);
    if (outcome.kind !== 'response' || !operation || operation.response(outcome.status)) return [];
    // 406 is HTTP's answer to an Accept nothing declared satisfies (RFC 9110, section 15.5.7), declared or not.
    if (outcome.status === 406 && acceptUnsatisfiable(operation, request)) return [];
    // So is a 400 to a message RFC 9112 refuses, and a 417 to an unknown expectation.
    if (refusedByHttp(request, outcome.status)) return [];
    const declared = operation.responses.map((r) => r.status).join(', ');
    const message = `status ${outcome.status} is not declared for ${operation.method} ${operation.path} (declared: ${declared}); ${describeRequest(request)}; body: ${excerpt(outcome.body)}`;
    if (request.open !== undefined && outcome.status === 413) return [warning(`${message} (RFC 9110, section 15.5.14: a server may refuse a body larger than it will process; the body is one sized to a common limit)`)];
    if (refusedCredentials(request, operation, outcome.status)) return [warning(`${message} (the contract secures the operation but declares no ${outcome.status}: it is HTTP's answer to credentials that are missing or refused, RFC 9110, sections 15.5.2 and 15.5.4)`)];
    if ((request.content === 'invalid' || request.open !== undefined) && outcome.status >= 400 && outcome.status < 500 && declaresNoRefusal(operation)) return [warning(`${message} (the operation declares no status for refusing invalid input - no 400, 422, 4XX or default: OpenAPI 3.1, section 4.8.16 leaves refusals open)`)];
    return [failure(message)];
  },
});
