/**
 * `no-server-error`: no request gets a 5xx, a reset connection, a timeout or a response that is not
 * HTTP. Two answers to a method are not server errors: a 501 to a method request ("not
 * implemented", RFC 9110, section 9.1: `method-semantics` judges it), and a connection closed on a
 * CONNECT (node:http's default without a `connect` listener: an origin server tunnels nothing,
 * RFC 9110, section 9.3.6, and no client sends it one). A process that dies on a request still
 * shows: every later request fails.
 */
import { exchangeCheck, failure } from '../check.js';
import { stopsShortOfItsLength } from '../answer-facts.js';
import { isMethodRequest, notImplemented } from './method-semantics.js';
import { describeRequest, excerpt } from '../messages.js';
import { silentlyRefused } from '../leniencies.js';
import type { HttpOutcome, RequestCase } from '../types.js';

function closedOnConnect(request: RequestCase, outcome: HttpOutcome): boolean {
  return request.method === 'CONNECT' && isMethodRequest(request) && outcome.kind === 'failure' && (outcome.failure === 'reset' || outcome.failure === 'error');
}

export const noServerError = exchangeCheck({
  name: 'no-server-error',
  description: 'nothing gets a 5xx, a reset connection, a timeout, bytes that are not HTTP or a response too large to read (over 16 MiB in conform, 1 MiB through the proxy); a 501 to a method the path does not declare is method-semantics\' to judge',
  // A complete JSON body under a Content-Length that promised more hangs the client: content-length's finding.
  // A request whose answering is left open may be met with a close (accepts-valid warns of it).
  applies: (request, outcome) => !stopsShortOfItsLength(outcome) && !silentlyRefused(request, outcome) && !notImplemented(request, outcome) && !closedOnConnect(request, outcome),
  judge: (request, outcome) => {
    if (outcome.kind === 'failure') return [failure(`${describeRequest(request)}: ${outcome.failure} - ${outcome.message}`)];
    if (outcome.status >= 500) return [failure(`${describeRequest(request)} got ${outcome.status}; body: ${excerpt(outcome.body)}`)];
    return [];
  },
});
