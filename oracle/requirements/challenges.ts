/** The map's rows on authentication (RFC 9110 section 11, RFC 6750 section 3): the 401, its challenge and its grammar. */
import type { Provocation, Requirement } from './requirement.js';
import { tested, untestable } from './rows.js';

/** Every request the engine sends without valid credentials: none, a wrong token, another scheme, malformed; with a body and without. */
const REFUSED = ['credentials:', 'double-fault:'];
/** The 401s of those requests, each read for the rule of its row. */
const EVERY_401: Provocation = { how: 'every 401 the refused requests get', tags: REFUSED };
const GRAMMAR = 'the field is read by the grammar of RFC 9110 (oracle/challenge-grammar.ts): a failure names where it leaves it';

export const CHALLENGE_REQUIREMENTS: readonly Requirement[] = [
  tested({
    id: '9110-11.6.1-401-has-challenge',
    says: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge',
    provoke: { how: 'bad-auth, bad-auth-no-body and double-fault: every refuse row of the credential table for each operation (no credentials, other schemes, near misses, malformed), each scheme in its own place', tags: REFUSED },
    judge: { check: 'requires-auth', how: 'a 401 without WWW-Authenticate, or with a field that lists no challenge, fails (an API key, which has no challenge, aside)' },
    faults: ['no-www-authenticate'],
  }),
  tested({
    id: '9110-11.6.1-challenge-applies',
    says: 'The challenge(s) MUST be applicable to the target resource: a challenge for a scheme the operation takes',
    provoke: { how: 'as above', tags: REFUSED },
    judge: { check: 'requires-auth', how: 'the field must list a challenge for the refused scheme or for another of the operation\'s schemes (an alternative, or a part it also requires): Bearer for bearer, OAuth 2 and OpenID Connect tokens, Basic for HTTP basic' },
    faults: ['basic-challenge-for-bearer'],
  }),
  tested({
    id: '9110-11.2-challenge-syntax',
    says: 'challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]; auth-param = token BWS "=" BWS ( token / quoted-string ): parameters comma-separated, a value with a space or separator quoted',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: `${GRAMMAR}: an unquoted value with a space, parameters joined by a space, a tab after the scheme, a token68 of padding alone` },
    faults: ['unquoted-realm-with-space', 'space-joined-challenge-parameters'],
  }),
  tested({
    id: '9110-5.6.4-quoted-string',
    says: 'quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE: a quote or backslash inside is escaped, no control character, the string closed',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: `${GRAMMAR}: an unescaped quote ends the string and leaves the rest outside, an unclosed string fails` },
    faults: ['unescaped-quote-in-realm'],
  }),
  tested({
    id: '9110-11.2-parameter-once',
    says: 'Each parameter name MUST only occur once per challenge (RFC 6750, section 3: scope, error, error_description and error_uri MUST NOT appear more than once)',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: 'a parameter twice in one challenge, in any case, fails' },
    faults: ['repeated-challenge-parameter'],
  }),
  tested({
    id: '9110-5.6.1-no-empty-list-element',
    says: 'A sender MUST NOT generate empty list elements (WWW-Authenticate = #challenge; #auth-param)',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: 'an empty element outside quoted strings (a,,b, a leading or trailing comma) fails' },
    faults: ['empty-challenge-element'],
  }),
  tested({
    id: '9110-11.5-realm-quoted',
    says: 'realm: for historical reasons, a sender MUST only generate the quoted-string syntax',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: 'a realm written as a token (realm=plants) fails' },
    faults: ['token-realm'],
  }),
  tested({
    id: '6750-3-bearer-auth-params',
    says: 'All challenges defined by this specification MUST use the auth-scheme value "Bearer". This scheme MUST be followed by one or more auth-param values (a token68 is not one)',
    provoke: EVERY_401,
    judge: {
      check: 'requires-auth',
      how: 'a Bearer challenge followed by a token68 (realm= with nothing after it reads as one) fails; a bare Bearer warns',
      warning: 'a bare Bearer is the default of ASP.NET Core JwtBearer, Spring Security and FastAPI HTTPBearer; RFC 9110, section 11.6.1 allows a challenge without parameters, and the client learns all it needs (send a Bearer token); --strict fails it',
    },
    faults: ['bearer-without-params', 'empty-realm-variable'],
  }),
  tested({
    id: '6750-3-attribute-values',
    says: 'error and error_description values MUST NOT include characters outside %x20-21 / %x23-5B / %x5D-7E; error_uri outside %x21 / %x23-5B / %x5D-7E; scope is scope-tokens of %x21 / %x23-5B / %x5D-7E separated by single spaces (RFC 6749, appendix A.4)',
    provoke: EVERY_401,
    judge: { check: 'requires-auth', how: 'a Bearer attribute whose unquoted value has a quote, a backslash, a character beyond ASCII (or, in error_uri, a space; in scope, an empty token) fails' },
    faults: ['quoted-error-description'],
  }),
  tested({
    id: '6750-3.1-no-error-without-credentials',
    says: 'If the request lacks any authentication information, the resource server SHOULD NOT include an error code or other error information',
    provoke: { how: 'bad-auth and bad-auth-no-body: no credentials at all, for each operation', tags: ['credentials:missing'] },
    judge: { check: 'requires-auth', how: 'a 401 whose Bearer challenge has an error attribute warns', warning: 'a SHOULD NOT: the client that sent nothing is told it sent something wrong, and loses nothing by it' },
    faults: ['error-code-without-credentials'],
  }),
  tested({
    id: '6750-3.1-invalid-token-401',
    says: 'invalid_token (the access token provided is expired, revoked, malformed, or invalid): the resource server SHOULD respond with the HTTP 401 (Unauthorized) status code',
    provoke: { how: 'bad-auth: near misses of the token (a character changed, one cut, one appended), random wrong tokens', tags: ['credentials:wrong-token'] },
    judge: { check: 'requires-auth', how: 'a 2xx fails (credentials must be checked), so does any status but 401' },
    faults: ['forbidden-for-wrong-token', 'accepts-token-prefix'],
  }),
  tested({
    id: '6750-3.1-unsupported-method-401',
    says: 'A request that attempted an unsupported authentication method lacks authentication information: 401 with a challenge, no error code',
    provoke: { how: 'bad-auth: the token after other scheme words (Basic, Token, OAuth, Bearer without a space)', tags: ['credentials:other-scheme'] },
    judge: {
      check: 'requires-auth',
      how: 'a 2xx fails; a declared 400 warns',
      warning: "Hono's bearerAuth answers another scheme with 400 invalid_request; the client is refused either way, only told less",
    },
    faults: ['accepts-any-scheme'],
  }),
  tested({
    id: '6750-3.1-invalid-request-400',
    says: 'invalid_request (a malformed request: a parameter missing or repeated, more than one method): the resource server SHOULD respond with the HTTP 400 (Bad Request) status code',
    provoke: { how: 'bad-auth: an empty token, a token with a comma or a space, two Authorization fields, a header with no scheme', tags: ['credentials:malformed'] },
    judge: { check: 'requires-auth', how: 'a declared 400 or a 401 with a challenge passes; a 2xx fails' },
    faults: ['token-split-at-comma'],
  }),
  untestable({
    id: '6750-3.1-insufficient-scope-403',
    says: 'insufficient_scope (the request requires higher privileges than provided by the access token): the resource server SHOULD respond with the HTTP 403 (Forbidden) status code',
    untestable: 'it needs a valid token that lacks a scope the operation requires; the engine holds one token per scheme, the one that works, and cannot mint another',
  }),
  tested({
    id: '9110-11.6.1-credentials-before-body',
    says: 'A request without valid credentials is answered 401 with a challenge (RFC 6750, section 3), not judged on its body',
    provoke: { how: 'double-fault: a broken body (a schema violation, malformed JSON, a wrong media type) with no credentials or a wrong token', tags: ['double-fault:missing', 'double-fault:wrong-token'] },
    judge: { check: 'credentials-first', how: 'a declared 4xx other than 401 warns', warning: 'the contract allows either answer; a server that reads bodies before credentials lets anyone have bodies parsed and read its errors' },
    faults: ['body-before-credentials'],
  }),
  tested({
    id: '9110-15.5.2-401-carries-a-challenge',
    says: 'The server generating a 401 response MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource.',
    provoke: { how: 'every request without credentials or with refused ones (bad-auth, bad-auth-no-body, double-fault)', tags: REFUSED },
    judge: { check: 'requires-auth', how: 'a 401 without WWW-Authenticate, or with no challenge in it, fails' },
    faults: ['no-www-authenticate'],
  }),
];
