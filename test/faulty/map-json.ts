/**
 * Faulty Plant Stores for the map's rows on JSON texts (RFC 8259) and challenges (RFC 9110,
 * section 11; RFC 6750, section 3): each the reference with one defect written the way real
 * servers get it wrong, caught by the check its row names (oracle/requirements/json-texts.ts,
 * challenges.ts) in a run focused on the row's request kinds (test/conformance/map-json.test.ts).
 */
import { parse as parseYaml } from 'yaml';
import type { CheckName, KindName, Severity } from '../../fuzz/index.js';
import { structuralCharacters } from '../../fuzz/generation/kinds/malformed-json.js';
import { nestingExceeds } from '../../src/openapi/index.js';
import type { AppRequest } from '../../src/reference/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { carefulAuthentication, SECRET, startBearerStore } from './bearer-stores.js';
import { errorResponse, textOf } from './helpers.js';

export interface MapJsonFault {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  /** A failure, or (for a row whose breach only warns) a warning. */
  readonly caughtAs: Severity;
  /** The request kinds of the focused run that catches it. */
  readonly kinds: readonly KindName[];
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

/** The request with another body (its Content-Length gone with the old one). */
function withBody(request: AppRequest, body: string): AppRequest {
  const headers = { ...request.headers };
  Reflect.deleteProperty(headers, 'content-length');
  return { ...request, headers, body: Buffer.from(body, 'utf8') };
}

/** Whether a text has whitespace right before a comma outside its strings: what a scanner that skips whitespace only after separators stumbles on. */
function spaceBeforeComma(text: string): boolean {
  for (const [i, c] of structuralCharacters(text)) if (c === ',' && /[ \t\r\n]/.test(text.charAt(i - 1))) return true;
  return false;
}

/** Where the first JSON value of a text ends (after whitespace before it), by brackets and strings: what a streaming reader consumes. */
function firstValueEnd(text: string): number {
  let depth = 0;
  for (const [i, c] of structuralCharacters(text)) {
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * What a JSON5 parser (json5, or a "relaxed" mode) makes of a text, rewritten as JSON: comments
 * dropped, trailing commas dropped, single quotes and bare keys quoted, `+1`, `1.` and hexadecimal
 * numbers read as numbers. A rough rewrite, as such code is; what it cannot rewrite stays as it was.
 */
function json5ToJson(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/[^\n]*\n/, '')
    .replace(/,(\s*[}\]])/g, '$1')
    .replace(/'((?:[^'\\]|\\.)*)'/g, '"$1"')
    .replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":')
    .replace(/(:\s*)\+(\d)/g, '$1$2')
    .replace(/(:\s*-?\d+)\.(?=\s*[,}])/g, '$1')
    .replace(/(:\s*-?)0[xX]([0-9a-fA-F]+)/g, (_m, lead: string, digits: string) => `${lead}${parseInt(digits, 16)}`);
}

/** Control characters inside strings written as escapes: what Python's json.loads(strict=False) or Jackson's ALLOW_UNQUOTED_CONTROL_CHARS reads them as. */
function escapeRawControls(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (inString && c === '\\') {
      out += c + text.charAt(i + 1);
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    out += inString && c < ' ' ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
  }
  return out;
}

/** The text closed where it was cut off: an open string, then every open bracket (what "partial JSON" parsers do for streamed output). */
function completed(text: string): string {
  const open: string[] = [];
  let quotes = 0;
  for (const [, c] of structuralCharacters(text)) {
    if (c === '"') quotes++;
    else if (c === '{') open.push('}');
    else if (c === '[') open.push(']');
    else if (c === '}' || c === ']') open.pop();
  }
  const body = (quotes % 2 === 1 ? `${text}"` : text).replace(/[,:]\s*$/, '');
  return body + open.reverse().join('');
}

/** The text as a YAML parser reads it, written back as JSON; the text itself where YAML refuses it too. */
function yamlToJson(text: string): string {
  try {
    return JSON.stringify(parseYaml(text));
  } catch {
    return text;
  }
}

/** The reference's answer to the text as a lenient parser rewrites it, where it differs and the reference refused the text as it came. */
function readLeniently(rewrite: (text: string) => string): Fault {
  return (request, correct, app) => {
    const answer = correct();
    if (answer.status !== 400) return answer;
    const text = textOf(request);
    const rewritten = rewrite(text);
    return rewritten === text ? answer : app.request(withBody(request, rewritten));
  };
}

function fault(name: string, caughtBy: CheckName, kinds: readonly KindName[], defect: string, behaviour: Fault, caughtAs: Severity = 'failure'): MapJsonFault {
  return { name, caughtBy, caughtAs, kinds, defect, start: () => startFaulty(behaviour) };
}

/** A careful service (bearer-stores.ts) whose 401s carry these WWW-Authenticate fields: for a request without credentials, and for one with a wrong token. */
function challenging(name: string, defect: string, fields: { readonly missing: string; readonly refused: string }, caughtAs: Severity = 'failure'): MapJsonFault {
  return {
    name,
    caughtBy: 'requires-auth',
    caughtAs,
    kinds: ['bad-auth'],
    defect,
    start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: (bearer) => (bearer.includes('error=') ? fields.refused : fields.missing) }),
  };
}

export const MAP_JSON_FAULTS: readonly MapJsonFault[] = [
  fault('whitespace-before-comma-refused', 'accepts-valid', ['json-whitespace'], 'a hand-written scanner skips whitespace after {, : and , but expects a comma right after a value: {"name":"A" ,"id":1} gets 400 (RFC 8259, section 2: value-separator = ws , ws)', (request, correct) =>
    spaceBeforeComma(textOf(request)) ? errorResponse(400, 'malformed JSON: expected , or } after a value') : correct(),
  ),
  fault('trims-other-whitespace', 'rejects-invalid', ['malformed-json'], 'the body is read as JSON.parse(text.trim()): U+00A0, U+000C, U+2028 and the like around the value are dropped, and the text accepted (RFC 8259, section 2: ws is space, tab, LF and CR only)', (request, correct, app) => {
    const text = textOf(request);
    const trimmed = text.trim();
    return trimmed === text || trimmed.length === 0 ? correct() : app.request(withBody(request, trimmed));
  }),
  fault('first-value-only', 'rejects-invalid', ['malformed-json'], "a streaming reader (Go's json.Decoder, Jackson without FAIL_ON_TRAILING_TOKENS) reads the first value and never looks at the rest: {...} followed by a NUL, a form feed or U+2028 is stored (RFC 8259, section 2: JSON-text = ws value ws)", (request, correct, app) => {
    const text = textOf(request);
    const end = firstValueEnd(text);
    return end >= text.length || !text.trimStart().startsWith('{') ? correct() : app.request(withBody(request, text.slice(0, end)));
  }),
  fault('second-value-ignored', 'rejects-invalid', ['malformed-json'], 'a reader of JSON sequences (NDJSON, concatenated JSON) takes the first of the values in the body: {...}{...} and {...} 1 are stored, anything else after the value is refused (RFC 8259, section 2: a text is one value; a warning, as Jackson and Go accept it)', (request, correct, app) => {
    const text = textOf(request);
    const end = firstValueEnd(text);
    const rest = text.slice(end).replace(/^[ \t\r\n]+/, '');
    const anotherValue = rest !== '' && /^[{[\d"-]/.test(rest) && (() => { try { JSON.parse(rest); return true; } catch { return rest.startsWith('{') && firstValueEnd(rest) === rest.length; } })();
    return anotherValue ? app.request(withBody(request, text.slice(0, end))) : correct();
  }, 'warning'),
  fault('recursive-parser-stack', 'no-server-error', ['open-texts'], 'a recursive-descent parser without a depth limit behind a 1 MiB body limit: 1,500 levels pass, but some 10,000 exhaust its stack, and the RangeError becomes a 500 (RFC 8259, section 9 lets a parser limit depth: a 4xx would do)', (request, correct) =>
    nestingExceeds(textOf(request), 10_000) ? errorResponse(500, 'internal: Maximum call stack size exceeded') : correct(),
  ),
  fault('exact-decimal-expanded', 'no-server-error', ['invalid-body'], "an untyped reader keeps numbers as exact decimals (Python's parse_float=Decimal, Java's BigDecimal) and makes the id an integer before its range check: 1e400 is a 401-digit integer, harmless, but 1e1000000000 runs out of memory, a 500", (request, correct) =>
    /"id"\s*:\s*-?\d+(\.\d+)?[eE]\+?\d{7,}/.test(textOf(request)) ? errorResponse(500, 'internal: MemoryError') : correct(),
  ),
  fault('yaml-reads-json', 'rejects-invalid', ['malformed-json'], 'the body is read by a YAML parser ("JSON is a subset of YAML"): a bare word is a string, None and nil too, so {"name": Monstera} is taken (RFC 8259, section 3: a value is an object, array, number, string or one of the three lower-case literal names)', readLeniently(yamlToJson)),
  fault('json5-parser', 'rejects-invalid', ['malformed-json'], 'the body is read by a JSON5 parser ("be liberal in what you accept"): comments, trailing commas, single quotes, bare keys, +1, 1. and 0x10 are taken (RFC 8259, sections 2, 4, 6 and 7 allow none of them)', readLeniently(json5ToJson)),
  fault('raw-controls-accepted', 'rejects-invalid', ['malformed-json'], "strings are read with json.loads(strict=False) (Jackson: ALLOW_UNQUOTED_CONTROL_CHARS): a raw tab, line feed or NUL inside a string is taken (RFC 8259, section 7: they MUST be escaped)", readLeniently(escapeRawControls)),
  fault('any-escape-accepted', 'rejects-invalid', ['malformed-json'], "a backslash before any character is read as that character (Jackson: ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER): \\x41 and \\' are taken (RFC 8259, section 7 has eight escapes and \\u)", readLeniently((text) => text.replace(/\\([^"\\/bfnrtu])/g, '$1'))),
  fault('completes-truncated-json', 'rejects-invalid', ['malformed-json'], 'a "partial JSON" parser (made for streamed output) closes an open string and every open bracket, so a body cut off is stored as far as it goes (RFC 8259, section 2: a text is a whole value)', readLeniently(completed)),
  fault('drops-invalid-utf8', 'rejects-invalid', ['malformed-json'], "the body is decoded with errors='ignore' (Python's bytes.decode, iconv -c): bytes that are not UTF-8 are dropped, so 0xFF between two tokens leaves a text that parses (RFC 8259, section 8.1: JSON MUST be UTF-8)", (request, correct, app) => {
    const bytes = Buffer.from(request.body ?? []);
    const decoded = new TextDecoder('utf-8').decode(bytes).replaceAll('\ufffd', '');
    return Buffer.from(decoded, 'utf8').equals(bytes) ? correct() : app.request(withBody(request, decoded));
  }),
  fault('no-unicode-escapes', 'echo', ['valid'], 'a hand-written string reader keeps \\uXXXX escapes as the six characters they are written with: "\\u006eame" is stored as the text \\u006eame (RFC 8259, section 7: any character may be escaped)', (request, correct, app) => {
    const text = textOf(request);
    const kept = text.replace(/\\u([0-9a-fA-F]{4})/g, '\\\\u$1');
    return kept === text ? correct() : app.request(withBody(request, kept));
  }),
  {
    name: 'token-split-at-comma',
    caughtBy: 'requires-auth',
    caughtAs: 'failure',
    kinds: ['bad-auth'],
    defect: 'the token is read as the Authorization field up to its first comma or space after the scheme (a reader written for lists): Bearer <token>, and Bearer <token> x are accepted (RFC 6750, section 2.1: b64token is the whole rest of the field)',
    start: () =>
      startBearerStore({
        authenticate: (req) => {
          const token = /^Bearer +([^, ]*)/i.exec(req.headers.authorization ?? '')?.[1];
          return token === SECRET ? undefined : carefulAuthentication(req, new URL('http://plant-store.test'));
        },
      }),
  },
  challenging('unescaped-quote-in-realm', 'the realm is interpolated without escaping its quotes, Bearer realm="the "plants" store": the quoted-string ends at the second quote and the rest is garbage (RFC 9110, section 5.6.4: a quote inside is written \\")', { missing: 'Bearer realm="the "plants" store"', refused: 'Bearer realm="the "plants" store", error="invalid_token"' }),
  challenging('empty-realm-variable', 'the realm comes from a setting left empty, so the template writes Bearer realm=: that is a token68 ("realm="), not an auth-param, where RFC 6750, section 3 allows auth-params only', { missing: 'Bearer realm=', refused: 'Bearer realm=' }),
  challenging('token-realm', 'the realm is written as a token, Bearer realm=plants: RFC 9110, section 11.5: a sender MUST only generate the quoted-string syntax, and clients that read only that miss it', { missing: 'Bearer realm=plants', refused: 'Bearer realm=plants, error="invalid_token"' }),
  challenging('quoted-error-description', 'the exception message goes into error_description with its quotes escaped, error_description="the token \\"abc\\" has expired": RFC 6750, section 3: the value MUST NOT include characters outside %x20-21 / %x23-5B / %x5D-7E', { missing: 'Bearer realm="plants"', refused: 'Bearer realm="plants", error="invalid_token", error_description="the token \\"tes...\\" is not known"' }),
  challenging('basic-challenge-for-bearer', 'the 401 of a bearer-only API says WWW-Authenticate: Basic realm="plants" (copied from another service): no challenge applies to the resource (RFC 9110, section 11.6.1), and a client is asked for what the API does not take', { missing: 'Basic realm="plants"', refused: 'Basic realm="plants"' }),
  challenging('bearer-without-params', 'a bare WWW-Authenticate: Bearer, the default of ASP.NET Core, Spring Security and FastAPI: RFC 6750, section 3 asks for auth-params, a client loses nothing (a warning)', { missing: 'Bearer', refused: 'Bearer' }, 'warning'),
  challenging('error-code-without-credentials', 'every 401 says error="invalid_token", a request that sent no credentials too: RFC 6750, section 3.1: the server SHOULD NOT include an error code when the request lacks any authentication information', { missing: 'Bearer realm="plants", error="invalid_token"', refused: 'Bearer realm="plants", error="invalid_token"' }, 'warning'),
];
