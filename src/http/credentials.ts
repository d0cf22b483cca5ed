/**
 * The credentials a server accepts, per security scheme of its contract: those the user gives for
 * a scheme by its name (`--auth <scheme>=<value>`, PLANT_STORE_AUTH_<SCHEME>, the API's
 * `credentials`), each read by its scheme type (src/openapi/security/); a scheme the user gives
 * none for accepts the server's tokens (`--token`; the mock: any well-formed credential), as the
 * bearer token, the api key, or the password of any user for HTTP basic (docs/contracts.md).
 */
import { asRecord, securitySchemeTypeFor, type Contract, type CredentialLocation, type CredentialPolicy, type GivenCredential, type SecuritySchemeType } from '../openapi/portable.js';
import { acceptTokens, type TokenPolicy } from './rules.js';
import type { SecretNames } from './secrets.js';

/** Credentials by scheme name, as the user writes them: one, or several, per scheme. */
export type GivenCredentials = Readonly<Record<string, string | readonly string[]>>;

/** A policy accepting exactly these credentials (compared in constant time), each with the scopes it has, if said. */
export function acceptCredentials(given: readonly GivenCredential[]): CredentialPolicy {
  const accepts = acceptTokens(given.map((g) => g.credential));
  const scopes = new Map<string, ReadonlySet<string>>();
  // A credential given twice, once without scopes, has every scope.
  const unscoped = new Set(given.filter((g) => g.scopes === undefined).map((g) => g.credential));
  for (const g of given) if (g.scopes !== undefined && !unscoped.has(g.credential)) scopes.set(g.credential, new Set([...(scopes.get(g.credential) ?? []), ...g.scopes]));
  if (scopes.size === 0) return accepts;
  // Asked only of a credential already accepted: a lookup by its text gives away nothing more.
  return Object.assign((credential: string) => accepts(credential), { scopesOf: (credential: string) => scopes.get(credential) });
}

/** The schemes a contract declares that the kit serves, by name. */
export function servedSchemes(contract: Contract): Map<string, SecuritySchemeType> {
  const served = new Map<string, SecuritySchemeType>();
  for (const [name, raw] of Object.entries(asRecord(asRecord(contract.document.components).securitySchemes))) {
    const type = securitySchemeTypeFor(contract.resolve(asRecord(raw)));
    if (type !== undefined) served.set(name, type);
  }
  return served;
}

/**
 * The policy of each scheme of the contract that does not simply take `accept`: those the user
 * gave credentials for, and those whose type compares only a part with the server's tokens (HTTP
 * basic: the password). Undefined when there is none (the bundled contract): every scheme takes
 * `accept`. Throws an Error naming the scheme for one the contract does not declare or a value its type refuses.
 */
export function schemePolicies(contract: Contract, accept: TokenPolicy, given: GivenCredentials = {}): ReadonlyMap<string, CredentialPolicy> | undefined {
  const served = servedSchemes(contract);
  const policies = new Map<string, CredentialPolicy>();
  for (const [name, values] of Object.entries(given)) {
    const type = served.get(name);
    if (type === undefined) throw new Error(`credentials for ${name}: the contract declares no security scheme ${name} the kit serves${served.size === 0 ? '' : ` (it has ${[...served.keys()].join(', ')})`}`);
    const read = (typeof values === 'string' ? [values] : values).map((text) => {
      const credential = type.given ? type.given(text) : { credential: text };
      if (typeof credential === 'string') throw new Error(`credentials for ${name} (${type.name}): ${credential}`);
      return credential;
    });
    if (read.length > 0) policies.set(name, acceptCredentials(read));
  }
  for (const [name, type] of served) {
    if (!policies.has(name) && type.tokenPart !== undefined) policies.set(name, (credential) => accept(type.tokenPart?.(credential) ?? credential));
  }
  return policies.size === 0 ? undefined : policies;
}

/**
 * The credentials a client presents (conform, verify) or the proxy knows the upstream accepts, one
 * per scheme, read by each scheme's type as a server reads them: what is sent or compared (a
 * token's scopes taken off). Throws an Error naming the scheme, as schemePolicies does.
 */
export function readCredentials(contract: Contract, given: Readonly<Record<string, string>>): Record<string, string> {
  const served = servedSchemes(contract);
  const read: Record<string, string> = {};
  for (const [name, text] of Object.entries(given)) {
    const type = served.get(name);
    if (type === undefined) throw new Error(`credentials for ${name}: the contract declares no security scheme ${name} the kit serves${served.size === 0 ? '' : ` (it has ${[...served.keys()].join(', ')})`}`);
    const credential = type.given ? type.given(text) : { credential: text };
    if (typeof credential === 'string') throw new Error(`credentials for ${name} (${type.name}): ${credential}`);
    read[name] = credential.credential;
  }
  return read;
}

/** A credential as a client sends it for a scheme: where it goes and the text written there (`Basic <base64>`, the key). */
export interface PlacedCredential {
  readonly scheme: string;
  readonly place: CredentialLocation;
  readonly written: string;
}

/** The credentials a client sends (readCredentials), each with its place and written as its type writes it. */
export function placedCredentials(contract: Contract, given: Readonly<Record<string, string>>): PlacedCredential[] {
  const schemes = asRecord(asRecord(contract.document.components).securitySchemes);
  return Object.entries(readCredentials(contract, given)).flatMap(([name, credential]) => {
    const scheme = contract.resolve(asRecord(schemes[name]));
    const type = securitySchemeTypeFor(scheme);
    return type === undefined ? [] : [{ scheme: name, place: type.credentialIn(scheme), written: type.write(credential) }];
  });
}

/** The names the contract's API keys go in (header, query parameter), for the masks to hide whatever they look like (secrets.ts). */
export function secretNamesOf(contract: Contract): SecretNames {
  const headers = new Set<string>();
  const query = new Set<string>();
  for (const raw of Object.values(asRecord(asRecord(contract.document.components).securitySchemes))) {
    const scheme = contract.resolve(asRecord(raw));
    const type = securitySchemeTypeFor(scheme);
    if (type?.name !== 'apiKey') continue;
    const place = type.credentialIn(scheme);
    if (place.in === 'header') headers.add(place.name);
    else if (place.in === 'query') query.add(place.name);
  }
  return { headers, query };
}

/** `<scheme>=<value>` (the command line's --auth): the scheme's name and its credential. */
export function splitAuth(text: string): { scheme: string; value: string } | undefined {
  const equals = text.indexOf('=');
  return equals <= 0 ? undefined : { scheme: text.slice(0, equals), value: text.slice(equals + 1) };
}

/** The environment variable that gives a scheme's credential: PLANT_STORE_AUTH_ and its name in capitals, other characters as `_`. */
export function authVariable(scheme: string): string {
  return `PLANT_STORE_AUTH_${scheme.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
