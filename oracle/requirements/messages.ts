/** The map's rows on messages a server reads (RFC 9112, RFC 9110 section 5 and 10.1.1): request line, fields, framing, HTTP/1.0, Expect, persistence. */
import type { Requirement } from './requirement.js';

export const MESSAGE_REQUIREMENTS: readonly Requirement[] = [];
