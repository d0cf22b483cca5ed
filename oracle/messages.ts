/** How a finding's message names what it is about: the request, the start of a body. */
import type { HttpRequest, RequestCase } from './types.js';

export function describeRequest(request: RequestCase): string {
  return request.variant ? `${request.kind} request (${request.variant})` : `${request.kind} request`;
}

/** The start of a body, for messages. */
export function excerpt(bytes: Uint8Array, max = 200): string {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.length === 0) return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
}

/** Why a server must close the connection after its answer: what the request was, and the rule that binds it. */
export interface CloseDemand {
  readonly request: string;
  readonly rule: string;
}

/**
 * Why the server must close the connection after its answer to a request framed otherwise (sent
 * on a connection of its own), or undefined where it need not: the client's `Connection: close`
 * (RFC 9112, section 9.6), HTTP/1.0 without keep-alive (section 9.3), a Content-Length that is
 * invalid or beside Transfer-Encoding (sections 6.1 and 6.3), which go without `close`.
 */
export function closeDemanded(request: HttpRequest): CloseDemand | undefined {
  const framing = request.framing;
  if (framing === undefined) return undefined;
  if (framing.spelling?.contentLength !== undefined) {
    return framing.chunked === true
      ? { request: 'the request had Transfer-Encoding beside Content-Length', rule: 'RFC 9112, section 6.1: the server MUST close the connection after responding to it' }
      : { request: "the request's Content-Length was invalid", rule: 'RFC 9112, section 6.3: the server MUST respond 400 and then close the connection' };
  }
  if (framing.version === '1.0') return framing.keepAlive === true ? undefined : { request: 'the request was HTTP/1.0 without keep-alive', rule: 'RFC 9112, section 9.3: the connection closes after the current response' };
  return { request: `the request said Connection: close${framing.after === undefined ? '' : ', second on a kept-alive connection'}`, rule: CLOSE_RULE };
}

/** RFC 9112, section 9.6, for messages. */
export const CLOSE_RULE = 'RFC 9112, section 9.6: a server that receives "close" MUST initiate closure after its final response';
