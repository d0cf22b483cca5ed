/**
 * The seam between a request and the HTTP client for fields sent on more than one line. A request
 * keeps one value per name in `headers` and any further line in `extraLines` (two Authorization
 * fields, say: RFC 9110, section 5.3 forbids a sender to write them, which is what a test of the
 * recipient needs). node:http writes an array value as one line per element, in order.
 */
import type { HttpRequest } from '../../oracle/index.js';

/** The request's header fields as node:http takes them: a name sent on several lines has an array of values. */
export function headerLines(request: Pick<HttpRequest, 'headers' | 'extraLines'>): Record<string, string | string[]> {
  const lines: Record<string, string | string[]> = { ...request.headers };
  for (const [name, value] of request.extraLines ?? []) {
    const before = lines[name];
    lines[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return lines;
}
