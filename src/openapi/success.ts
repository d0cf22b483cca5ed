/**
 * The statuses with which an operation answers a request it takes: one meaning for the reference
 * (what it answers) and the oracle (what accepts-valid expects), so that the two never disagree.
 */
import type { OperationContract } from './contract.js';

/**
 * An operation's declared 2xx, ascending. Where it declares none: 200 where a `2XX` range or
 * `default` covers it (or it declares no response at all: OpenAPI 3.1 makes `responses`
 * optional); else its declared 3xx (an operation that only redirects, `302` alone, answers a
 * request it takes with its redirect, RFC 9110, section 15.4); else 200, as before.
 */
export function successStatuses(operation: OperationContract): number[] {
  const successes = operation.declaredStatuses.filter((s) => s >= 200 && s < 300);
  if (successes.length > 0) return successes;
  const redirects = operation.declaredStatuses.filter((s) => s >= 300 && s < 400);
  if (operation.response(200) !== undefined || operation.responses.length === 0 || redirects.length === 0) return [200];
  return redirects;
}
