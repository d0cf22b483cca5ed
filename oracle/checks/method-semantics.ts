/**
 * `method-semantics`: what HTTP says of a method the contract does not declare on a path it does.
 *
 * - HEAD where GET is declared is answered as GET would be, without content (RFC 9110, section
 *   9.3.2: "the server MUST NOT send content in the response"; RFC 9112, section 6.3): a status the
 *   GET declares, no body bytes. A 405 is a failure: a server that supports GET supports HEAD
 *   (RFC 9110, section 9.1).
 * - Any other undeclared method: a 405 carries an `Allow` header listing the path's methods
 *   (section 15.5.6: the origin server MUST generate it) - every declared one, not the refused one.
 *   Another refusal (404, 501...) is a warning: 405 is what tells the client which methods to use.
 *   A success is a warning too: the contract does not declare the operation, the target has one.
 *
 * A 5xx or no answer is `no-server-error`'s finding.
 */
import type { Contract } from '../../src/openapi/index.js';
import { exchangeCheck, failure, warning, type Judgement } from '../check.js';
import { isServerError } from '../answer-facts.js';
import { operationOf } from '../declared.js';
import { describeRequest, excerpt } from '../messages.js';
import type { RequestCase, ResponseOutcome } from '../types.js';

/**
 * The tag the engine's requests of another method carry (`method:PATCH`): the check judges the
 * requests made to test methods, not every request to a path that happens to use one (the proxy
 * observes what clients send; their 405s are the target's business with them).
 */
export const METHOD_TAG_PREFIX = 'method:';

/** The methods the contract declares for the request's path, when the request's own method is not among them. */
function declaredElsewhere(contract: Contract, request: RequestCase): readonly string[] | undefined {
  if (operationOf(contract, request) !== undefined) return undefined;
  return contract.methodsFor(request.path.split('?', 1)[0] ?? request.path);
}

function judgeHead(contract: Contract, request: RequestCase, outcome: ResponseOutcome): Judgement[] {
  const get = contract.findOperation('GET', request.path.split('?', 1)[0] ?? request.path);
  const judgements: Judgement[] = [];
  const what = describeRequest(request);
  if (outcome.body.length > 0 || outcome.wire?.extraBytes !== undefined) {
    const length = outcome.body.length > 0 ? outcome.body.length : (outcome.wire?.extraBytes?.length ?? 0);
    judgements.push(failure(`${what}: the answer to HEAD carried ${length} bytes of content; a server MUST NOT send content in answer to HEAD (RFC 9110, section 9.3.2)`));
  }
  if (outcome.status === 405) judgements.push(failure(`${what}: 405, but the path declares GET, and a server that supports GET supports HEAD (RFC 9110, section 9.1)`));
  else if (get?.response(outcome.status) === undefined) {
    judgements.push(failure(`${what}: status ${outcome.status} is not one the GET declares (${get?.responses.map((r) => r.status).join(', ') ?? 'none'}); HEAD is answered as GET (RFC 9110, section 9.3.2)`));
  }
  return judgements;
}

function judgeOther(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  const what = describeRequest(request);
  if (outcome.status >= 200 && outcome.status < 300) return [warning(`${what}: accepted with ${outcome.status}, but the contract declares only ${declared.join(', ')} on this path`)];
  if (outcome.status !== 405) return [warning(`${what}: got ${outcome.status}; RFC 9110, section 15.5.6 answers a method the resource does not support with 405 and an Allow header listing ${declared.join(', ')}; body: ${excerpt(outcome.body)}`)];
  const allow = outcome.headers.allow;
  if (allow === undefined) return [failure(`${what}: a 405 without an Allow header; the origin server MUST list the resource's methods in it (RFC 9110, section 15.5.6)`)];
  const listed = allow.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  const missing = declared.filter((m) => !listed.includes(m));
  const judgements: Judgement[] = [];
  if (missing.length > 0) judgements.push(failure(`${what}: Allow "${allow}" leaves out ${missing.join(', ')}, which the contract declares on this path (RFC 9110, section 10.2.1)`));
  if (listed.includes(request.method.toUpperCase())) judgements.push(failure(`${what}: Allow "${allow}" lists ${request.method}, the method the 405 refused`));
  return judgements;
}

export const methodSemantics = exchangeCheck({
  name: 'method-semantics',
  description: 'a method a path does not declare gets 405 with an Allow header listing the declared methods (RFC 9110, section 15.5.6); HEAD where GET is declared is answered as GET without content (section 9.3.2)',
  applies: (request, outcome, { contract }) => !isServerError(outcome) && request.tags?.some((tag) => tag.startsWith(METHOD_TAG_PREFIX)) === true && declaredElsewhere(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    const declared = declaredElsewhere(contract, request);
    if (outcome.kind !== 'response' || declared === undefined) return [];
    return request.method.toUpperCase() === 'HEAD' && declared.includes('GET') ? judgeHead(contract, request, outcome) : judgeOther(request, outcome, declared);
  },
});
