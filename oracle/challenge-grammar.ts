/**
 * The `WWW-Authenticate` field read by RFC 9110's grammar (section 11.6.1: `#challenge`; section
 * 11.2: `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, `auth-param = token BWS "="
 * BWS ( token / quoted-string )`; section 5.6.4: quoted-string; section 5.6.1: empty list elements
 * are skipped). Repeated field lines arrive joined with `, ` (section 5.3), so they read as one list.
 * What a field breaks is said in words, for the finding.
 */

export interface Challenge {
  readonly scheme: string;
  readonly token68?: string;
  /** Its auth-params in order, names in lower case (they are case-insensitive, section 11.2), values unquoted. */
  readonly params: readonly (readonly [string, string])[];
  /** The names of its auth-params written as a token rather than a quoted-string, where there are any. */
  readonly tokens?: readonly string[];
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;
/** qdtext and what a quoted-pair may escape, obs-text included (section 5.6.4). */
const QDTEXT = /[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]/;
const ESCAPABLE = /[\t \x21-\x7e\x80-\xff]/;

class Reader {
  at = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  peek(): string {
    return this.text.charAt(this.at);
  }
  /** Skips optional whitespace (OWS, BWS: spaces and tabs); how many it skipped. */
  ows(): number {
    const start = this.at;
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
    return this.at - start;
  }
  run(pattern: RegExp): string {
    const start = this.at;
    while (!this.done && pattern.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }
  /** Whether the list element ends here: a comma or the end, after optional whitespace. */
  atElementEnd(): boolean {
    const start = this.at;
    this.ows();
    const end = this.done || this.peek() === ',';
    this.at = start;
    return end;
  }
}

function quotedString(reader: Reader): string | { error: string } {
  const start = reader.at;
  reader.at++;
  let value = '';
  while (!reader.done) {
    const c = reader.peek();
    if (c === '"') {
      reader.at++;
      return value;
    }
    if (c === '\\') {
      const next = reader.text.charAt(reader.at + 1);
      if (!ESCAPABLE.test(next)) return { error: `a quoted-pair "\\" without a character to escape at ${reader.at}` };
      value += next;
      reader.at += 2;
    } else if (QDTEXT.test(c)) {
      value += c;
      reader.at++;
    } else return { error: `the character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} inside the quoted-string that starts at ${start}` };
  }
  return { error: `a quoted-string that starts at ${start} is never closed` };
}

/** An auth-param at the reader, or undefined (the reader unmoved) when the text there is not `token BWS "="`. */
function authParam(reader: Reader): readonly [string, string] | { error: string } | undefined {
  const start = reader.at;
  const name = reader.run(TCHAR);
  reader.ows();
  if (name === '' || reader.peek() !== '=') {
    reader.at = start;
    return undefined;
  }
  reader.at++;
  reader.ows();
  const quoted = reader.peek() === '"';
  const value = quoted ? quotedString(reader) : reader.run(TCHAR);
  if (typeof value !== 'string') return value;
  if (value === '' && !quoted) return { error: `${name}= without a value (a token or a quoted-string) at ${reader.at}` };
  if (!reader.atElementEnd()) {
    const shown = reader.text.slice(start, reader.at);
    return { error: `${shown} is followed by "${reader.text.slice(reader.at).trimStart().slice(0, 20)}" instead of a comma: a value with a space or a separator in it must be a quoted-string (section 5.6.4)` };
  }
  return quoted ? [name.toLowerCase(), value] : Object.assign([name.toLowerCase(), value] as const, { token: true });
}

/** The params after a challenge's scheme: a token68, or auth-params up to the next challenge. */
function challengeBody(reader: Reader, scheme: string): Challenge | { error: string } {
  if (reader.atElementEnd()) return { scheme, params: [] };
  const gap = reader.at;
  if (reader.ows() === 0 || /[^ ]/.test(reader.text.slice(gap, reader.at))) return { error: `the auth-scheme ${scheme} is followed by ${JSON.stringify(reader.text.slice(gap, reader.at + 1))} where only spaces may separate it from its parameters (section 11.2: 1*SP)` };
  // A token68 first: `abc==` would otherwise read as a parameter without a value.
  const start = reader.at;
  const token68 = reader.run(TOKEN68_CHAR) + reader.run(/=/);
  // token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=": padding alone is none.
  if (token68 !== '' && !token68.startsWith('=') && reader.atElementEnd()) return { scheme, token68, params: [] };
  reader.at = start;
  const first = authParam(reader);
  if (first === undefined) return { error: `what follows the auth-scheme ${scheme} ("${reader.text.slice(reader.at, reader.at + 20)}") is neither a token68 nor auth-params` };
  if ('error' in first) return first;
  const params = [first];
  for (;;) {
    const back = reader.at;
    reader.ows();
    if (reader.peek() !== ',') return { scheme, params };
    while (reader.peek() === ',' || reader.peek() === ' ' || reader.peek() === '\t') reader.at++;
    const next = authParam(reader);
    if (next === undefined) {
      // Not `name=`: the next challenge starts here.
      reader.at = back;
      return { scheme, params };
    }
    if ('error' in next) return next;
    params.push(next);
  }
}

/** The challenges a `WWW-Authenticate` value lists, or where it leaves RFC 9110's grammar. */
export function parseChallenges(header: string): { challenges: Challenge[] } | { error: string } {
  const reader = new Reader(header);
  const challenges: Challenge[] = [];
  for (;;) {
    while (reader.peek() === ',' || reader.peek() === ' ' || reader.peek() === '\t') reader.at++;
    if (reader.done) return { challenges };
    const scheme = reader.run(TCHAR);
    if (scheme === '') return { error: `"${reader.text.slice(reader.at, reader.at + 20)}" where an auth-scheme (a token) must start a challenge` };
    const challenge = challengeBody(reader, scheme);
    if ('error' in challenge) return challenge;
    const repeated = challenge.params.find(([name], i) => challenge.params.findIndex(([other]) => other === name) !== i);
    if (repeated !== undefined) return { error: `the ${scheme} challenge has the parameter ${repeated[0]} twice (section 11.2: each parameter name occurs once per challenge)` };
    const tokens = challenge.params.filter((param) => 'token' in param).map(([name]) => name);
    challenges.push({ scheme: challenge.scheme, ...(challenge.token68 === undefined ? {} : { token68: challenge.token68 }), params: challenge.params.map(([name, value]) => [name, value] as const), ...(tokens.length > 0 ? { tokens } : {}) });
  }
}

/** Where a list element is empty (`a,,b`, a leading or trailing comma), outside quoted strings, or undefined. */
function emptyElement(header: string): number | undefined {
  let quoted = false;
  let blank = true;
  for (let i = 0; i < header.length; i++) {
    const c = header.charAt(i);
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      if (blank) return i;
      blank = true;
    } else if (c !== ' ' && c !== '\t') blank = false;
  }
  return blank ? header.length : undefined;
}

/**
 * RFC 6750, section 3's sets for a Bearer challenge's attribute values (after unquoting): `error`
 * and `error_description` %x20-21 / %x23-5B / %x5D-7E (no `"`, no `\`, printable ASCII and space);
 * `error_uri` the same without space; `scope` scope-tokens of %x21 / %x23-5B / %x5D-7E, one space
 * between each (RFC 6749, appendix A.4).
 */
const BEARER_VALUES: Readonly<Record<string, { readonly pattern: RegExp; readonly set: string }>> = {
  error: { pattern: /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/, set: '%x20-21 / %x23-5B / %x5D-7E' },
  error_description: { pattern: /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/, set: '%x20-21 / %x23-5B / %x5D-7E' },
  error_uri: { pattern: /^[\x21\x23-\x5b\x5d-\x7e]*$/, set: '%x21 / %x23-5B / %x5D-7E' },
  scope: { pattern: /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, set: 'scope-tokens of %x21 / %x23-5B / %x5D-7E separated by single spaces' },
};

/** Where a Bearer challenge's attribute values leave RFC 6750, section 3's character sets. */
function bearerValueProblems(challenge: Challenge): string[] {
  return challenge.params.flatMap(([name, value]) => {
    const rule = BEARER_VALUES[name];
    if (rule === undefined || rule.pattern.test(value)) return [];
    return [`has a Bearer ${name} of ${JSON.stringify(value)}: RFC 6750, section 3: its value MUST NOT include characters outside ${rule.set}`];
  });
}

/** What a 401's challenge breaks: a failure (the field misleads or stops a client), or a warning (RFC 6750 asks more, a client loses nothing). */
export interface ChallengeProblem {
  readonly severity: 'failure' | 'warning';
  readonly message: string;
}

/**
 * What is wrong with a 401's `WWW-Authenticate` for a contract's scheme, or undefined. A failure:
 * it does not parse, has an empty list element (section 5.6.1: a sender MUST NOT generate one), or
 * lists no challenge for the scheme; a Bearer challenge with a token68 in place of auth-params
 * (RFC 6750, section 3's grammar has only auth-params). A warning: a bare Bearer challenge, no
 * auth-param at all. RFC 6750, section 3 asks for one, but RFC 9110's grammar allows none, a client
 * that gets it learns all it needs (send a Bearer token), and it is what ASP.NET Core's JwtBearer,
 * Spring Security and FastAPI's HTTPBearer send by default to a request without a token.
 */
export function challengeProblem(header: string, scheme: string): ChallengeProblem | undefined {
  const fail = (message: string): ChallengeProblem => ({ severity: 'failure', message: `its WWW-Authenticate "${header}" ${message}` });
  const parsed = parseChallenges(header);
  if ('error' in parsed) return fail(`is not a list of challenges (RFC 9110, section 11): ${parsed.error}`);
  const empty = emptyElement(header);
  if (empty !== undefined) return fail(`has an empty list element at ${empty} (RFC 9110, section 5.6.1: a sender MUST NOT generate empty list elements)`);
  const tokenRealm = parsed.challenges.find((c) => c.tokens?.includes('realm') === true);
  if (tokenRealm !== undefined) return fail(`writes the realm of its ${tokenRealm.scheme} challenge as a token: RFC 9110, section 11.5: a sender MUST only generate the quoted-string syntax (realm="...")`);
  const badValue = parsed.challenges.filter((c) => c.scheme.toLowerCase() === 'bearer').flatMap(bearerValueProblems)[0];
  if (badValue !== undefined) return fail(badValue);
  const own = parsed.challenges.filter((c) => c.scheme.toLowerCase() === scheme.toLowerCase());
  if (own.length === 0) return fail(`has no ${scheme} challenge (RFC 6750, section 3)`);
  if (scheme.toLowerCase() !== 'bearer' || own.some((c) => c.params.length > 0)) return undefined;
  if (own.some((c) => c.token68 !== undefined)) return fail('has a Bearer challenge with a token68 where RFC 6750, section 3 allows only auth-params (realm="...", error="...")');
  return { severity: 'warning', message: `its WWW-Authenticate "${header}" is a bare Bearer challenge, without auth-params: RFC 6750, section 3 asks for one or more (realm="...", error="..."), though a client loses nothing without them (RFC 9110, section 11.6.1 allows a challenge with no parameter; a framework default)` };
}
