/**
 * The security scheme types the kit serves: one per file, each listed once in SECURITY_SCHEMES.
 * A contract's scheme that none serves (mutualTLS, an HTTP scheme other than bearer and basic) is
 * refused when the contract is loaded, by its name and type.
 */
import type { Schema } from '../types.js';
import { apiKey } from './api-key.js';
import { httpBasic } from './http-basic.js';
import { httpBearer } from './http-bearer.js';
import { oauth2 } from './oauth2.js';
import { openIdConnect } from './openid-connect.js';
import type { SecuritySchemeType } from './scheme.js';

export * from './scheme.js';
export { httpBearer, isWellFormedToken } from './http-bearer.js';
export { httpBasic } from './http-basic.js';
export { apiKey } from './api-key.js';
export { oauth2 } from './oauth2.js';
export { openIdConnect } from './openid-connect.js';

/** Every security scheme type of the kit. Adding one: its file here, and its line in this list. */
export const SECURITY_SCHEMES: readonly SecuritySchemeType[] = [httpBearer, httpBasic, apiKey, oauth2, openIdConnect];

/** The type that serves an OpenAPI securityScheme object, among `types`; undefined when none does. */
export function securitySchemeTypeFor(scheme: Schema, types: readonly SecuritySchemeType[] = SECURITY_SCHEMES): SecuritySchemeType | undefined {
  return types.find((type) => type.serves(scheme));
}
