/**
 * `target-spellings`: on every path of the contract (from its first operation), the plain valid
 * request with its target spelled otherwise, each class of the grammars once (RFC 3986, section
 * 2.1; RFC 9112, section 3.2). Written exactly as they are (RequestFraming.target), each on a
 * connection of its own.
 *
 * - **Equivalent** spellings (RFC 3986, section 6.2.2; RFC 9110, section 4.2.3): an unreserved
 *   character percent-encoded (`/%70lants`), the other case of hex in an escape the target already
 *   needs, an empty query (`/plants?`), the absolute-form where `framing` does not send it. Each is
 *   judged as its plain form by every check (its `path` is the plain one), in every respect:
 *   routing, credentials, validation, status and answer. A refusal (any 4xx: a router that matches
 *   the raw target answers 404) is a warning - no client sends these - and a 5xx, a reset or an
 *   answer other than the plain form's a failure.
 * - **Invalid** ones: a malformed percent-escape in the path (`%zz`, a lone `%`, `%E9`, an octet
 *   that is not UTF-8), a fragment (`#`, no part of a request-target), a space and a control
 *   character (RFC 9112, section 3.2; section 3 asks for 400). Any 4xx passes; a 5xx, a reset or a
 *   process that dies (every later request then fails) is a failure. The escape goes in the last
 *   segment: in place of a parameter's value, where the path ends with one (a router that decodes
 *   the parameter decodes it), else after the literal segment (a layer that decodes the whole path).
 */
import type { RequestCase } from '../../../oracle/index.js';
import type { AuthSpelling } from '../tables/credential-spellings.js';
import { badCredentials, schemeCredentials } from './bad-auth.js';
import { declaresJson } from '../tables/media-bodies.js';
import type { OperationContext } from '../tables/operation-context.js';
import { operationKind } from './kind.js';

/** The tag prefix of the kind's requests: `target:equivalent:<class>`, `target:invalid:<class>`. */
export const TARGET_TAG_PREFIX = 'target:';

export const EQUIVALENT_TARGET_REASON =
  'RFC 3986, section 6.2.2: the spelling is equivalent to the plain target, and is to be treated as it; no client sends it, and routers that match the raw target (Express, node:http handlers, Python http.server comparing self.path) answer 404';

export const INVALID_TARGET_REASON = 'RFC 9112, section 3.2; RFC 3986, section 2.1: the request-target is invalid; a server may refuse it with any 4xx, never with a 5xx, a reset or by dying';

/** The invalid classes, each with what goes in the last segment of the target. */
export const INVALID_TARGETS: readonly { readonly name: string; readonly what: string; readonly text: string; readonly after?: true }[] = [
  { name: 'escape:not-hex', what: 'a percent-escape that is not hex (%zz)', text: '%zz' },
  { name: 'escape:truncated', what: 'a lone % (a truncated percent-escape)', text: '%' },
  { name: 'escape:not-utf8', what: 'a percent-escape of an octet that is not UTF-8 (%E9)', text: '%E9' },
  { name: 'fragment', what: 'a fragment (#, no part of a request-target)', text: '#fragment', after: true },
  { name: 'space', what: 'a space', text: ' x' },
  { name: 'control', what: 'a control character (U+0001)', text: '\u0001' },
];

/** Unreserved characters (RFC 3986, section 2.3): an escape of one is equivalent to it. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Where a body of theirs starts: apart from the other kinds' coverage requests. */
const FIRST_BODY = 7000;

/** The target with its first unreserved character of a literal segment percent-encoded (upper-case hex, RFC 3986, section 2.1), or undefined where it has none. */
function unreservedEncoded(path: string, template: string): string | undefined {
  const literal = template.split('/').findIndex((segment) => segment !== '' && !segment.includes('{') && UNRESERVED.test(segment));
  if (literal === -1) return undefined;
  const segments = path.split('/');
  const segment = segments[literal] ?? '';
  const at = segment.search(UNRESERVED);
  segments[literal] = `${segment.slice(0, at)}%${segment.charCodeAt(at).toString(16).toUpperCase()}${segment.slice(at + 1)}`;
  return segments.join('/');
}

/** The target with the other case of hex in its first escape that has a letter, or undefined where it has none. */
function hexRecased(target: string): string | undefined {
  const escape = /%([0-9][A-Fa-f]|[A-Fa-f][0-9A-Fa-f])/.exec(target);
  if (escape === null) return undefined;
  const hex = target.slice(escape.index + 1, escape.index + 3);
  const other = hex === hex.toUpperCase() ? hex.toLowerCase() : hex.toUpperCase();
  return `${target.slice(0, escape.index + 1)}${other}${target.slice(escape.index + 3)}`;
}

/** The target with `text` in its last segment: in place of the value where the template ends with a parameter, else after it. */
function inLastSegment(path: string, template: string, text: string): string {
  const [bare = path, query] = path.split('?', 2);
  const templated = /\}$/.test(template.split('/').at(-1) ?? '');
  const written = templated ? `${bare.slice(0, bare.lastIndexOf('/') + 1)}${text}` : `${bare}${text}`;
  return query === undefined ? written : `${written}?${query}`;
}

function equivalents(context: OperationContext, plain: RequestCase): RequestCase[] {
  const template = context.operation.path;
  // Each spells the target of the request it is given: credentials in the query (an API key) are part of it.
  const spelled: { name: string; what: string; spell: (path: string) => string | undefined; absolute?: true }[] = [
    { name: 'unreserved-encoded', what: 'an unreserved character percent-encoded', spell: (path) => unreservedEncoded(path, template) },
    { name: 'hex-case', what: 'the other case of hex in a percent-escape', spell: hexRecased },
    { name: 'empty-query', what: 'an empty query', spell: (path) => (path.includes('?') ? undefined : `${path}?`) },
  ];
  // The framing kind sends the absolute-form for each operation with a JSON body.
  if (!declaresJson(context.operation)) spelled.push({ name: 'absolute-form', what: 'the absolute-form (RFC 9112, section 3.2.2)', spell: (path) => path, absolute: true });
  return spelled.flatMap(({ name, what, spell, absolute }, i) => {
    if (spell(plain.path) === undefined) return [];
    const spelling = (auth: AuthSpelling, tag: string, shown: string): RequestCase[] => {
      const made = (variant: string): RequestCase => context.make({ kind: 'target-spellings', variant, content: 'valid', auth, values: context.plainParameters(0), n: FIRST_BODY + i, tags: [tag] });
      const own = made('').path;
      const target = spell(own);
      if (target === undefined) return [];
      const request = made(`${what}: ${JSON.stringify(absolute ? `http://host${target}` : target)}, equivalent to ${own}${shown}`);
      return [{ ...request, lenient: EQUIVALENT_TARGET_REASON, lenientAbout: 'target' as const, framing: absolute ? { absoluteForm: true } : { target } }];
    };
    // The routing class once more without credentials: the spelling is refused as the plain target is (a guard that matches the raw path, and a router that decodes it, let it through).
    const missing = name === 'unreserved-encoded' ? missingCredentials(context) : undefined;
    return [...spelling(context.validAuth, `${TARGET_TAG_PREFIX}equivalent:${name}`, ''), ...(missing === undefined ? [] : spelling(missing, `${TARGET_TAG_PREFIX}equivalent:${name}:no-credentials`, `, ${missing.shown}`))];
  });
}

/** No credentials, as the operation's scheme refuses them; undefined where the contract opens the operation. */
function missingCredentials(context: OperationContext): AuthSpelling | undefined {
  const spellings = context.scheme === undefined ? schemeCredentials(context) : badCredentials(context.scheme, context.token, context.profile);
  return spellings.find((auth) => auth.credentials === 'missing');
}

function invalids(context: OperationContext, plain: RequestCase): RequestCase[] {
  return INVALID_TARGETS.map(({ name, what, text, after }, i) => {
    const target = after === true ? `${plain.path}${text}` : inLastSegment(plain.path, context.operation.path, text);
    const request = context.make({ kind: 'target-spellings', variant: `${what} in the target: ${JSON.stringify(target)}`, content: 'invalid', auth: context.validAuth, values: context.plainParameters(0), n: FIRST_BODY + 10 + i, tags: [`${TARGET_TAG_PREFIX}invalid:${name}`] });
    return { ...request, path: target, lenient: INVALID_TARGET_REASON, lenientAbout: 'target' as const, framing: { target } };
  });
}

function cases(context: OperationContext): RequestCase[] {
  const declared = [...context.contract.operationsAt(context.operation.path).keys()];
  // Once a path: from its first operation.
  if (declared[0] !== context.operation.method) return [];
  const plain = context.make({ kind: 'target-spellings', variant: 'plain', content: 'valid', auth: context.validAuth, values: context.plainParameters(0) });
  return [...equivalents(context, plain), ...invalids(context, plain)];
}

export const targetSpellings = operationKind({
  name: 'target-spellings',
  description: 'on every path, the target spelled otherwise: equivalent spellings (an unreserved character percent-encoded, hex case, an empty query, the absolute-form) answered as the plain target (a refusal warns), and invalid ones (a malformed percent-escape in the path, a fragment, a space, a control character) refused with a 4xx, never a 5xx, a reset or a dead process',
  weight: 0,
  random: () => undefined,
  coverage: cases,
});
