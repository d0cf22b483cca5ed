/**
 * What OAuth 2 and OpenID Connect share (oauth2.ts, openid-connect.ts): the kit sees only the
 * access token a client presents, as a bearer token (RFC 6750), and never runs a flow. A token is
 * accepted as HTTP bearer accepts one; where the user said which scopes it has, a requirement's
 * scopes it lacks refuse it with 403 and `error="insufficient_scope"` (RFC 6750, section 3.1).
 */
import { AUTHORIZATION, bearerChallenge, bearerTokenOf, NOT_ACCEPTED } from './http-bearer.js';
import type { Schema } from '../types.js';
import { CREDENTIAL_ACCEPTED, quoted, REALM, refused, type CredentialRefusal, type SecuritySchemeType } from './scheme.js';

/** The refusal of a token that lacks scopes, with the scopes the requirement names (the challenge's `scope`). */
interface ScopeRefusal extends CredentialRefusal {
  readonly outcome: 'insufficient_scope';
  readonly required: readonly string[];
}

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** RFC 6749, section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ); the kit also keeps commas out, its separator. */
const SCOPE = /^[\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]+$/;

/** A scheme type for access tokens of `type` (oauth2, openIdConnect). */
export function accessTokenScheme(name: string, type: string): SecuritySchemeType {
  return {
    name,
    scoped: true,
    serves: (scheme: Schema) => scheme.type === type,
    credentialIn: () => AUTHORIZATION,
    write: (token) => `Bearer ${token}`,
    judge: (authorization, accept, use) => {
      const token = bearerTokenOf(authorization);
      if (typeof token !== 'string') return token;
      if (!accept(token)) return NOT_ACCEPTED;
      const required = use?.scopes;
      const has = required === undefined ? undefined : accept.scopesOf?.(token);
      const missing = has === undefined ? [] : (required ?? []).filter((scope) => !has.has(scope));
      if (missing.length === 0) return CREDENTIAL_ACCEPTED;
      const refusal: ScopeRefusal = { ...refused('insufficient_scope', `authorization: the token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`), outcome: 'insufficient_scope', required: required ?? [] };
      return refusal;
    },
    challenge: (refusal) => (refusal.outcome === 'insufficient_scope' ? `Bearer ${REALM}, error="insufficient_scope", scope=${quoted((refusal as ScopeRefusal).required.join(' '))}` : bearerChallenge(refusal)),
    // `token` or `token:scope1,scope2` (a b64token holds no colon): the scopes the token has.
    given: (text) => {
      const colon = text.indexOf(':');
      const token = colon === -1 ? text : text.slice(0, colon);
      if (!B64TOKEN.test(token)) return 'an access token is a bearer token (RFC 6750 b64token), optionally followed by :scope1,scope2';
      if (colon === -1) return { credential: token };
      const scopes = text.slice(colon + 1).split(',').filter((scope) => scope !== '');
      if (!scopes.every((scope) => SCOPE.test(scope))) return 'a scope is printable ASCII without spaces, quotes, backslashes or commas (RFC 6749, section 3.3)';
      return { credential: token, scopes };
    },
  };
}
