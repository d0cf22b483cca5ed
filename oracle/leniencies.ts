/**
 * Why a request is `lenient` (see RequestCase.lenient): the reasons where RFC 8259 or a common
 * server default leaves the answer open, so that a check gives a warning, not a failure. The
 * generators set them on the requests they make and the classification of an observed request
 * (classify.ts) on the requests it reads, so both say the same words.
 */
import type { HttpOutcome, RequestCase } from './types.js';

/** Why a lone surrogate makes a valid request `lenient` (see RequestCase.lenient). */
export const LONE_SURROGATE_LENIENCY =
  'RFC 8259, section 8.2: a string holding a lone surrogate escape is JSON, but the behaviour of software that receives it is unpredictable - it may refuse it, or store U+FFFD in its place';

/**
 * Why a valid body with a prototype key (`__proto__`, or `constructor` holding `prototype`; see
 * modelHasPrototypeKey) makes its request `lenient` about refusal only. The contract allows the
 * property (a NewPlant allows additional properties, rule 1), but refusing such a body with a
 * 4xx is a common, defensible security default - hostile keys are bad input to many servers - so
 * a refusal is a warning; an accepted one must still be answered exactly (`echo`).
 */
export const PROTOTYPE_KEY_LENIENCY =
  'the contract allows the property, but refusing a body with a __proto__ key or a constructor holding prototype (prototype poisoning) is a common security default: Fastify (secure-json-parse), hapi (bourne), OWASP CRS rule 934130';

/** Why a valid body whose string holds bytes that are not UTF-8 may be accepted (the `invalid-utf8-in-string:` malformations). */
export const UTF8_IN_STRING_LENIENCY =
  'RFC 8259, section 9 lets a parser accept non-JSON forms; a decoder that replaces the bytes with U+FFFD (body-parser, Fastify, Hono), or one that decodes an encoded surrogate (surrogatepass in Python), makes a string of it, so the server stores something other than was sent';

/** A 4xx to a request whose target a server may not recognise as the operation's (RequestCase.lenientAbout `target`). */
export function refusedTarget(request: RequestCase, status: number): boolean {
  return request.lenient !== undefined && request.lenientAbout === 'target' && status >= 400 && status < 500;
}

/**
 * Whether the request bends or breaks RFC 9112's message grammar (RequestFraming.spelling, no
 * Host): a server's HTTP layer answers it before any operation is found, node:http with a bare 400.
 */
export function messageLevel(request: RequestCase): boolean {
  return request.framing?.noHost === true || request.framing?.spelling !== undefined;
}

/**
 * An answer that says HTTP/1.0 to a request RFC 9112 makes invalid: the server speaks HTTP/1.0 and
 * reads the request as one (RFC 9110, section 2.5), so HTTP/1.1's demands on requests do not bind it.
 */
export function http10Reading(request: RequestCase, outcome: HttpOutcome): boolean {
  return messageLevel(request) && outcome.kind === 'response' && outcome.wire?.version === '1.0';
}

/**
 * HTTP's own refusal of a request whose message RFC 9112 refuses (400: sections 2.2, 3, 5, 6.3),
 * or of an expectation the server does not know (417: RFC 9110, section 10.1.1), declared by the
 * contract or not: the server's HTTP layer answers it before any operation is found.
 */
export function refusedByHttp(request: RequestCase, status: number): boolean {
  if (!messageLevel(request)) return false;
  return status === 400 || (status === 417 && request.framing?.spelling?.expect !== undefined);
}

/** The connection closed before any byte of an answer, to a request whose answering is left open (RequestCase.lenientAbout `silence`). */
export function silentlyRefused(request: RequestCase, outcome: HttpOutcome): boolean {
  return request.lenient !== undefined && request.lenientAbout === 'silence' && outcome.kind === 'failure' && outcome.failure === 'reset' && outcome.partial === undefined;
}
