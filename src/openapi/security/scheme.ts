/**
 * What a security scheme type is to the kit: which OpenAPI securityScheme objects it serves, where
 * a request carries its credential, how that credential is judged, and the challenge a 401 for it
 * carries. One file per type beside this one, each listed once in index.ts (docs/DESIGN.md, "Recipes").
 */
import type { Schema } from '../types.js';

/** Where a request carries a scheme's credential: a header field, a query parameter or a cookie, by name. */
export interface CredentialLocation {
  readonly in: 'header' | 'query' | 'cookie';
  /** Lower case for a header. */
  readonly name: string;
}

/**
 * Decides whether a well-formed credential is accepted (the servers' tokens; the mock's any).
 * `scopesOf`, where the user said which scopes a token has, gives them for an accepted one;
 * without it, or where it gives undefined, a token has every scope a requirement names.
 */
export interface CredentialPolicy {
  (credential: string): boolean;
  readonly scopesOf?: (credential: string) => ReadonlySet<string> | undefined;
}

/** A scheme as one requirement of an operation uses it: its name, where its credential is, the scopes it names. */
export interface SchemeUse {
  readonly name: string;
  readonly credential: CredentialLocation;
  /** The scopes the requirement names (OAuth 2, OpenID Connect); absent when it names none. */
  readonly scopes?: readonly string[];
}

/**
 * A credential judged: accepted; or refused because it is absent (none of this scheme's: a 401
 * challenge without an error code), malformed, well-formed and not accepted, or accepted without
 * a scope the requirement names (a 403: RFC 6750, section 3.1).
 */
export type CredentialJudgement = { readonly outcome: 'accepted' } | CredentialRefusal;

export interface CredentialRefusal {
  readonly outcome: 'absent' | 'malformed' | 'rejected' | 'insufficient_scope';
  /** What the 401's Error message says (`authorization: bearer token not accepted`). */
  readonly reason: string;
}

export const CREDENTIAL_ACCEPTED: CredentialJudgement = Object.freeze({ outcome: 'accepted' });

/** A credential as the user gives it for a scheme (`--auth <scheme>=<value>`), read: what is compared, and a token's scopes. */
export interface GivenCredential {
  readonly credential: string;
  /** The scopes the token has; absent: every scope. */
  readonly scopes?: readonly string[];
}

export interface SecuritySchemeType {
  /** How refusals and docs name it: `http bearer`. */
  readonly name: string;
  /** Whether a requirement's list names scopes it honours (OAuth 2, OpenID Connect); for others it names roles the kit does not check. */
  readonly scoped?: boolean;
  /** Whether it serves this securityScheme object (its `type`, `scheme`, `in`, …). */
  serves(scheme: Schema): boolean;
  /** Where a request carries the credential of this securityScheme object. */
  credentialIn(scheme: Schema): CredentialLocation;
  /** A credential (a token, a key) as a request carries it at `credentialIn`: `Bearer <token>`. */
  write(credential: string): string;
  /** The credential as the request carries it (undefined: not there), judged against `accept` for `use`. */
  judge(credential: string | undefined, accept: CredentialPolicy, use?: SchemeUse): CredentialJudgement;
  /** The `WWW-Authenticate` challenge of the answer that refuses it (RFC 9110, section 11.6.1). */
  challenge(refusal: CredentialRefusal, use?: SchemeUse): string;
  /** A credential the user gives for it (`--auth`, the API's `credentials`), read; a string says what is wrong. Default: the text, whole. */
  given?(text: string): GivenCredential | string;
  /**
   * What of a presented credential the server's own tokens (`--token`, or the one generated) are
   * compared with where the user gave none for the scheme; default the whole credential.
   */
  tokenPart?(credential: string): string;
}

export const refused = (outcome: CredentialRefusal['outcome'], reason: string): CredentialRefusal => ({ outcome, reason });

/** A challenge's realm: every kit server names itself so (RFC 9110, section 11.5). */
export const REALM = 'realm="plant-store"';

/** A quoted-string (RFC 9110, section 5.6.4): `"` and `\` escaped. */
export function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** Whether text holds a control character (RFC 5234 CTL), which no credential here may hold. */
export function hasControl(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text);
}
