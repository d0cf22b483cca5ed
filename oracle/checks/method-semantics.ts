/**
 * `method-semantics`: what HTTP says of a method the contract does not declare on a path it does.
 *
 * - HEAD where GET is declared is answered as GET would be, without content (RFC 9110, section
 *   9.3.2: "the server MUST NOT send content in the response"; RFC 9112, section 6.3): a status the
 *   GET declares (any, where it declares none; 406 where the Accept fits none of its successes), no body bytes. A 405 is a failure: a server that supports GET supports HEAD
 *   (RFC 9110, section 9.1).
 * - A common method (GET, POST, PUT, DELETE, PATCH): a 405 carries an `Allow` header listing the
 *   path's methods (section 15.5.6: the origin server MUST generate it) - every declared one, not
 *   the refused one. Another refusal (404, 501...) is a warning: 405 is what tells the client which
 *   methods to use. A success is a warning too: the contract does not declare the operation, the
 *   target has one.
 * - OPTIONS, TRACE, CONNECT (section 9.3): 501 ("not implemented", section 9.1) passes as 405 does;
 *   a 2xx to OPTIONS SHOULD carry Allow (section 9.3.7: a warning); any 4xx to OPTIONS or CONNECT
 *   passes (neither is about the resource's representation).
 * - A method the server cannot recognise - unknown, or a known one in lower case (methods are
 *   case-sensitive, section 9.1) - SHOULD get 501; 405 passes, and so does 400 (a parser with a
 *   table of methods, node:http's llhttp and so Express, Fastify, Hono, refuses it before any
 *   handler, which tells the client as much); another 4xx is a warning. A success is a failure
 *   where the method is a declared one in another case that changes state (POST, PUT, PATCH,
 *   DELETE): the server took it for that method and acted on it; a warning otherwise.
 *
 * A 5xx other than 501, or no answer, is `no-server-error`'s finding.
 */
import type { Contract } from '../../src/openapi/index.js';
import { exchangeCheck, failure, warning, type Judgement } from '../check.js';
import { isServerError } from '../answer-facts.js';
import { operationOf } from '../declared.js';
import { acceptUnsatisfiable } from '../media-values.js';
import { describeRequest, excerpt } from '../messages.js';
import type { HttpOutcome, RequestCase, ResponseOutcome } from '../types.js';

/**
 * The tag the engine's requests of another method carry (`method:PATCH`): the check judges the
 * requests made to test methods, not every request to a path that happens to use one (the proxy
 * observes what clients send; their 405s are the target's business with them).
 */
export const METHOD_TAG_PREFIX = 'method:';

/** A request the engine made to test a method (tagged `method:`). */
export function isMethodRequest(request: RequestCase): boolean {
  return request.tags?.some((tag) => tag.startsWith(METHOD_TAG_PREFIX)) === true;
}

/** A 501 to a method request: "not implemented" (RFC 9110, section 9.1), an answer, not a server error. */
export function notImplemented(request: RequestCase, outcome: HttpOutcome): boolean {
  return outcome.kind === 'response' && outcome.status === 501 && isMethodRequest(request);
}

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
  // A GET that declares no response promises no status; a 406 to an Accept none of its successes satisfies is HTTP's answer, as for the GET itself.
  else if (get?.response(outcome.status) === undefined && get?.responses.length !== 0 && !(outcome.status === 406 && acceptUnsatisfiable(get, request))) {
    judgements.push(failure(`${what}: status ${outcome.status} is not one the GET declares (${get?.responses.map((r) => r.status).join(', ') ?? 'none'}); HEAD is answered as GET (RFC 9110, section 9.3.2)`));
  }
  return judgements;
}

/** A 405 lists the path's methods in Allow, and not the refused one (RFC 9110, sections 15.5.6, 10.2.1). */
function judge405(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  const what = describeRequest(request);
  const allow = outcome.headers.allow;
  if (allow === undefined) return [failure(`${what}: a 405 without an Allow header; the origin server MUST list the resource's methods in it (RFC 9110, section 15.5.6)`)];
  const listed = allow.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  const missing = declared.filter((m) => !listed.includes(m));
  const judgements: Judgement[] = [];
  if (missing.length > 0) judgements.push(failure(`${what}: Allow "${allow}" leaves out ${missing.join(', ')}, which the contract declares on this path (RFC 9110, section 10.2.1)`));
  if (listed.includes(request.method)) judgements.push(failure(`${what}: Allow "${allow}" lists ${request.method}, the method the 405 refused`));
  return judgements;
}

function judgeCommon(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  const what = describeRequest(request);
  if (outcome.status >= 200 && outcome.status < 300) return [warning(`${what}: accepted with ${outcome.status}, but the contract declares only ${declared.join(', ')} on this path`)];
  if (outcome.status !== 405) return [warning(`${what}: got ${outcome.status}; RFC 9110, section 15.5.6 answers a method the resource does not support with 405 and an Allow header listing ${declared.join(', ')}; body: ${excerpt(outcome.body)}`)];
  return judge405(request, outcome, declared);
}

/** The methods RFC 9110 defines beyond the common ones: 501 ("not implemented") is an answer as good as 405. */
function judgeRfcMethod(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  const what = describeRequest(request);
  if (outcome.status === 405) return judge405(request, outcome, declared);
  if (outcome.status === 501) return [];
  if (request.method === 'OPTIONS' && outcome.status >= 200 && outcome.status < 300 && outcome.headers.allow === undefined) {
    return [warning(`${what}: ${outcome.status} without an Allow header; a server answering OPTIONS SHOULD say what the resource supports, Allow for one (RFC 9110, section 9.3.7)`)];
  }
  if (request.method !== 'TRACE' && outcome.status < 500) return [];
  return judgeCommon(request, outcome, declared);
}

/** The methods RFC 5789 and RFC 9110, section 9.3 name, as written: any other spelling is a method the server cannot recognise. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

function judgeUnrecognised(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  const what = describeRequest(request);
  if (outcome.status === 405) return judge405(request, outcome, declared);
  if (outcome.status === 501 || outcome.status === 400) return [];
  const upper = request.method.toUpperCase();
  if (outcome.status >= 200 && outcome.status < 300) {
    const message = `${what}: accepted with ${outcome.status}; methods are case-sensitive (RFC 9110, section 9.1), and ${request.method} is none the server can recognise`;
    return [declared.includes(upper) && UNSAFE_METHODS.has(upper) ? failure(`${message}: it was taken for ${upper}, which changes state`) : warning(message)];
  }
  return [warning(`${what}: got ${outcome.status}; a server SHOULD answer a method it does not recognise with 501 (RFC 9110, section 9.1), or 405 with Allow; body: ${excerpt(outcome.body)}`)];
}

function judgeOther(request: RequestCase, outcome: ResponseOutcome, declared: readonly string[]): Judgement[] {
  if (!KNOWN_METHODS.has(request.method)) return judgeUnrecognised(request, outcome, declared);
  return ['OPTIONS', 'TRACE', 'CONNECT'].includes(request.method) ? judgeRfcMethod(request, outcome, declared) : judgeCommon(request, outcome, declared);
}

export const methodSemantics = exchangeCheck({
  name: 'method-semantics',
  description: 'a method a path does not declare gets 405 with an Allow header listing the declared methods (RFC 9110, section 15.5.6), or 501 where it is not a common one; an unknown or lower-case method is never acted on; HEAD where GET is declared is answered as GET without content (section 9.3.2)',
  // 501 is this check's: "not implemented" is an answer to a method (RFC 9110, section 9.1).
  applies: (request, outcome, { contract }) => (!isServerError(outcome) || notImplemented(request, outcome)) && isMethodRequest(request) && declaredElsewhere(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    const declared = declaredElsewhere(contract, request);
    if (outcome.kind !== 'response' || declared === undefined) return [];
    return request.method === 'HEAD' && declared.includes('GET') ? judgeHead(contract, request, outcome) : judgeOther(request, outcome, declared);
  },
});
