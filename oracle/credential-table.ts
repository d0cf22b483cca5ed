/**
 * The credential table: every way the engine writes credentials, each built from the token the
 * user passes (never from a list of tokens), with the RFC section that decides the answer. One
 * table feeds the `valid` kind (the spellings a target must accept), the `bad-auth` kind (those it
 * must refuse), the `double-fault` kind, and the table in docs/credentials.md
 * (test/fuzz/credentials.test.ts holds the page to `credentialTableMarkdown`).
 *
 * What a request's credentials are is not written in the rows: `credentialsByGrammar` reads what a row sends
 * with the grammar of RFC 9110, section 11.4 and RFC 6750, section 2.1. So `Bearer<token>` is
 * another scheme for a token of letters and digits (a scheme word may hold them) and malformed
 * credentials for a token holding `/` (no scheme word may), and the answers allowed follow from
 * that (see checks/requires-auth.ts):
 *
 * - `missing`, `wrong-token`: 401 with a Bearer challenge (RFC 6750, section 3);
 * - `other-scheme`: the same (RFC 6750, section 3.1: an unsupported method gets no error code,
 *   so no 400; a declared 400 is a warning);
 * - `malformed`: 401 with a challenge, or a declared 400 (RFC 6750, section 3.1, invalid_request);
 * - never a 2xx: a failure, or a warning where the row is `lenient` (the RFCs leave it open).
 */
import type { Credentials, DerivedSecret } from './types.js';
import { codePointsOf } from './json-values.js';

/** RFC 6750, section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** RFC 9110, section 5.6.2: token = 1*tchar, the syntax of an auth-scheme (section 11.1). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What a row sends: the Authorization field lines and an `access_token` query parameter. */
export interface Presented {
  /** The Authorization field lines, in order (one character a byte, as node:http writes them). */
  readonly lines: readonly string[];
  /** The value of an `access_token` query parameter (RFC 6750, section 2.3), not yet encoded. */
  readonly accessToken?: string;
  /** Text made from the token other than the token itself, for reports to hide. */
  readonly derived?: DerivedSecret;
}

export interface CredentialVariant {
  /** A stable name: the first column of the docs' table. */
  readonly name: string;
  /** `accept`: a target must accept it with the right token; `refuse`: it must not. */
  readonly side: 'accept' | 'refuse';
  /** The Authorization field's value, for people, with `<token>` for the token; or, where `prose` is set, what is sent in words. */
  readonly shown: string;
  readonly prose?: true;
  /** The RFC section that decides the answer, and why. */
  readonly reason: string;
  /**
   * Set where the RFCs leave the answer open: the reason. The opposite answer - a refusal of an
   * `accept` row, a 2xx to a `refuse` row - is then a warning, not a failure.
   */
  readonly lenient?: string;
  /** What the row sends for a scheme word and token; undefined where it does not apply to the token (no letter to change...). */
  build(scheme: string, token: string): Presented | undefined;
}

const one = (line: string, derived?: DerivedSecret): Presented => ({ lines: [line], ...(derived === undefined || derived.text === '' ? {} : { derived }) });

/** A string of code points as the bytes of its UTF-8, one character a byte: how node:http sends a header value. */
function asWire(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** `$TOKEN` through a filter, in a shell. */
const filtered = (filter: string, format = '%s'): string => `$(printf '${format}' "$TOKEN" | ${filter})`;

/** The letter at `index` in the other case. */
function swapCase(text: string, index: number): string {
  const c = text.charAt(index);
  const swapped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
  return text.slice(0, index) + swapped + text.slice(index + 1);
}

/** The index of the last ASCII letter, or -1. */
function lastLetter(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/[A-Za-z]/.test(text.charAt(i))) return i;
  return -1;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Each base64 character (both alphabets, RFC 4648 sections 4 and 5) and the one whose value differs in the lowest bit. */
const LOW_BIT: ReadonlyMap<string, string> = new Map([...codePointsOf(BASE64).map((c, i): [string, string] => [c, BASE64.charAt(i ^ 1)]), ['+', '/'], ['/', '+'], ['-', '_'], ['_', '-']]);
const LOW_BIT_FROM = [...LOW_BIT.keys()].join('');
const LOW_BIT_TO = [...LOW_BIT.values()].join('');

/**
 * The token with its last character changed in a bit base64 decoding drops: a token of 4n+2 or
 * 4n+3 base64 characters ends in 4 or 2 bits no byte holds (RFC 4648, section 3.5), so a server
 * comparing decoded bytes takes the two for one.
 */
function base64Twin(token: string): string | undefined {
  if (!/^[A-Za-z0-9+/\-_]+$/.test(token) || token.length % 4 < 2) return undefined;
  const twin = LOW_BIT.get(token.charAt(token.length - 1));
  return twin === undefined ? undefined : token.slice(0, -1) + twin;
}

/** The other base64 alphabet: `-` and `_` (base64url) for `+` and `/` and back (RFC 4648, section 5). */
const OTHER_ALPHABET: Readonly<Record<string, string>> = { '-': '+', _: '/', '+': '-', '/': '_' };

/** Fullwidth forms (U+FF01..U+FF5E) of printable ASCII: what NFKC folds back to ASCII. */
const fullwidth = (text: string): string => text.replace(/[!-~]/g, (c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0));

/** Cyrillic letters that look like Latin ones (Unicode's confusables). */
const CYRILLIC: Readonly<Record<string, string>> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', A: 'А', B: 'В', C: 'С', E: 'Е', H: 'Н', K: 'К', M: 'М', O: 'О', P: 'Р', T: 'Т', X: 'Х' };

/** The first letter of `word` that has a Cyrillic look-alike, replaced by it. */
function homoglyph(word: string): string | undefined {
  const letters = codePointsOf(word);
  const index = letters.findIndex((c) => CYRILLIC[c] !== undefined);
  return index < 0 ? undefined : letters.map((c, i) => (i === index ? (CYRILLIC[c] ?? c) : c)).join('');
}

/** RFC 6750, section 2.3: the access_token parameter is form-encoded; a b64token's `+`, `/` and `=` need escapes. */
export const queryEncoded = (token: string): string => encodeURIComponent(token);
const QUERY_SHELL = filtered(`sed -e 's/+/%2B/g' -e 's|/|%2F|g' -e 's/=/%3D/g'`);

function inQuery(value: string, token: string): Presented {
  const encoded = queryEncoded(token);
  return { lines: [], accessToken: value, ...(encoded === token ? {} : { derived: { text: encoded, placeholder: '<token>', shell: QUERY_SHELL } }) };
}

const WHOLE = 'RFC 6750, section 2.1 and RFC 6749, section 1.4: a token is an opaque string, compared whole and case-sensitively';

/**
 * The table. `accept` rows hold the exact token; `refuse` rows are grouped: no credentials,
 * other schemes, near misses of the token, more than one token, whitespace and look-alikes, more
 * than one field or place.
 */
export const CREDENTIAL_VARIANTS: readonly CredentialVariant[] = [
  // --- must be accepted ---
  { name: 'scheme-lower-case', side: 'accept', shown: 'bearer <token>', reason: 'RFC 9110, section 11.1: the scheme is case-insensitive', build: (s, t) => one(`${s.toLowerCase()} ${t}`) },
  { name: 'scheme-upper-case', side: 'accept', shown: 'BEARER <token>', reason: 'RFC 9110, section 11.1: the scheme is case-insensitive', build: (s, t) => one(`${s.toUpperCase()} ${t}`) },
  {
    name: 'scheme-mixed-case',
    side: 'accept',
    shown: 'bEaReR <token>',
    reason: 'RFC 9110, section 11.1: the scheme is case-insensitive',
    build: (s, t) => one(`${codePointsOf(s.toLowerCase()).map((c, i) => (i % 2 === 0 ? c : c.toUpperCase())).join('')} ${t}`),
  },
  { name: 'leading-space', side: 'accept', shown: ' Bearer <token>', reason: 'RFC 9110, section 5.5: whitespace around a field value is not part of it', build: (s, t) => one(` ${s} ${t}`) },
  {
    name: 'trailing-space',
    side: 'accept',
    shown: 'Bearer <token> ',
    reason: 'RFC 9110, section 5.5: whitespace around a field value is not part of it',
    lenient: "some HTTP parsers (Python's http.server) hand the application the field with its trailing whitespace",
    build: (s, t) => one(`${s} ${t} `),
  },
  {
    name: 'two-spaces',
    side: 'accept',
    shown: 'Bearer  <token>',
    reason: 'RFC 6750, section 2.1: `"Bearer" 1*SP b64token`, one space or more',
    lenient: 'many bearer libraries split the field on one space and refuse two',
    build: (s, t) => one(`${s}  ${t}`),
  },

  // --- no credentials, or another scheme ---
  {
    name: 'missing',
    side: 'refuse',
    shown: 'no Authorization header',
    prose: true,
    reason: 'RFC 6750, section 3: no credentials get a challenge (section 3.1: with no error code)',
    build: () => ({ lines: [] }),
  },
  {
    name: 'empty',
    side: 'refuse',
    shown: 'an empty Authorization header',
    prose: true,
    reason: 'RFC 9110, section 11.6.2: the field holds credentials, which start with a scheme',
    build: () => one(''),
  },
  { name: 'scheme-only', side: 'refuse', shown: 'Bearer', reason: 'RFC 6750, section 2.1: the b64token is required (section 3.1: invalid_request)', build: (s) => one(s) },
  { name: 'token-only', side: 'refuse', shown: '<token>', reason: 'RFC 9110, section 11.4: the first word is the scheme; here the token', build: (_s, t) => one(t) },
  { name: 'no-space', side: 'refuse', shown: 'Bearer<token>', reason: 'RFC 9110, section 11.4: the scheme ends at a space; `Bearer<token>` is one word, not Bearer', build: (s, t) => one(`${s}${t}`) },
  { name: 'colon-after-scheme', side: 'refuse', shown: 'Bearer: <token>', reason: 'RFC 9110, section 11.4: `:` cannot be part of a scheme', build: (s, t) => one(`${s}: ${t}`) },
  { name: 'longer-scheme', side: 'refuse', shown: 'Bearers <token>', reason: 'RFC 9110, section 11.1: another scheme that starts with the same letters', build: (s, t) => one(`${s}s ${t}`) },
  { name: 'basic-token', side: 'refuse', shown: 'Basic <token>', reason: 'RFC 6750, section 3.1: another scheme is no bearer credential', build: (_s, t) => one(`Basic ${t}`) },
  {
    name: 'basic-token-as-user',
    side: 'refuse',
    shown: 'Basic base64(<token>:)',
    reason: 'RFC 6750, section 3.1: the token as a Basic user name (RFC 7617) is no bearer credential',
    build: (_s, t) => {
      const encoded = Buffer.from(`${t}:`).toString('base64');
      return one(`Basic ${encoded}`, { text: encoded, placeholder: '<base64 of token:>', shell: filtered(`base64 | tr -d '\\n'`, '%s:') });
    },
  },
  {
    name: 'basic-token-as-password',
    side: 'refuse',
    shown: 'Basic base64(x:<token>)',
    reason: 'RFC 6750, section 3.1: the token as a Basic password (RFC 7617) is no bearer credential',
    build: (_s, t) => {
      const encoded = Buffer.from(`x:${t}`).toString('base64');
      return one(`Basic ${encoded}`, { text: encoded, placeholder: '<base64 of x:token>', shell: filtered(`base64 | tr -d '\\n'`, 'x:%s') });
    },
  },
  { name: 'token-scheme', side: 'refuse', shown: 'Token <token>', reason: 'RFC 6750, section 3.1: another scheme is no bearer credential', build: (_s, t) => one(`Token ${t}`) },
  { name: 'oauth-scheme', side: 'refuse', shown: 'OAuth <token>', reason: 'RFC 6750, section 3.1: another scheme is no bearer credential', build: (_s, t) => one(`OAuth ${t}`) },
  { name: 'digest-scheme', side: 'refuse', shown: 'Digest <token>', reason: 'RFC 6750, section 3.1: another scheme is no bearer credential', build: (_s, t) => one(`Digest ${t}`) },

  // --- near misses of the token ---
  {
    name: 'token-minus-last',
    side: 'refuse',
    shown: 'Bearer <token minus its last character>',
    reason: `${WHOLE} (a prefix compare on the length sent accepts it)`,
    build: (s, t) => one(`${s} ${t.slice(0, -1)}`, { text: t.slice(0, -1), placeholder: '<token minus its last character>', shell: '${TOKEN%?}' }),
  },
  { name: 'token-plus-one', side: 'refuse', shown: 'Bearer <token>x', reason: `${WHOLE} (a compare on the token's own length accepts it)`, build: (s, t) => one(`${s} ${t}x`) },
  { name: 'token-prefixed', side: 'refuse', shown: 'Bearer x<token>', reason: `${WHOLE} (a containment or suffix compare accepts it)`, build: (s, t) => one(`${s} x${t}`) },
  {
    name: 'token-one-case-changed',
    side: 'refuse',
    shown: "Bearer <token with its last letter's case changed>",
    reason: WHOLE,
    build: (s, t) => {
      const at = lastLetter(t);
      if (at < 0) return undefined;
      const shell = `$(printf %s "$TOKEN" | awk '{ c = substr($0, ${at + 1}, 1); d = toupper(c); if (d == c) d = tolower(c); printf "%s%s%s", substr($0, 1, ${at}), d, substr($0, ${at + 2}) }')`;
      return one(`${s} ${swapCase(t, at)}`, { text: swapCase(t, at), placeholder: "<token with its last letter's case changed>", shell });
    },
  },
  {
    name: 'token-upper-case',
    side: 'refuse',
    shown: 'Bearer <TOKEN IN UPPER CASE>',
    reason: WHOLE,
    build: (s, t) => (t.toUpperCase() === t ? undefined : one(`${s} ${t.toUpperCase()}`, { text: t.toUpperCase(), placeholder: '<token in upper case>', shell: filtered(`tr '[:lower:]' '[:upper:]'`) })),
  },
  {
    name: 'token-lower-case',
    side: 'refuse',
    shown: 'Bearer <token in lower case>',
    reason: WHOLE,
    build: (s, t) => (t.toLowerCase() === t ? undefined : one(`${s} ${t.toLowerCase()}`, { text: t.toLowerCase(), placeholder: '<token in lower case>', shell: filtered(`tr '[:upper:]' '[:lower:]'`) })),
  },
  { name: 'token-twice', side: 'refuse', shown: 'Bearer <token><token>', reason: WHOLE, build: (s, t) => one(`${s} ${t}${t}`) },
  { name: 'token-padded', side: 'refuse', shown: 'Bearer <token>=', reason: `${WHOLE}; \`=\` padding is part of it (a compare of base64-decoded bytes accepts it)`, build: (s, t) => one(`${s} ${t}=`) },
  {
    name: 'base64-twin',
    side: 'refuse',
    shown: 'Bearer <token with its last character changed in bits base64 decoding drops>',
    reason: `${WHOLE} (RFC 4648, section 3.5: a compare of decoded bytes accepts it)`,
    build: (s, t) => {
      const twin = base64Twin(t);
      const shell = `\${TOKEN%?}$(printf %s "\${TOKEN#"\${TOKEN%?}"}" | sed 'y|${LOW_BIT_FROM}|${LOW_BIT_TO}|')`;
      return twin === undefined ? undefined : one(`${s} ${twin}`, { text: twin, placeholder: '<token with its last character changed in a dropped bit>', shell });
    },
  },
  {
    name: 'other-base64-alphabet',
    side: 'refuse',
    shown: 'Bearer <token with - _ + / swapped>',
    reason: `${WHOLE} (RFC 4648, section 5: a decoder that takes both alphabets accepts it)`,
    build: (s, t) => {
      if (!/[-_+/]/.test(t)) return undefined;
      const other = t.replace(/[-_+/]/g, (c) => OTHER_ALPHABET[c] ?? c);
      return one(`${s} ${other}`, { text: other, placeholder: '<token in the other base64 alphabet>', shell: filtered(`sed 'y|-_+/|+/-_|'`) });
    },
  },

  // --- more than one token, or more than the token ---
  { name: 'token-twice-spaced', side: 'refuse', shown: 'Bearer <token> <token>', reason: 'RFC 6750, section 2.1: one b64token, which holds no space (section 3.1: invalid_request)', build: (s, t) => one(`${s} ${t} ${t}`) },
  { name: 'token-then-word', side: 'refuse', shown: 'Bearer <token> extra', reason: 'RFC 6750, section 2.1: one b64token, which holds no space (section 3.1: invalid_request)', build: (s, t) => one(`${s} ${t} extra`) },
  { name: 'list-token-last', side: 'refuse', shown: 'Bearer x,<token>', reason: 'RFC 9110, section 11.6.2: Authorization is no list; RFC 6750, section 2.1: `,` is not in a b64token', build: (s, t) => one(`${s} x,${t}`) },
  { name: 'list-token-first', side: 'refuse', shown: 'Bearer <token>,x', reason: 'RFC 9110, section 11.6.2: Authorization is no list; RFC 6750, section 2.1: `,` is not in a b64token', build: (s, t) => one(`${s} ${t},x`) },
  { name: 'quoted-token', side: 'refuse', shown: 'Bearer "<token>"', reason: 'RFC 6750, section 2.1: the b64token is not quoted', build: (s, t) => one(`${s} "${t}"`) },

  // --- whitespace that is not SP, and look-alikes ---
  {
    name: 'tab-separator',
    side: 'refuse',
    shown: 'Bearer<TAB><token>',
    reason: 'RFC 6750, section 2.1 and RFC 9110, section 11.4: the scheme and token are separated by spaces (SP), not tabs',
    lenient: 'RFC 9110, section 2.4 lets a recipient recover the token; nothing else is accepted',
    build: (s, t) => one(`${s}\t${t}`),
  },
  {
    name: 'no-break-space-separator',
    side: 'refuse',
    shown: 'Bearer<U+00A0><token>',
    reason: "RFC 9110, section 11.4: U+00A0 (a byte 0xA0) is no space in HTTP; JavaScript's `\\s` and Python's `str.split()` take it for one",
    lenient: 'RFC 9110, section 2.4 lets a recipient recover the token; nothing else is accepted',
    build: (s, t) => one(`${s}\u00a0${t}`),
  },
  {
    name: 'trailing-no-break-space',
    side: 'refuse',
    shown: 'Bearer <token><U+00A0>',
    reason: "RFC 6750, section 2.1: U+00A0 (a byte 0xA0) is not in a b64token, nor whitespace HTTP strips; JavaScript's `trim()` strips it",
    lenient: 'RFC 9110, section 2.4 lets a recipient recover the token; nothing else is accepted',
    build: (s, t) => one(`${s} ${t}\u00a0`),
  },
  {
    name: 'fullwidth-scheme',
    side: 'refuse',
    shown: 'Ｂｅａｒｅｒ <token>',
    reason: 'RFC 9110, section 5.6.2: a scheme is ASCII; NFKC normalisation folds these letters to Bearer',
    lenient: 'a recipient that folds the scheme recovers Bearer and the exact token; nothing else is accepted',
    build: (s, t) => one(`${asWire(fullwidth(s))} ${t}`),
  },
  {
    name: 'look-alike-scheme',
    side: 'refuse',
    shown: 'Вearer <token>',
    reason: 'RFC 9110, section 5.6.2: a scheme is ASCII; a Cyrillic letter only looks like a Latin one',
    lenient: 'a recipient that maps look-alikes recovers Bearer and the exact token; nothing else is accepted',
    build: (s, t) => {
      const spoof = homoglyph(s);
      return spoof === undefined ? undefined : one(`${asWire(spoof)} ${t}`);
    },
  },

  // --- more than one field, or another place ---
  {
    name: 'two-fields',
    side: 'refuse',
    shown: 'two Authorization headers: `Bearer <token>x`, then `Bearer <token>`',
    prose: true,
    reason: 'RFC 9110, section 5.3: Authorization is no list, so two fields are one malformed field',
    lenient: 'RFC 9110 does not say which field a recipient reads; one that reads the last gets the exact token',
    build: (s, t) => ({ lines: [`${s} ${t}x`, `${s} ${t}`] }),
  },
  {
    name: 'wrong-token-in-query',
    side: 'refuse',
    shown: 'no Authorization header; `?access_token=<token>x`',
    prose: true,
    reason: "RFC 6750, section 2.3: a token in the query is wrong like any other; the contract's scheme is the Authorization field",
    build: (_s, t) => inQuery(`${t}x`, t),
  },
  {
    name: 'token-in-query',
    side: 'refuse',
    shown: 'no Authorization header; `?access_token=<token>`',
    prose: true,
    reason: "the contract's scheme is the Authorization field (RFC 6750, section 2.1); section 5.3 warns against tokens in URLs (they are logged)",
    lenient: 'RFC 6750, section 2.3 lets a resource server accept the token in the query',
    build: (_s, t) => inQuery(t, t),
  },
];

/**
 * What credentials a request carries, by the grammar alone: RFC 9110, section 11.4 (`credentials =
 * auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, the scheme case-insensitive, whitespace around
 * the field value not part of it, section 5.5) and RFC 6750, section 2.1 (`"Bearer" 1*SP
 * b64token`). The contract's credentials are the Authorization field: a token in the query is
 * none.
 */
export function credentialsByGrammar(presented: Pick<Presented, 'lines'>, scheme: string, token: string): Credentials {
  const [line, ...more] = presented.lines;
  if (line === undefined) return 'missing';
  // Two fields of a field that is no list are one malformed field (RFC 9110, section 5.3).
  if (more.length > 0) return 'malformed';
  const value = line.replace(/^[ \t]+|[ \t]+$/g, '');
  const words = /^([^ ]*)(?: +(.*))?$/s.exec(value);
  const word = words?.[1] ?? '';
  const rest = words?.[2];
  if (!TOKEN.test(word)) return 'malformed';
  if (word.toLowerCase() !== scheme.toLowerCase()) return 'other-scheme';
  if (rest === undefined || !B64TOKEN.test(rest)) return 'malformed';
  return rest === token ? 'valid' : 'wrong-token';
}

/** Whether a target that accepts any well-formed token (a mock) could accept what is sent: some line, or the query, carries one. */
export function carriesWellFormedToken(presented: Presented, scheme: string): boolean {
  const anyToken = (line: string): boolean => ['valid', 'wrong-token'].includes(credentialsByGrammar({ lines: [line] }, scheme, '\u0000'));
  return presented.lines.some(anyToken) || (presented.accessToken !== undefined && B64TOKEN.test(presented.accessToken));
}

/** What each kind of credentials may get, for the docs. */
const ALLOWED: Readonly<Record<Credentials, string>> = {
  valid: '200',
  missing: '401 + Bearer challenge',
  'wrong-token': '401 + Bearer challenge',
  'other-scheme': '401 + Bearer challenge (a declared 400: warning)',
  malformed: '401 + Bearer challenge, or a declared 400',
};

/** The token the docs' table is classified for: letters, digits and `-`, as most tokens are. */
export const DOCS_TOKEN = 'Plant-Token-42';

/** The docs' table of credentials (docs/credentials.md), written from the table for DOCS_TOKEN. */
export function credentialTableMarkdown(scheme = 'Bearer', token = DOCS_TOKEN): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const sent = (variant: CredentialVariant): string => (variant.prose ? variant.shown : `\`${variant.shown}\``);
  const rows = CREDENTIAL_VARIANTS.map((variant) => {
    const presented = variant.build(scheme, token);
    const credentials = presented === undefined ? 'not sent for this token' : credentialsByGrammar(presented, scheme, token);
    const allowed = presented === undefined ? '' : ALLOWED[credentialsByGrammar(presented, scheme, token)];
    const opposite = variant.side === 'accept' ? 'a refusal' : 'a 2xx';
    const severity = `${opposite}: ${variant.lenient === undefined ? 'failure' : `warning (${variant.lenient})`}`;
    return `| \`${variant.name}\` | ${cell(sent(variant))} | ${credentials} | ${cell(allowed)} | ${cell(severity)} | ${cell(variant.reason)} |`;
  });
  return ['| credential variant | sent | credentials | allowed | otherwise | why |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}
