/**
 * Credentials per security scheme (issue 29): what a request of an operation carries to satisfy
 * its security requirements (alternatives of schemes that must all hold, `securedBy`), built from
 * the credentials the run has - the user's `--auth <scheme>=<value>` by scheme name, the bearer
 * token for the bearer-shaped schemes (HTTP bearer, OAuth 2, OpenID Connect) - and the attacks on
 * each scheme in its own place (the key's header, query parameter or cookie).
 *
 * An operation whose first requirement is one HTTP bearer scheme keeps the credential table's
 * rows (credential-spellings.ts) and the token: the bundled contract's run is exactly as before.
 * Every other secured operation is planned here; one with no alternative the run has credentials
 * for is not reached at all, and the report lists it as not tested, never as passed.
 */
import type { Contract, OperationContract, SchemeInUse } from '../../../src/openapi/index.js';
import type { Credentials, Profile } from '../../../oracle/index.js';
import type { AuthSpelling } from './credential-spellings.js';

/** The credentials of a run besides the bearer token: per scheme name, and plain header fields. */
export interface EngineCredentials {
  /** A credential per security scheme name, as the user writes it (`--auth`): a token, a key, `user:password`. */
  readonly schemes: Readonly<Record<string, string>>;
  /** Header fields every request carries (`--header 'Name: value'`), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

export const NO_CREDENTIALS: EngineCredentials = Object.freeze({ schemes: {}, headers: {} });

/** A credential made up for a mock, which accepts any well-formed one (as ANY_TOKEN, run/options.ts). */
const MOCK_KEY = 'plant-store-conform';
const MOCK_PAIR = 'conform:plant-store-conform';

/** A scheme of a requirement with the credential the run sends for it. */
interface Part {
  readonly use: SchemeInUse;
  readonly value: string;
}

/** How an operation's requests carry credentials: none needed, out of reach, or an alternative the run can satisfy. */
export type CredentialPlan =
  | { readonly kind: 'open' }
  | { readonly kind: 'bearer' }
  | { readonly kind: 'unreachable'; readonly reason: string }
  | { readonly kind: 'schemes'; readonly parts: readonly Part[]; readonly alternatives: readonly (readonly Part[])[] };

const BEARER_SHAPED = new Set(['http bearer', 'oauth2', 'openIdConnect']);

/** Whether an operation is the engine's historical case: one alternative of one HTTP bearer scheme, with a token to send. */
export function isPlainBearer(operation: OperationContract, token: string): boolean {
  const [only, ...others] = operation.securedBy;
  return token !== '' && others.length === 0 && only?.length === 1 && only[0]?.type.name === 'http bearer';
}

function valueFor(use: SchemeInUse, token: string, credentials: EngineCredentials, profile: Profile): string | undefined {
  const given = credentials.schemes[use.name];
  if (given !== undefined) return given;
  if (BEARER_SHAPED.has(use.type.name) && token !== '') return token;
  if (profile !== 'mock') return undefined;
  return use.type.name === 'http basic' ? MOCK_PAIR : MOCK_KEY;
}

/** The plan of an operation's credentials for a run. */
export function credentialPlan(operation: OperationContract, token: string, credentials: EngineCredentials, profile: Profile): CredentialPlan {
  if (operation.securedBy.length === 0) return { kind: 'open' };
  if (isPlainBearer(operation, token)) return { kind: 'bearer' };
  const satisfied: Part[][] = [];
  for (const alternative of operation.securedBy) {
    const parts = alternative.map((use) => ({ use, value: valueFor(use, token, credentials, profile) }));
    if (parts.every((part): part is Part => part.value !== undefined)) satisfied.push(parts);
  }
  const [first, ...alternatives] = satisfied;
  if (first === undefined) {
    const needed = operation.securedBy.map((alternative) => alternative.map((use) => use.name).join(' and ')).join(', or ');
    return { kind: 'unreachable', reason: `no credentials for ${needed} (--auth <scheme>=<value>)` };
  }
  return { kind: 'schemes', parts: first, alternatives };
}

/** The contract's operations the run has credentials for (or that need none), in order. */
export function reachableOperations(contract: Contract, options: { token: string; profile?: Profile | undefined; credentials?: EngineCredentials | undefined }): OperationContract[] {
  return contract.operations.filter((operation) => credentialPlan(operation, options.token, options.credentials ?? NO_CREDENTIALS, options.profile ?? 'reference').kind !== 'unreachable');
}

/** The schemes a plan sends credentials of, by name. */
export function schemesOf(plan: CredentialPlan): string[] {
  return plan.kind === 'schemes' ? [...new Set([plan.parts, ...plan.alternatives].flat().map((part) => part.use.name))] : [];
}

/** A credential as it is placed: an Authorization line, a header field, a query pair or a cookie pair. */
interface Placed {
  readonly in: 'authorization' | 'header' | 'query' | 'cookie';
  readonly name: string;
  readonly value: string;
}

function placedOf(part: Part, where: SchemeInUse['credential']['in'] = part.use.credential.in): Placed {
  if (part.use.credential.name === 'authorization' && where === 'header') return { in: 'authorization', name: 'authorization', value: part.use.type.write(part.value) };
  return { in: where, name: part.use.credential.name, value: part.use.type.write(part.value) };
}

/** The spelling that carries these placed credentials. */
function spelling(placed: readonly Placed[], credentials: Credentials, shown: string, attacked?: string): AuthSpelling {
  const lines = placed.filter((p) => p.in === 'authorization').map((p) => p.value);
  const fields: Record<string, string> = {};
  for (const p of placed) if (p.in === 'header') fields[p.name.toLowerCase()] = p.value;
  const cookies = placed.filter((p) => p.in === 'cookie').map((p) => `${p.name}=${p.value}`);
  if (cookies.length > 0) fields.cookie = cookies.join('; ');
  const query = placed
    .filter((p) => p.in === 'query')
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`)
    .join('&');
  const [header, ...more] = lines;
  return {
    header,
    credentials,
    shown,
    ...(more.length === 0 ? {} : { moreHeaders: more }),
    ...(query === '' ? {} : { query }),
    ...(Object.keys(fields).length === 0 ? {} : { fields }),
    ...(attacked === undefined ? {} : { attacked }),
  };
}

/** How a report names where a scheme's credential goes: `X-Key header`, `key query parameter`. */
function placeName(use: SchemeInUse, where: string = use.credential.in): string {
  if (use.credential.name === 'authorization') return `Authorization (${use.name})`;
  return `${use.credential.name} ${where === 'query' ? 'query parameter' : where} (${use.name})`;
}

/** The valid credentials of a plan's alternative: as most clients send them. */
export function validSpelling(parts: readonly Part[]): AuthSpelling {
  return spelling(parts.map((part) => placedOf(part)), 'valid', parts.length === 0 ? '' : `valid ${parts.map((part) => placeName(part.use)).join(' and ')}`);
}

/** A near miss of a credential: its last character changed (still well-formed for every type). */
function nearMiss(value: string): string {
  const last = value.slice(-1);
  return `${value.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

const PLACES = ['header', 'query', 'cookie'] as const;

/** The attacks on one scheme of the alternative, the others sent valid: each a spelling a server must refuse. */
function attacksOn(parts: readonly Part[], index: number, profile: Profile): AuthSpelling[] {
  const part = parts[index] as Part;
  const { use, value } = part;
  const others = parts.filter((_, i) => i !== index).map((p) => placedOf(p));
  const attacked = use.type.name;
  const where = placeName(use);
  const with_ = (placed: Placed | undefined, credentials: Credentials, shown: string): AuthSpelling => spelling(placed === undefined ? others : [...others, placed], credentials, shown, attacked);
  const as = (raw: string): Placed => ({ ...placedOf(part), value: raw });
  const attacks: AuthSpelling[] = [with_(undefined, 'missing', `${parts.length > 1 ? 'one part missing: ' : ''}no ${where}`)];
  const wrong = profile !== 'mock';
  switch (use.type.name) {
    case 'apiKey':
      attacks.push(with_(as(''), 'malformed', `an empty ${where}`));
      if (wrong) attacks.push(with_(as(nearMiss(value)), 'wrong-token', `a near miss of the key in ${where}`));
      if (wrong && value.length > 1) attacks.push(with_(as(value.slice(0, -1)), 'wrong-token', `the key without its last character in ${where}`));
      for (const place of PLACES) {
        if (place === use.credential.in || (place === 'header' && ['authorization', 'cookie'].includes(use.credential.name))) continue;
        attacks.push(with_(placedOf(part, place), 'missing', `the key in the wrong place: ${placeName(use, place)}`));
      }
      break;
    case 'http basic': {
      const colon = value.indexOf(':');
      if (wrong) attacks.push(with_(as(use.type.write(`${value}x`)), 'wrong-token', `${where}: a wrong password`));
      attacks.push(with_(as(use.type.write(colon === -1 ? value : value.slice(0, colon) + value.slice(colon + 1))), 'malformed', `${where}: no colon between user and password`));
      attacks.push(with_(as(`Basic ${use.type.write(value).slice(6)}!`), 'malformed', `${where}: bad base64`));
      attacks.push(with_(as(`Bearer ${btoa(value).replace(/=+$/, '')}`), 'other-scheme', `${where}: another scheme (Bearer)`));
      break;
    }
    default:
      if (wrong) attacks.push(with_(as(use.type.write(nearMiss(value))), 'wrong-token', `${where}: a near miss of the token`));
      attacks.push(with_(as(`${use.type.write(value)},`), 'malformed', `${where}: a malformed token`));
      attacks.push(with_(as(use.type.name === 'http bearer' || BEARER_SHAPED.has(use.type.name) ? `Basic ${btoa(`conform:${value}`)}` : `Bearer ${value}`), 'other-scheme', `${where}: another scheme`));
  }
  return attacks;
}

/** Every attack of a plan: each scheme of its alternative attacked in turn. */
export function schemeAttacks(plan: CredentialPlan, profile: Profile): AuthSpelling[] {
  if (plan.kind !== 'schemes') return [];
  return plan.parts.flatMap((_, index) => attacksOn(plan.parts, index, profile));
}

/** Each other alternative the run can satisfy, on its own: valid credentials a server must accept. */
export function alternativeSpellings(plan: CredentialPlan): AuthSpelling[] {
  if (plan.kind !== 'schemes') return [];
  return plan.alternatives.map((parts) => ({ ...validSpelling(parts), shown: `the alternative ${parts.map((p) => p.use.name).join(' and ')} alone` }));
}

/** A credential of the n-th client the target never saw: the run's own, made distinct (still well-formed for its type; basic keeps its password, the user changes). */
function otherClientValue(use: SchemeInUse, value: string, n: number): string {
  if (use.type.name === 'http basic') return `client-${n}-${value}`;
  return `${value}-client-${n}`;
}

/**
 * Credentials of another client, the n-th (canary.ts, "sessions"): every scheme of the operation's
 * credentials in its own place, each made distinct. None where the operation needs none, or under
 * the mock profile (a mock accepts any credential, and keeps nothing).
 */
export function otherClientSpelling(plan: CredentialPlan, token: string, n: number, profile: Profile): AuthSpelling | undefined {
  if (profile === 'mock') return undefined;
  const shown = `the credentials of client ${n}, which no request presented before`;
  if (plan.kind === 'bearer') return { header: `Bearer ${token}-client-${n}`, credentials: 'wrong-token', shown };
  if (plan.kind !== 'schemes') return undefined;
  return spelling(plan.parts.map((part) => placedOf({ ...part, value: otherClientValue(part.use, part.value, n) })), 'wrong-token', shown);
}

/** The credentials' secrets a report hides: every value the run sends, with its scheme's name. */
export function secretValues(credentials: EngineCredentials): { text: string; scheme: string }[] {
  return Object.entries(credentials.schemes).map(([scheme, text]) => ({ scheme, text }));
}
