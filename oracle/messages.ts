/** How a finding's message names what it is about: the request, the start of a body. */
import type { RequestCase } from './types.js';

export function describeRequest(request: RequestCase): string {
  return request.variant ? `${request.kind} request (${request.variant})` : `${request.kind} request`;
}

/** The start of a body, for messages. */
export function excerpt(bytes: Uint8Array, max = 200): string {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.length === 0) return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
}
