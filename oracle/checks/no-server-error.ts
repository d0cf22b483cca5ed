/** `no-server-error`: no request gets a 5xx, a reset connection, a timeout or a response that is not HTTP. */
import { exchangeCheck, failure } from '../check.js';
import { stopsShortOfItsLength } from '../answer-facts.js';
import { describeRequest, excerpt } from '../messages.js';
import { silentlyRefused } from '../leniencies.js';

export const noServerError = exchangeCheck({
  name: 'no-server-error',
  description: 'nothing gets a 5xx, a reset connection, a timeout, bytes that are not HTTP or a response too large to read (over 16 MiB in conform, 1 MiB through the proxy)',
  // A complete JSON body under a Content-Length that promised more hangs the client: content-length's finding.
  // A request whose answering is left open may be met with a close (accepts-valid warns of it).
  applies: (request, outcome) => !stopsShortOfItsLength(outcome) && !silentlyRefused(request, outcome),
  judge: (request, outcome) => {
    if (outcome.kind === 'failure') return [failure(`${describeRequest(request)}: ${outcome.failure} - ${outcome.message}`)];
    if (outcome.status >= 500) return [failure(`${describeRequest(request)} got ${outcome.status}; body: ${excerpt(outcome.body)}`)];
    return [];
  },
});
