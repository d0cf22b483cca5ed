/**
 * `requires-auth`: a request without valid credentials never gets a 2xx, and gets 401 with a
 * `WWW-Authenticate` challenge for the contract's scheme (RFC 6750, section 3; the challenge may
 * be one of several, on one line or on several, RFC 9110, section 11.6.1), read by RFC 9110's
 * grammar, a Bearer challenge with one or more auth-params (challenge-grammar.ts; a bare `Bearer`, a
 * framework default that costs a client nothing, is a warning). What else is allowed
 * follows from what the credentials are (see credential-table.ts, the credential table):
 *
 * - malformed credentials may get a declared 400 (RFC 6750, section 3.1: invalid_request);
 * - credentials of another scheme get 401: a 400 is a warning (section 3.1 gives a request with an
 *   unsupported method no error code, so nothing tells the client its credentials were refused);
 * - when the body is wrong too (a double fault) any declared 4xx will do here: the contract allows
 *   a refusal for either reason (`credentials-first` warns about a body judged first);
 * - where the RFCs leave the credentials open (`lenient`: two Authorization fields, a token in the
 *   query), a 2xx is a warning.
 */
import { exchangeCheck, failure, warning, type Judgement } from '../check.js';
import { challengeProblem, parseChallenges, type ChallengeProblem } from '../challenge-grammar.js';
import { isServerError } from '../answer-facts.js';
import { isDeclared4xx, operationOf } from '../declared.js';
import { refusedTarget } from '../leniencies.js';
import { describeRequest, excerpt } from '../messages.js';
import type { OperationContract } from '../../src/openapi/index.js';
import type { RequestCase } from '../types.js';

/**
 * The scheme a refused request is judged by: the one the engine attacked, else the operation's
 * first. An HTTP scheme's 401 carries its challenge (Bearer for OAuth 2 and OpenID Connect, whose
 * tokens are bearer tokens; Basic, RFC 7617, section 2); an API key has no RFC and no challenge.
 */
export function refusedScheme(request: RequestCase, operation: OperationContract | undefined): { challenge: string | undefined; apiKey: boolean } {
  const type = request.attacked ?? operation?.securedBy[0]?.[0]?.type.name;
  if (type === 'apiKey') return { challenge: undefined, apiKey: true };
  if (type === 'http basic') return { challenge: 'basic', apiKey: false };
  if (type === undefined) return { challenge: operation?.security[0]?.[0]?.scheme ?? 'bearer', apiKey: false };
  return { challenge: 'bearer', apiKey: false };
}

/** An API key's refusal: a 401 (no challenge demanded: no RFC defines one), or the 403 the operation declares. */
function apiKeyRefusal(operation: OperationContract | undefined, status: number): boolean {
  return status === 401 || (status === 403 && isDeclared4xx(operation, 403));
}

/** The challenge of a scheme type: Basic for HTTP basic, Bearer for bearer, OAuth 2 and OpenID Connect tokens, none for an API key. */
function challengeOf(type: string): string | undefined {
  return type === 'apiKey' ? undefined : type === 'http basic' ? 'basic' : 'bearer';
}

/**
 * The challenges of the operation's other schemes: RFC 9110, section 11.6.1 asks a 401 for "at
 * least one challenge applicable to the target resource", so where the operation takes another
 * scheme too (an OR of alternatives, or a part of an AND), a challenge for that one answers.
 */
function otherChallenges(operation: OperationContract | undefined, scheme: string): string[] {
  const all = (operation?.securedBy ?? []).flat().map((use) => challengeOf(use.type.name));
  return [...new Set(all.filter((c): c is string => c !== undefined && c !== scheme))];
}

/** The problem of the first scheme, unless a challenge for another is sound: none, or the mildest. */
function leastProblem(header: string, schemes: readonly string[]): ChallengeProblem | undefined {
  const problems = schemes.map((s) => challengeProblem(header, s));
  if (problems.some((p) => p === undefined)) return undefined;
  return problems.find((p) => p?.severity === 'warning') ?? problems[0];
}

/**
 * RFC 6750, section 3.1: to a request that lacks any authentication information "the resource
 * server SHOULD NOT include an error code or other error information" (the client did nothing
 * wrong yet); a SHOULD NOT, so a warning.
 */
function errorCodeWarnings(request: RequestCase, header: string): Judgement[] {
  if (request.credentials !== 'missing') return [];
  const parsed = parseChallenges(header);
  const bearer = 'error' in parsed ? undefined : parsed.challenges.find((c) => c.scheme.toLowerCase() === 'bearer' && c.params.some(([name]) => name === 'error'));
  if (bearer === undefined) return [];
  return [warning(`${describeRequest(request)}: a 401 to a request without credentials carries an error code (${header}): RFC 6750, section 3.1: the resource server SHOULD NOT include one when the request lacks any authentication information`)];
}

export const requiresAuth = exchangeCheck({
  name: 'requires-auth',
  description: 'missing, wrong or malformed credentials never get a 2xx, and get 401 with a WWW-Authenticate: Bearer challenge in the grammar of RFC 9110 with auth-params (RFC 6750, section 3; a bare Bearer is a warning); malformed credentials may get a declared 400 (RFC 6750, section 3.1)',
  applies: (request, outcome, { contract }) => request.credentials !== 'valid' && !isServerError(outcome) && operationOf(contract, request) !== undefined,
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    const refused = refusedScheme(request, operation);
    const scheme = refused.challenge ?? 'bearer';
    const fail = (message: string): Judgement[] => [failure(`${describeRequest(request)}: ${message}`)];
    if (outcome.status >= 200 && outcome.status < 300) {
      const message = `accepted with ${outcome.status}; credentials must be checked (RFC 6750, section 3)`;
      // What a target spelled otherwise leaves open is whether it is recognised, never whether its credentials are checked.
      return request.lenient === undefined || request.lenientAbout === 'target' ? fail(message) : [warning(`${describeRequest(request)}: ${message} (allowed: ${request.lenient})`)];
    }
    if (refused.apiKey && apiKeyRefusal(operation, outcome.status)) return [];
    if (outcome.status === 401) {
      const header = outcome.headers['www-authenticate'];
      if (header === undefined) return fail('a 401 without a WWW-Authenticate header (RFC 6750, section 3)');
      const problem = leastProblem(header, [scheme, ...otherChallenges(operation, scheme)]);
      if (problem === undefined) return errorCodeWarnings(request, header);
      return problem.severity === 'failure' ? fail(`a 401: ${problem.message}`) : [warning(`${describeRequest(request)}: a 401: ${problem.message}`)];
    }
    // A router's 4xx to a target spelled otherwise refuses it without serving it: accepts-valid warns of it.
    if (refusedTarget(request, outcome.status)) return [];
    const declared = isDeclared4xx(operation, outcome.status);
    if (declared && request.content === 'invalid') return [];
    if (declared && outcome.status === 400 && request.credentials === 'malformed') return [];
    if (declared && outcome.status === 400 && request.credentials === 'other-scheme') {
      return [warning(`${describeRequest(request)}: got 400 for credentials of another scheme; RFC 6750, section 3.1 answers an unsupported method with 401 and a challenge, which tells the client what to send`)];
    }
    return fail(`got ${outcome.status}, expected 401${refused.apiKey ? ' (or a declared 403: an API key)' : ''}${request.credentials === 'malformed' ? ' (or a declared 400)' : ''}; body: ${excerpt(outcome.body)}`);
  },
});
