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

/** Decides whether a well-formed credential is accepted (the servers' tokens; the mock's any). */
export type CredentialPolicy = (credential: string) => boolean;

/**
 * A credential judged: accepted; or refused because it is absent (none of this scheme's: a 401
 * challenge without an error code), malformed, or well-formed and not accepted.
 */
export type CredentialJudgement = { readonly outcome: 'accepted' } | CredentialRefusal;

export interface CredentialRefusal {
  readonly outcome: 'absent' | 'malformed' | 'rejected';
  /** What the 401's Error message says (`authorization: bearer token not accepted`). */
  readonly reason: string;
}

export const CREDENTIAL_ACCEPTED: CredentialJudgement = Object.freeze({ outcome: 'accepted' });

export interface SecuritySchemeType {
  /** How refusals and docs name it: `http bearer`. */
  readonly name: string;
  /** Whether it serves this securityScheme object (its `type`, `scheme`, `in`, …). */
  serves(scheme: Schema): boolean;
  /** Where a request carries the credential of this securityScheme object. */
  credentialIn(scheme: Schema): CredentialLocation;
  /** A credential (a token, a key) as a request carries it at `credentialIn`: `Bearer <token>`. */
  write(credential: string): string;
  /** The credential as the request carries it (undefined: not there), judged against `accept`. */
  judge(credential: string | undefined, accept: CredentialPolicy): CredentialJudgement;
  /** The `WWW-Authenticate` value of the 401 that refuses it (RFC 9110, section 11.6.1). */
  challenge(refusal: CredentialRefusal): string;
}
