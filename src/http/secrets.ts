/**
 * Credentials never leave the kit in what it keeps or tells: one policy, here, for the request
 * journal (journal.ts), the checking proxy (proxy/) and the conformance reports (fuzz/).
 *
 * - **What is a secret**: what Authorization and Proxy-Authorization carry after their scheme
 *   (RFC 9110, section 11.4), or the whole value when its one word is no registered scheme (a
 *   token sent without its scheme); cookie values (RFC 6265); the value of a header, query
 *   parameter or form field named like a secret (token, secret, password, api key, session,
 *   credential, auth, jwt: RFC 6750, sections 2.2 and 2.3 put tokens in queries and forms); and
 *   any token the caller knows (the proxy's `--token`s, the run's token); and the value of a
 *   header or query parameter the contract names as an API key's place (`SecretNames`, from its
 *   apiKey schemes: credentials.ts), whatever the name looks like (`X-Shed-Key`, `?key=`).
 * - **How it is shown**: masked where it stands (`Bearer ***`, `session=***`, `access_token=***`),
 *   and blotted out as `***` of any other text that may quote it (a verdict, an answer, a
 *   finding's message). A report that knows which secret it holds shows a placeholder naming it
 *   instead (`<token>`, with `replaceSecrets`): its curl commands write `${TOKEN}` there.
 *
 * The masks take a `hidden` list and add what they hid to it; `blot` then blots those out.
 */
import { headerValue, type HeaderLookup } from './exchange.js';

export const MASK = '***';

/** A secret in a text and what stands for it when the text is shown. */
export interface Secret {
  readonly text: string;
  readonly placeholder: string;
}

/** What the masks hid (and the tokens the caller knows), so that it can be blotted out of what quotes it. */
export type Hidden = string[];

/** A name that says its value is a secret: of a header, a query parameter or a form field. */
const SECRET_NAME = /token|secret|passw(?:or)?d|api[-_.]?key|session|credential|jwt|(?:^|[-_.])auth(?:$|[-_.])/i;

/**
 * Authentication schemes of the IANA registry (RFC 9110, section 16.4.1): a lone word in
 * Authorization is shown only if it is one of them; anything else may be a token sent without
 * its scheme.
 */
const SCHEMES = new Set(['basic', 'bearer', 'concealed', 'digest', 'dpop', 'gnap', 'hoba', 'mutual', 'negotiate', 'oauth', 'privatetoken', 'scram-sha-1', 'scram-sha-256', 'vapid']);

/** The names a contract's API keys go in (its apiKey schemes): header names in lower case, query parameters as written. */
export interface SecretNames {
  readonly headers: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
}

/** Whether a header, query parameter or form field name says its value is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]` (RFC 9110, section 11.4): the scheme kept, the rest hidden. */
export function maskCredentials(value: string, hidden: Hidden): string {
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  const gap = trimmed.search(/[ \t]/);
  if (gap === -1) {
    if (trimmed === '' || SCHEMES.has(trimmed.toLowerCase())) return trimmed;
    hidden.push(trimmed);
    return MASK;
  }
  hidden.push(trimmed.slice(gap).trim());
  return `${trimmed.slice(0, gap)} ${MASK}`;
}

/** `name=value; name=value` (RFC 6265): the names kept. With `attributes`, a Set-Cookie: its first pair masked, its attributes kept. */
function maskCookies(value: string, hidden: Hidden, attributes: boolean): string {
  return value
    .split(';')
    .map((pair, index) => {
      const equals = pair.indexOf('=');
      if (equals === -1 || (attributes && index > 0)) return pair;
      hidden.push(pair.slice(equals + 1).trim());
      return `${pair.slice(0, equals)}=${MASK}`;
    })
    .join(';');
}

/** `a=1&access_token=…` (a query, or a form body: RFC 6750, sections 2.2 and 2.3): secret-named values hidden, as sent and decoded. */
export function maskParameters(text: string, hidden: Hidden, names?: ReadonlySet<string>): string {
  return text
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? '' : decodeComponent(pair.slice(0, equals));
      if (equals === -1 || !(SECRET_NAME.test(name) || names?.has(name) === true)) return pair;
      const value = pair.slice(equals + 1);
      hidden.push(value);
      const decoded = decodeComponent(value);
      if (decoded !== value) hidden.push(decoded);
      return `${pair.slice(0, equals)}=${MASK}`;
    })
    .join('&');
}

/** A request target with the secret-named parameters of its query masked (RFC 6750, section 5.3: tokens in URLs get logged). */
export function maskTarget(target: string, hidden: Hidden, names?: SecretNames): string {
  const question = target.indexOf('?');
  return question === -1 ? target : `${target.slice(0, question + 1)}${maskParameters(target.slice(question + 1), hidden, names?.query)}`;
}

/** Whether a request's body is a form (`application/x-www-form-urlencoded`), whose secret-named fields `maskParameters` masks. */
export function isForm(headers: HeaderLookup): boolean {
  return (headerValue(headers, 'content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function flatten(value: string | readonly string[]): string {
  return typeof value === 'string' ? value : value.join(', ');
}

/** A request's headers as kept or told: lower-case names, repeated fields joined with `, `, every secret masked. */
export function maskRequestHeaders(headers: HeaderLookup, hidden: Hidden, names?: SecretNames): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const text = flatten(value);
    const lower = name.toLowerCase();
    // Credentials are no list (RFC 9110, section 11.6.2): each field sent is masked on its own.
    if (lower === 'authorization' || lower === 'proxy-authorization') masked[lower] = typeof value === 'string' ? maskCredentials(value, hidden) : value.map((one) => maskCredentials(one, hidden)).join(', ');
    else if (lower === 'cookie') masked[lower] = maskCookies(text, hidden, false);
    else if (SECRET_NAME.test(lower) || names?.headers.has(lower) === true) {
      hidden.push(text);
      masked[lower] = MASK;
    } else masked[lower] = text;
  }
  return masked;
}

/** An answer's headers as kept: lower-case names, repeated fields joined, the values of Set-Cookie masked. */
export function maskAnswerHeaders(headers: HeaderLookup, hidden: Hidden): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    masked[lower] = lower === 'set-cookie' ? (typeof value === 'string' ? [value] : value).map((cookie) => maskCookies(cookie, hidden, true)).join(', ') : flatten(value);
  }
  return masked;
}

/** A text cut at every secret in it: literal pieces, and the secrets found (at one place, the longest of those that start there). */
export function secretPieces<S extends Secret>(text: string, secrets: readonly S[]): (string | S)[] {
  const longestFirst = [...secrets].filter((secret) => secret.text !== '').sort((a, b) => b.text.length - a.text.length);
  const out: (string | S)[] = [];
  let rest = text;
  for (;;) {
    let found: { at: number; secret: S } | undefined;
    for (const secret of longestFirst) {
      const at = rest.indexOf(secret.text);
      if (at >= 0 && (found === undefined || at < found.at)) found = { at, secret };
    }
    if (found === undefined) break;
    if (found.at > 0) out.push(rest.slice(0, found.at));
    out.push(found.secret);
    rest = rest.slice(found.at + found.secret.text.length);
  }
  if (rest !== '') out.push(rest);
  return out;
}

/** A text with every secret in it replaced by its placeholder. */
export function replaceSecrets(text: string, secrets: readonly Secret[]): string {
  return secretPieces(text, secrets)
    .map((piece) => (typeof piece === 'string' ? piece : piece.placeholder))
    .join('');
}

/**
 * What was hidden, blotted out of a text that may quote it: whole, and by its first 20
 * characters, which is what a message quotes of a malformed credential. Values shorter than 4
 * characters are left alone (they would blot out ordinary words).
 */
export function blot(text: string, hidden: readonly string[]): string {
  if (hidden.length === 0) return text;
  const quoted = new Set(hidden.flatMap((secret) => [secret, secret.slice(0, 20)]).filter((secret) => secret.length >= 4));
  return replaceSecrets(text, [...quoted].map((secret) => ({ text: secret, placeholder: MASK })));
}

/** Every string in a value blotted, however deep (a proxy's verdict holds its findings' messages in an array). */
export function blotAll<T>(value: T, hidden: readonly string[]): T {
  if (hidden.length === 0) return value;
  const walk = (member: unknown): unknown => {
    if (typeof member === 'string') return blot(member, hidden);
    if (Array.isArray(member)) return member.map(walk);
    if (member === null || typeof member !== 'object') return member;
    const blotted: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(member)) blotted[key] = walk(inner);
    return blotted;
  };
  return walk(value) as T;
}
