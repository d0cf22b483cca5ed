/** Whether anything answers HTTP at a base URL: the first thing `plant-store verify` checks. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * undefined when something answers HTTP at `baseUrl` (any status will do); otherwise why not.
 * node:http rather than fetch: fetch refuses the Fetch standard's "bad ports" (6000 and others),
 * which are still ports an implementation may listen on.
 */
export function whyUnreachable(baseUrl: string, timeoutMs = 5000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const url = new URL(baseUrl);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(undefined);
    });
    request.on('timeout', () => {
      request.destroy();
      resolve(`no answer within ${timeoutMs} ms`);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
    request.end();
  });
}
