/**
 * The map's rows on methods and targets (RFC 9110 section 9, 15.5.6; RFC 9112 section 3.2; RFC
 * 3986): every method, OPTIONS and `*`, HEAD, the target's spellings. The requests come from
 * `other-method` (every method of section 9 on every path, an unknown one, one in lower case,
 * `OPTIONS *`, HEAD of an item stored just before) and `target-spellings` (each path's target
 * spelled in each equivalent and each invalid class of RFC 3986 and RFC 9112), and from `framing`
 * (the query's escapes, the absolute-form, no Host). The faults are in test/faulty/map-targets.ts
 * but for those named from operations.ts (no-allow-on-405, head-with-body) and wire-faults.ts
 * (dies-on-bad-percent-escape).
 */
import type { Requirement } from './requirement.js';
import { tested, untestable } from './rows.js';

const ROUTER_404 = 'routers that know paths, not methods (Express, Fastify, Hono, node:http handlers) answer 404: the client learns the request is refused, and nothing it was promised is lost';

export const TARGET_REQUIREMENTS: readonly Requirement[] = [
  tested({
    id: '9110-9.1-get-and-head',
    says: 'All general-purpose servers MUST support the methods GET and HEAD.',
    provoke: { how: 'HEAD on every path that declares GET (other-method), with the plain values of its parameters', tags: ['method:HEAD'] },
    judge: { check: 'method-semantics', how: 'a status the GET declares; a 405 to HEAD where GET is declared fails' },
    faults: ['head-405'],
  }),
  tested({
    id: '9110-9.3.2-head-no-content',
    says: 'The HEAD method is identical to GET except that the server MUST NOT send content in the response.',
    provoke: {
      how: "HEAD on every path that declares GET, of the plain parameter values (a 404 on an item path) and, on an item path, of an item its collection's create stored just before (setup requests, the parents' first): a server that writes the body only where it found something (Python's do_HEAD = do_GET, whose send_error leaves a 404 bare) shows it only there, which HEAD of unstored items alone missed",
      tags: ['method:HEAD', 'head:stored-item'],
    },
    judge: { check: 'method-semantics', how: 'no content: no body under a Content-Length, and no bytes after the head that no framing accounts for (RFC 9112, section 6.3)' },
    faults: ['head-with-body', 'head-body-where-found'],
  }),
  tested({
    id: '9110-15.5.6-405-allow',
    says: "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource's currently supported methods.",
    provoke: { how: 'every method of RFC 9110, section 9 (and PATCH) a path does not declare, an unknown one and one in lower case, on every path (other-method)', tags: ['method:'] },
    judge: { check: 'method-semantics', how: 'a 405 carries Allow, listing every method the contract declares on the path and not the refused one (section 10.2.1)' },
    faults: ['no-allow-on-405'],
  }),
  tested({
    id: '9110-15.5.6-405-for-undeclared',
    says: 'The 405 (Method Not Allowed) status code indicates that the method received in the request-line is known by the origin server but not supported by the target resource.',
    provoke: { how: 'GET, POST, PUT, DELETE, PATCH and TRACE where the path does not declare them (other-method)', tags: ['method:'] },
    judge: { check: 'method-semantics', how: 'a 405 (or a 501 to TRACE); another 4xx, or a success the contract does not declare, warns', warning: ROUTER_404 },
    faults: ['router-404-for-methods', 'unknown-method-404'],
  }),
  tested({
    id: '9110-9.1-unrecognised-501',
    says: 'An origin server that receives a request method that is unrecognized or not implemented SHOULD respond with the 501 (Not Implemented) status code.',
    provoke: { how: 'on every path, a method no registry knows (a valid token) and the path\'s first method in lower case, each on a connection of its own (a parser may answer before the request is whole)', tags: ['method-token:unknown', 'method-token:lower-case'] },
    judge: {
      check: 'method-semantics',
      how: '501 passes; so do 405 with Allow and 400 (a parser with a table of methods - node:http\'s llhttp, and so Express, Fastify, Hono, the kit\'s reference - refuses it before any handler); another 4xx warns',
      warning: 'a SHOULD: a 404 refuses the method all the same, and a client loses nothing it was promised',
    },
    faults: ['unknown-method-404'],
  }),
  tested({
    id: '9110-9.1-methods-case-sensitive',
    says: 'The method token is case-sensitive because it might be used as a gateway to object-based systems with case-sensitive method names.',
    provoke: { how: "on every path, its first declared method in lower case (post), carrying that method's plain valid body and credentials", tags: ['method-token:lower-case'] },
    judge: { check: 'method-semantics', how: 'the lower-case method is another, unrecognised one: a 2xx to the lower-case spelling of a declared POST, PUT, PATCH or DELETE fails (the server took it for that method and acted on it); a 2xx to another warns' },
    faults: ['case-insensitive-methods'],
  }),
  tested({
    id: '9110-9.1-methods-no-server-error',
    says: 'A server that receives a method it does not recognise or implement answers it (501, or 405 with Allow), never with a server error.',
    provoke: { how: 'OPTIONS, TRACE, CONNECT, an unknown method and a lower-case one on every path (other-method)', tags: ['method-token:'] },
    judge: { check: 'no-server-error', how: 'no 5xx but 501, no reset, no timeout, no process that dies (every later request fails); a CONNECT whose connection is closed unanswered passes (node:http\'s default without a connect listener: an origin server tunnels nothing)' },
    faults: ['no-handler-500'],
  }),
  tested({
    id: '9110-9.3.6-connect',
    says: 'The CONNECT method requests that the recipient establish a tunnel to the destination origin server identified by the request-target.',
    provoke: { how: 'CONNECT on every path that does not declare it, on a connection of its own', tags: ['method:CONNECT'] },
    judge: { check: 'no-server-error', how: 'any 4xx, 405 with Allow, 501, or the connection closed unanswered; another 5xx, a timeout or a dead process fails' },
    faults: ['no-handler-500'],
  }),
  untestable({
    id: '9110-9.3.6-connect-2xx-framing',
    says: 'A server MUST NOT send any Transfer-Encoding or Content-Length header fields in a 2xx (Successful) response to CONNECT.',
    untestable: 'an origin server of a contract tunnels nothing: a 2xx to CONNECT turns the connection into a tunnel to a destination the engine never names (its CONNECT has no authority-form target), so no conforming exchange reaches the answer this rule is about',
  }),
  tested({
    id: '9110-9.3.7-options-allow',
    says: 'A server generating a successful response to OPTIONS SHOULD send any header that might indicate optional features implemented by the server and applicable to the target resource (e.g., Allow).',
    provoke: { how: 'OPTIONS on every path that does not declare it (other-method)', tags: ['method:OPTIONS'] },
    judge: { check: 'method-semantics', how: 'a 2xx without Allow warns; any 4xx, 405 with Allow and 501 pass (OPTIONS is about the server\'s capabilities, and a CORS layer may answer it)', warning: 'a SHOULD: the client can still learn the methods from a 405' },
    faults: ['options-without-allow'],
  }),
  tested({
    id: '9112-3.2.4-asterisk-form',
    says: 'The asterisk-form of request-target is only used for a server-wide OPTIONS request.',
    provoke: { how: 'OPTIONS * once a contract, written exactly (RequestFraming.target), on a connection of its own', tags: ['target-form:asterisk'] },
    judge: { check: 'no-server-error', how: 'any 2xx or 4xx (or 501); a 5xx, a reset or a dead process fails' },
    faults: ['router-assumes-origin-form'],
  }),
  tested({
    id: '9112-3.2.2-absolute-form',
    says: 'A server MUST accept the absolute-form in requests even though most HTTP/1.1 clients will only send the absolute-form to a proxy.',
    provoke: { how: "the plain valid request with its target in absolute-form: framing for each operation with a JSON body, target-spellings for each path whose first operation has none", tags: ['framing:absolute-form', 'target:equivalent:absolute-form'] },
    judge: { check: 'accepts-valid', how: 'answered as the plain request; a refusal (any 4xx, a router\'s 404) warns; a 5xx, a reset or a dead process fails (no-server-error)', warning: 'kept for a transition of a future HTTP; no HTTP/1.1 client sends it to an origin server, and routers that match the raw target (Fastify, node:http handlers, Python http.server) answer 404' },
    faults: ['raw-target-router'],
  }),
  tested({
    id: '9112-3.2-host-required',
    says: 'A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field.',
    provoke: { how: 'the plain valid request of each operation with a JSON body, without Host (framing)', tags: ['framing:no-host'] },
    judge: { check: 'rejects-invalid', how: 'a declared 4xx from a server that answers as HTTP/1.1 (one that answers as HTTP/1.0 reads it as HTTP/1.0, where Host is optional); its body is not held to the contract (the HTTP layer answers before any operation)' },
    faults: ['host-optional'],
  }),
  tested({
    id: '3986-2.1-bad-escape-query',
    says: 'A percent-encoded octet is encoded as a character triplet, consisting of the percent character "%" followed by the two hexadecimal digits representing that octet\'s numeric value.',
    provoke: { how: 'query strings with valid escapes, an escape of an octet that is not UTF-8, and malformed ones (%zz, %, %2) on each operation with a JSON body (framing)', tags: ['framing:query:'] },
    judge: { check: 'no-server-error', how: 'a refusal (any declared 4xx) or the plain answer; a 5xx, a reset or a process that dies (every later request fails) fails' },
    faults: ['dies-on-bad-percent-escape'],
  }),
  tested({
    id: '3986-2.1-bad-escape-path',
    says: 'A percent-encoded octet is a "%" followed by two hexadecimal digits; a path with a malformed one is no valid target (RFC 9112, section 3.2: absolute-path).',
    provoke: {
      how: "on every path, %zz, a lone % and %E9 (an octet that is not UTF-8) in the last segment: in place of a parameter's value where the path ends with one (a router that decodes the parameter), else after the literal segment (a layer that decodes the whole path); the query's escapes alone missed a store that decodes only the path",
      tags: ['target:invalid:escape:'],
    },
    judge: { check: 'no-server-error', how: 'any 4xx, declared or not (the router\'s); a 5xx, a reset or a process that dies (every later request fails) fails' },
    faults: ['dies-on-bad-escape-in-path', 'param-decoder-500'],
  }),
  tested({
    id: '9112-3-invalid-request-target',
    says: 'Recipients of an invalid request-line SHOULD respond with either a 400 (Bad Request) error or a 301 (Moved Permanently) redirect with the request-target properly encoded.',
    provoke: { how: 'on every path, a space, a control character (U+0001) and a fragment (#, no part of a request-target) in the target, written exactly, each on a connection of its own', tags: ['target:invalid:space', 'target:invalid:control', 'target:invalid:fragment'] },
    judge: { check: 'no-server-error', how: 'any 4xx passes (400 is what node:http, Python and the reference answer); a 5xx, a reset or a process that dies fails' },
    faults: ['request-line-dies'],
  }),
  tested({
    id: '3986-6.2.2-equivalent-spellings',
    says: 'URIs that differ in the replacement of an unreserved character with its corresponding percent-encoded US-ASCII octet are equivalent: they identify the same resource (6.2.2.2); so are the cases of hex in an escape (6.2.2.1), and an empty query (6.2.3).',
    provoke: {
      how: 'on every path, the plain valid request with an unreserved character percent-encoded (/%70lants), the other case of hex in an escape where the plain target has one (target:equivalent:hex-case), and an empty query (/plants?), written exactly; each is judged as its plain form by every check (its path is the plain one)',
      tags: ['target:equivalent:unreserved-encoded', 'target:equivalent:empty-query'],
    },
    judge: { check: 'accepts-valid', how: "the plain request's success; a refusal (any 4xx) warns", warning: 'no client sends these spellings, and routers that match the raw path (Express, node:http handlers, Python http.server comparing self.path) answer 404' },
    faults: ['raw-target-router'],
  }),
  tested({
    id: '9110-4.2.3-equivalent-no-server-error',
    says: 'Two HTTP URIs that are equivalent after normalization (using any method) can be assumed to identify the same resource, and any HTTP component MAY perform normalization.',
    provoke: { how: 'the equivalent spellings of every path (target-spellings)', tags: ['target:equivalent:'] },
    judge: { check: 'no-server-error', how: 'an equivalent spelling gets what its plain form gets, or a 4xx; never a 5xx or a reset' },
    faults: ['empty-query-500'],
  }),
  tested({
    id: '9110-4.2.3-equivalent-credentials',
    says: 'An equivalent target identifies the same resource: it is guarded by the same credentials (RFC 6750, section 3: a request without them is refused).',
    provoke: { how: 'on every secured path, the unreserved-encoded spelling (/%70lants) without credentials', tags: ['target:equivalent:unreserved-encoded:no-credentials'] },
    judge: { check: 'requires-auth', how: 'a 401 with the scheme\'s challenge, or a router\'s 4xx; a 2xx fails (a guard that matches the raw path, and a router that decodes it, let the request through)' },
    faults: ['guard-on-raw-path'],
  }),
  untestable({
    id: '9110-9.2-safe-and-idempotent',
    says: 'GET, HEAD, OPTIONS and TRACE are safe: the client does not request, and does not expect, any state change; PUT, DELETE and the safe methods are idempotent: the intended effect of several identical requests is the effect of one.',
    untestable:
      'both are properties of what the client asks for, not of what the server may do: section 9.2.1 lets a server log, count or bill a GET, and section 9.2.2 a PUT or DELETE to have side effects beyond the intended one. What shows in an answer is judged by the stateful checks (resource-available, replacement-visible, deleted-stays-deleted) and by method-semantics (a 2xx to a lower-case or unknown method that stored something)',
  }),
];
