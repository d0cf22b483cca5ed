/**
 * The grammars of the answer's fields (RFC 9110): Content-Type (media-type, section 8.3.1), Allow
 * (#method, section 10.2.1), Location (URI-reference, section 10.2.2 and RFC 3986, section 4.1),
 * Date, Last-Modified and Expires (IMF-fixdate, section 5.6.7), ETag (entity-tag, section 8.8.3),
 * the token lists Vary, Connection and Content-Encoding (section 5.6.1), Cache-Control (RFC 9111,
 * section 5.2). Each function says why a value breaks
 * its grammar, or undefined when it does not: RFC 9110, section 2.2, a sender MUST NOT generate
 * what does not match. `message-framing` reads them on every answer.
 */
import { imfFixdateProblem } from './imf-fixdate.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const QUOTED_STRING = /^"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*"$/;

/** Splits on `separator` outside quoted strings. */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (quoted && c === '\\') {
      current += c + value.charAt(i + 1);
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** media-type = type "/" subtype parameters; parameters = *( OWS ";" OWS [ parameter ] ); parameter = token "=" ( token / quoted-string ). */
export function mediaTypeProblem(value: string): string | undefined {
  const [type = '', ...parameters] = splitOutsideQuotes(value, ';');
  const [main = '', sub, ...more] = type.replace(/^[ \t]+|[ \t]+$/g, '').split('/');
  if (!TOKEN.test(main) || sub === undefined || !TOKEN.test(sub) || more.length > 0) return 'not type "/" subtype, each a token';
  for (const parameter of parameters.map((p) => p.replace(/^[ \t]+|[ \t]+$/g, '')).filter((p) => p !== '')) {
    // No whitespace around "=" (RFC 9110, section 5.6.6).
    const equals = parameter.indexOf('=');
    const name = equals === -1 ? '' : parameter.slice(0, equals);
    const text = parameter.slice(equals + 1);
    if (!TOKEN.test(name)) return `the parameter ${JSON.stringify(parameter)} is not name=value`;
    if (!TOKEN.test(text) && !QUOTED_STRING.test(text)) return `the parameter ${JSON.stringify(parameter)} has a value that is neither a token nor a quoted-string`;
  }
  return undefined;
}

/** Allow = #method, method = token: a comma-separated list, no empty element a sender writes (section 5.6.1). */
export function allowProblem(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const elements = value.split(',').map((e) => e.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (elements.some((e) => e === '')) return 'an empty list element (RFC 9110, section 5.6.1.1: a sender MUST NOT generate one)';
  const bad = elements.find((e) => !TOKEN.test(e));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not a method (a token); methods are separated by commas`;
}

const UNRESERVED_SUB_DELIMS = "A-Za-z0-9\\-._~!$&'()*+,;=";
const QUERY_OR_FRAGMENT = new RegExp(`^(?:[${UNRESERVED_SUB_DELIMS}:@/?]|%[0-9A-Fa-f]{2})*$`);
const PATH = new RegExp(`^(?:[${UNRESERVED_SUB_DELIMS}:@/]|%[0-9A-Fa-f]{2})*$`);
const USERINFO = new RegExp(`^(?:[${UNRESERVED_SUB_DELIMS}:]|%[0-9A-Fa-f]{2})*$`);
const REG_NAME = new RegExp(`^(?:[${UNRESERVED_SUB_DELIMS}]|%[0-9A-Fa-f]{2})*$`);

/** authority = [ userinfo "@" ] host [ ":" port ] (RFC 3986, section 3.2). */
function authorityProblem(authority: string): string | undefined {
  const at = authority.lastIndexOf('@');
  if (at !== -1 && !USERINFO.test(authority.slice(0, at))) return 'its userinfo has a character RFC 3986 does not allow';
  const hostPort = authority.slice(at + 1);
  const literal = /^\[[0-9A-Fa-f:.vV\-._~!$&'()*+,;=]+\](?::[0-9]*)?$/.test(hostPort);
  const named = /^([^:]*)(?::[0-9]*)?$/.exec(hostPort);
  if (literal || (named !== null && REG_NAME.test(named[1] ?? ''))) return undefined;
  return `its authority ${JSON.stringify(authority)} is not host[:port]`;
}

/** URI-reference = URI / relative-ref (RFC 3986, section 4.1): the characters of each part, percent-escapes, the scheme. */
export function uriReferenceProblem(value: string): string | undefined {
  const hash = value.indexOf('#');
  const beforeFragment = hash === -1 ? value : value.slice(0, hash);
  if (hash !== -1 && !QUERY_OR_FRAGMENT.test(value.slice(hash + 1))) return 'its fragment has a character RFC 3986 does not allow, or a bad percent-escape';
  const question = beforeFragment.indexOf('?');
  let hierarchical = question === -1 ? beforeFragment : beforeFragment.slice(0, question);
  if (question !== -1 && !QUERY_OR_FRAGMENT.test(beforeFragment.slice(question + 1))) return 'its query has a character RFC 3986 does not allow, or a bad percent-escape';
  const scheme = /^([^/?#]*?):/.exec(hierarchical);
  if (scheme !== null) {
    // A colon in the first segment makes it a scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    if (!/^[A-Za-z][A-Za-z0-9+\-.]*$/.test(scheme[1] ?? '')) return `${JSON.stringify(scheme[1])} before the first colon is not a scheme (RFC 3986, section 3.1; a relative path's first segment has no colon, section 4.2)`;
    hierarchical = hierarchical.slice((scheme[1] ?? '').length + 1);
  }
  if (hierarchical.startsWith('//')) {
    const slash = hierarchical.indexOf('/', 2);
    const authority = slash === -1 ? hierarchical.slice(2) : hierarchical.slice(2, slash);
    const problem = authorityProblem(authority);
    if (problem !== undefined) return problem;
    hierarchical = slash === -1 ? '' : hierarchical.slice(slash);
  }
  if (!PATH.test(hierarchical)) return 'its path has a character RFC 3986 does not allow (a space, a non-ASCII character, a bracket...), or a bad percent-escape';
  return undefined;
}

/** entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (section 8.8.3). */
export function entityTagProblem(value: string): string | undefined {
  return /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/.test(value) ? undefined : 'not [W/]"opaque-tag": an entity-tag is quoted';
}

/** A list of tokens (section 5.6.1): Connection = #connection-option, Vary = #( "*" / field-name ), Content-Encoding = #content-coding. */
export function tokenListProblem(value: string): string | undefined {
  const elements = value.split(',').map((e) => e.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (elements.some((e) => e === '')) return 'an empty list element (RFC 9110, section 5.6.1.1: a sender MUST NOT generate one)';
  const bad = elements.find((e) => !TOKEN.test(e) && e !== '*');
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not a token; the elements of a list are separated by commas`;
}

/** Cache-Control = #cache-directive, cache-directive = token [ "=" ( token / quoted-string ) ] (RFC 9111, section 5.2). */
export function cacheControlProblem(value: string): string | undefined {
  const elements = splitOutsideQuotes(value, ',').map((e) => e.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (elements.some((e) => e === '')) return 'an empty list element (RFC 9110, section 5.6.1.1)';
  const bad = elements.find((e) => {
    const equals = e.indexOf('=');
    if (equals === -1) return !TOKEN.test(e);
    const argument = e.slice(equals + 1);
    return !TOKEN.test(e.slice(0, equals)) || (!TOKEN.test(argument) && !QUOTED_STRING.test(argument));
  });
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not token [ "=" ( token / quoted-string ) ]`;
}

/** The grammar problems of the fields the oracle reads, each with the section it breaks. */
export function fieldGrammarProblems(headers: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const check = (name: string, label: string, problem: (value: string) => string | undefined, rule: string): void => {
    const value = headers[name];
    const why = value === undefined ? undefined : problem(value);
    if (why !== undefined) problems.push(`${label}: ${JSON.stringify(value)} is not ${rule} (${why})`);
  };
  check('content-type', 'Content-Type', mediaTypeProblem, 'a media-type (RFC 9110, section 8.3.1)');
  check('allow', 'Allow', allowProblem, 'a list of methods (RFC 9110, section 10.2.1)');
  check('location', 'Location', uriReferenceProblem, 'a URI-reference (RFC 9110, section 10.2.2; RFC 3986, section 4.1)');
  for (const [name, label] of [['date', 'Date'], ['last-modified', 'Last-Modified'], ['expires', 'Expires']] as const) {
    check(name, label, imfFixdateProblem, 'an IMF-fixdate (RFC 9110, section 5.6.7: a sender MUST generate e.g. "Sun, 06 Nov 1994 08:49:37 GMT")');
  }
  check('etag', 'ETag', entityTagProblem, 'an entity-tag (RFC 9110, section 8.8.3)');
  for (const [name, label] of [['vary', 'Vary'], ['connection', 'Connection'], ['content-encoding', 'Content-Encoding']] as const) check(name, label, tokenListProblem, 'a list of tokens (RFC 9110, section 5.6.1)');
  check('cache-control', 'Cache-Control', cacheControlProblem, 'a list of cache directives (RFC 9111, section 5.2)');
  return problems;
}
