/**
 * What a request the engine did not make is, read from the contract: the requests a proxy sees
 * (`plant-store proxy`), a journal holds or a test recorded. The checks judge a request by what it
 * is - its `content`, its `credentials`, `lenient` (types.ts) - and the generators know that of
 * every request they make; here it is worked out from the request itself, with the same grammar,
 * validator and tables the generators use, so an observed request gets the findings `conform`
 * would give the same request.
 *
 * Where the contract, the RFCs or what the observer knows leave a request open, it is not forced
 * into one class: `judgeObserved` judges it under every **interpretation** it could have and reports only
 * the findings every interpretation gives. The target gets the benefit of the doubt, and no finding rests
 * on a guess. The rules, each with its reason, are in docs/proxy.md ("How a request is classified").
 */
import { formatIssues, isLosslessNumber, mediaTypeEssence, nestingExceeds, parseJson, type Contract, type CredentialLocation, type JsonValue, type OperationContract, type ParameterContract, type RequestBodyContract } from '../src/openapi/index.js';
import { truncate } from '../src/http/portable.js';
import { applicableChecks, runChecks, type CheckName } from './registry.js';
import { credentialsByGrammar, CREDENTIAL_VARIANTS, type Presented } from './credential-table.js';
import { LONE_SURROGATE_LENIENCY, UTF8_IN_STRING_LENIENCY } from './leniencies.js';
import { canonicalText, isOtherSpelling, PARAMETER_SPELLING_OPENNESS } from './parameter-spellings.js';
import { openPatchResult, PATCH_RESULT_OPENNESS } from './patch-results.js';
import type { CheckOptions, Content, Credentials, Finding, HttpOutcome, HttpRequest, LinkStep, RequestCase } from './types.js';

export interface ClassifyOptions {
  /**
   * Bearer tokens the target is known to accept (the proxy's `--token`). A well-formed token among
   * them is `valid`; any other is an `unknown-token`, which the answer reads (see `interpretationsOf`).
   */
  readonly tokens?: readonly string[];
  /**
   * Credentials per security scheme the target is known to accept, by scheme name, as compared
   * (a token, basic `user:password`, an API key; the proxy's `--auth`): they judge the operations
   * that are not one bearer scheme. Without one for a scheme, its credential is an `unknown-token`.
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /** False when `request.body` is only the start of the body (the observer kept no more): what the body is stays open. Default true. */
  readonly complete?: boolean;
  /** A body nested deeper than this is left open: the contract sets no limit, and every server has one. Default: no limit. */
  readonly maxDepth?: number;
}

/**
 * What an observed request is. `open` where the contract leaves it open (another path, a content
 * coding, a byte order mark...); `unknown-token` for a well-formed bearer token the observer was
 * not told the target accepts.
 */
export interface Classification {
  /** The operation of the contract the request is for; undefined for another path or method. */
  readonly operation: OperationContract | undefined;
  readonly content: Content | 'open';
  readonly credentials: Credentials | 'unknown-token' | 'open';
  /** Why, for people (never the token): `a body the request schema accepts`, `id: must be integer`. */
  readonly contentReason: string;
  readonly credentialsReason: string;
  /**
   * Where the RFCs leave the answer open, the reason (as `RequestCase.lenient`): for the
   * credentials (a row of the credential table) and for the body. As in the engine's own
   * requests, one counts only where the other is good: with bad credentials a 2xx is wrong
   * whatever the body, and with a bad body whatever the credentials.
   */
  readonly credentialsLenient?: string;
  readonly contentLenient?: string;
}

/** What `judgeObserved` concludes about one exchange. */
export interface ObservedJudgement {
  /** The findings every interpretation of the request gives, in registry order. */
  readonly findings: readonly Finding[];
  /** The checks that judged the exchange: those that apply to it under every interpretation. */
  readonly judgedBy: readonly CheckName[];
  /** The interpretations judged: one, unless the request is open. */
  readonly interpretations: readonly RequestCase[];
}

type Judged<C> = { readonly class: C; readonly reason: string; readonly lenient?: string };

/** An Authorization token as RFC 6750, section 2.1 writes it, anywhere in a text (candidates for the credential table's rows). */
const B64TOKEN_RUN = /[A-Za-z0-9\-._~+/]+=*/g;
const PLAIN_BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;
/** Never a b64token: what the grammar is asked to compare a token with when only the grammar matters. */
const NO_TOKEN = '\u0000';

/** What an observed request is, from the contract and the request alone. */
export function classifyRequest(contract: Contract, request: HttpRequest, options: ClassifyOptions = {}): Classification {
  const operation = contract.findOperation(request.method, pathOf(request));
  if (operation === undefined) {
    const reason = `no operation of the contract is ${request.method} ${pathOf(request)}`;
    return { operation, content: 'open', credentials: 'open', contentReason: reason, credentialsReason: reason };
  }
  const parameters = parametersOf(contract, operation, request);
  const read = contentOf(operation, request, options);
  // A valid PATCH whose result the engine cannot prove valid by the item schema: the stored item decides (patch-results.ts).
  const body = read.class === 'valid' && openPatchResult(contract, operation, request) !== undefined ? open(PATCH_RESULT_OPENNESS) : read;
  // Either is enough to make the request invalid; an open parameter leaves a body that is not invalid open.
  const content = parameters === undefined || (parameters.class === 'open' && body.class === 'invalid') ? body : parameters;
  const credentials = credentialsOf(operation, request, options.tokens ?? [], options.credentials ?? {});
  return {
    operation,
    content: content.class,
    credentials: credentials.class,
    contentReason: content.reason,
    credentialsReason: credentials.reason,
    ...(credentials.lenient === undefined ? {} : { credentialsLenient: credentials.lenient }),
    ...(content.lenient === undefined ? {} : { contentLenient: content.lenient }),
  };
}

/**
 * The request cases the checks judge for an observed exchange, one per interpretation the observer
 * cannot rule out: open content is read as valid and as invalid; a request to no operation under
 * every content and every kind of credentials; an unknown token as the answer shows the target
 * took it - refused with a 401, a wrong token; otherwise accepted, a valid one. So a 401 to an
 * unknown token never asserts rule 1, and a 2xx to one is judged as the target's acceptance.
 * A read that ends a sequence the observer saw along the contract's links (observed-links.ts)
 * carries its `link` where it is read as the engine's own reads are: valid, with valid credentials.
 */
export function interpretationsOf(request: HttpRequest, classification: Classification, outcome: HttpOutcome, link?: LinkStep): RequestCase[] {
  const contents: readonly Content[] = classification.content === 'open' ? ['valid', 'invalid'] : [classification.content];
  const credentials: readonly Credentials[] =
    classification.credentials === 'open'
      ? ['valid', 'missing', 'other-scheme', 'wrong-token', 'malformed']
      : classification.credentials === 'unknown-token'
        ? [outcome.kind === 'response' && outcome.status === 401 ? 'wrong-token' : 'valid']
        : [classification.credentials];
  const kind = `${request.method} ${truncate(pathOf(request), 60)}`;
  return contents.flatMap((content) =>
    credentials.map((credential): RequestCase => {
      const lenient = credential === 'valid' ? (classification.contentLenient ?? classification.credentialsLenient) : content === 'valid' ? classification.credentialsLenient : undefined;
      const linked = link !== undefined && content === 'valid' && credential === 'valid' && lenient === undefined;
      const interpretation = { ...request, kind, variant: '', content, credentials: credential, ...(lenient === undefined ? {} : { lenient }), setup: [], ...(linked ? { link } : {}) };
      // Only a finding's message reads the variant: it is written when one does.
      let variant: string | undefined;
      return Object.defineProperty(interpretation, 'variant', { enumerable: true, get: () => (variant ??= describe(classification, content, credential)) });
    }),
  );
}

/**
 * Every exchange check of the registry on an observed exchange, under each of its interpretations: the
 * findings that every interpretation gives (by check and severity; the first interpretation's messages), and
 * the checks that apply under every interpretation. `link`: the sequence a read ends, where the observer saw one.
 */
export function judgeObserved(contract: Contract, request: HttpRequest, classification: Classification, outcome: HttpOutcome, options: CheckOptions = {}, link?: LinkStep): ObservedJudgement {
  const interpretations = interpretationsOf(request, classification, outcome, link);
  const [first, ...others] = interpretations;
  if (first === undefined) return { findings: [], judgedBy: [], interpretations };
  const judgedBy = applicableChecks(first, outcome, contract, options).filter((name) => others.every((interpretation) => applicableChecks(interpretation, outcome, contract, options).includes(name)));
  const key = (finding: Finding): string => `${finding.check}\u0000${finding.severity}`;
  const everywhere = others.map((interpretation) => new Set(runChecks(interpretation, outcome, contract, options).map(key)));
  const findings = runChecks(first, outcome, contract, options).filter((finding) => everywhere.every((keys) => keys.has(key(finding))));
  return { findings, judgedBy, interpretations };
}

// ---- content ---------------------------------------------------------------------------------

const valid = (reason: string, lenient?: string): Judged<Content> => ({ class: 'valid', reason, ...(lenient === undefined ? {} : { lenient }) });
const invalid = (reason: string, lenient?: string): Judged<Content> => ({ class: 'invalid', reason, ...(lenient === undefined ? {} : { lenient }) });
const open = (reason: string): Judged<'open'> => ({ class: 'open', reason });

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const replacingUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * What the body and its media type are, in the order a careful server reads them. Where the
 * contract and RFC 8259 decide, `valid` or `invalid` (with `lenient` where the engine's own
 * requests carry it); where they leave the answer to the server, `open`.
 */
function contentOf(operation: OperationContract, request: HttpRequest, options: ClassifyOptions): Judged<Content | 'open'> {
  const declared = operation.requestBody;
  const bytes = request.body;
  if (declared === undefined) return bytes.length === 0 ? valid('no body, as the operation declares none') : open('a body for an operation that declares none: HTTP gives it no meaning');
  if (options.complete === false) return open('the body was not kept whole, so what it is stays unknown');
  const codings = (request.headers['content-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  // RFC 9110, section 8.4: a server decodes a coding it supports and refuses one it does not (415); the contract names none.
  if (codings.length > 0) return open(`a body in the content coding ${codings.join(', ')}: the contract names no coding, and RFC 9110, section 8.4 lets a server decode it or refuse it`);
  const type = request.headers['content-type'];
  const expected = declared.mediaTypes.join(' or ');
  if (type === undefined) return invalid(`no Content-Type; the contract declares ${expected}`);
  if (!declared.mediaTypes.some((t) => t.toLowerCase() === mediaTypeEssence(type))) return invalid(`Content-Type ${truncate(type, 60)}; the contract declares ${expected}`);
  if (bytes.length === 0) return declared.required ? invalid('no body; the contract requires one') : valid('no body, which the contract allows');
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    // RFC 8259, section 9: a parser may replace bytes that are not UTF-8; if that leaves an acceptable body, they were inside a string.
    const replaced = bodyIssues(operation, replacingUtf8.decode(bytes));
    return invalid('a body that is not valid UTF-8 (RFC 8259, section 8.1)', replaced === undefined ? UTF8_IN_STRING_LENIENCY : undefined);
  }
  // RFC 8259, section 8.1: a parser may ignore a byte order mark or refuse it; an otherwise valid body is open.
  const mark = text.charCodeAt(0) === 0xfeff;
  if (mark) text = text.slice(1);
  if (options.maxDepth !== undefined && nestingExceeds(text, options.maxDepth)) return open(`a body nested deeper than ${options.maxDepth} levels: the contract sets no limit, and every server has one`);
  let value: JsonValue;
  // A malformed body is common traffic: its parse errors are read for their message only, so no stack trace is captured.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof RangeError) return deeperThanReader(declared, text);
    // RFC 8259, section 4: with duplicate names "the behavior of software that receives such an object is unpredictable".
    if (parsesLoosely(text)) return open('a JSON object with a name twice, with different values: RFC 8259, section 4 leaves what a parser does open');
    return invalid(`malformed JSON (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const issues = declared.validate(value);
  if (!issues.valid) return invalid(`the body breaks the request schema (${formatIssues(issues.issues)})`);
  if (mark) return open('a valid body after a byte order mark: RFC 8259, section 8.1 lets a parser ignore the mark or refuse it');
  return holdsLoneSurrogate(value) ? valid('a body the request schema accepts, with a lone surrogate in a string', LONE_SURROGATE_LENIENCY) : valid('a body the request schema accepts');
}

/**
 * A text nested deeper than the kit's exact reader goes (its recursion ends): read by the engine's
 * own JSON.parse, which does not recurse, for what the schema makes of it. A body the schema
 * refuses at any depth (an array where an object is asked) is invalid; one it might accept is
 * open: RFC 8259, section 9 lets a parser limit the depth it reads.
 */
function deeperThanReader(declared: RequestBodyContract, text: string): Judged<Content | 'open'> {
  const reason = 'a body nested deeper than a recursive reader goes: RFC 8259, section 9 lets a parser limit its depth';
  let loose: JsonValue;
  try {
    loose = JSON.parse(text) as JsonValue;
  } catch (error) {
    return error instanceof RangeError ? open(reason) : invalid(`malformed JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  // A schema of objects only refuses anything else at once, however deep it goes (the validator's own walk may recurse past its stack).
  if (declared.objectsOnly && (typeof loose !== 'object' || loose === null || Array.isArray(loose))) return invalid(`a body that is not a JSON object, where the request schema takes objects only (${reason})`);
  try {
    return declared.validate(loose).valid ? open(reason) : invalid(`the body breaks the request schema (${reason})`);
  } catch {
    return open(reason);
  }
}

/**
 * What the path, query and header parameters make of the request, as the operation's schemas read
 * them (int64 exact; the default styles): invalid where one is refused, open where a scalar query
 * parameter comes twice (the form style writes it once; which one a server takes is left open);
 * undefined where they are all valid.
 */
function parametersOf(contract: Contract, operation: OperationContract, request: HttpRequest): Judged<'invalid' | 'open'> | undefined {
  if (operation.parameters.length === 0) return undefined;
  const mark = request.path.indexOf('?');
  const query = mark < 0 ? '' : request.path.slice(mark + 1);
  const given = new URLSearchParams(query);
  const repeated = operation.parameters.find((parameter) => parameter.in === 'query' && !parameter.array && given.getAll(parameter.name).length > 1);
  if (repeated !== undefined) return open(`query parameter ${repeated.name} given ${given.getAll(repeated.name).length} times: the form style writes it once, and which one a server takes is left open`);
  const path = contract.matchPath(pathOf(request))?.values ?? {};
  const parsed = operation.parseParameters({ path, query, headers: request.headers });
  const canonical = canonicalParameters(operation, { path, query, headers: request.headers });
  // Another spelling of a valid value (1.0, +1, -0): the server may read it or refuse it (parameter-spellings.ts).
  if (canonical !== undefined && !('problem' in operation.parseParameters(canonical))) return open(PARAMETER_SPELLING_OPENNESS);
  return 'problem' in parsed ? { class: 'invalid', reason: parsed.problem } : undefined;
}

/** The request's parameters with every value in its canonical spelling; undefined when each already is (or is no value of its type). */
function canonicalParameters(operation: OperationContract, request: { path: Readonly<Record<string, string>>; query: string; headers: HttpRequest['headers'] }): { path: Record<string, string>; query: string; headers: Record<string, string> } | undefined {
  const path: Record<string, string> = { ...request.path };
  const query = new URLSearchParams(request.query);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  const respelledNames = new Set<string>();
  // Comma-separated items for lists (the simple and non-exploded form styles), else the one text.
  const respell = (parameter: ParameterContract, text: string): string => {
    const items = parameter.array ? text.split(',') : [text];
    const canonical = canonicalText(parameter, items);
    if (!isOtherSpelling(parameter, items)) return text;
    respelledNames.add(parameter.name);
    return (canonical as readonly string[]).join(',');
  };
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path' && path[parameter.name] !== undefined) {
      const decoded = safeDecode(path[parameter.name] ?? '');
      if (decoded !== undefined) {
        const respelled = respell(parameter, decoded);
        if (respelled !== decoded) path[parameter.name] = respelled.split(',').map(encodeURIComponent).join(',');
      }
    } else if (parameter.in === 'query' && query.has(parameter.name)) {
      const values = query.getAll(parameter.name).map((value) => respell(parameter, value));
      query.delete(parameter.name);
      for (const value of values) query.append(parameter.name, value);
    } else if (parameter.in === 'header' && headers[parameter.name.toLowerCase()] !== undefined) {
      headers[parameter.name.toLowerCase()] = respell(parameter, headers[parameter.name.toLowerCase()] ?? '');
    }
  }
  return respelledNames.size > 0 ? { path, query: query.toString(), headers } : undefined;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Undefined when the text is a body the operation accepts; otherwise why not. */
function bodyIssues(operation: OperationContract, text: string): string | undefined {
  try {
    const validation = operation.requestBody?.validate(parseJson(text));
    return validation === undefined || validation.valid ? undefined : formatIssues(validation.issues);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Whether a parser that keeps the last of duplicate names (JSON.parse) reads the text. */
function parsesLoosely(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** In a `u` regular expression a surrogate pair is one code point, so only a lone surrogate is of the category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

function holdsLoneSurrogate(value: JsonValue): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) return Object.entries(value).some(([key, item]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(item));
  return false;
}

// ---- credentials -----------------------------------------------------------------------------

/**
 * The credentials, by the grammar of RFC 9110, section 11.4 and RFC 6750, section 2.1 (the
 * credential table's `classify`): missing, another scheme or malformed are what they are; a
 * well-formed bearer token is valid only when the observer knows the target accepts it. Where a
 * row of the credential table sends exactly this and the RFCs leave its answer open, its reason
 * becomes the request's `lenient`, as in the engine's own request.
 */
function credentialsOf(operation: OperationContract, request: HttpRequest, tokens: readonly string[], given: Readonly<Record<string, string>>): Judged<Credentials | 'unknown-token'> {
  const requirement = operation.security[0];
  if (requirement === undefined || requirement.length === 0) return { class: 'valid', reason: 'the operation asks for no credentials' };
  const [scheme] = requirement;
  if (operation.security.length > 1 || requirement.length > 1 || scheme?.type !== 'http' || scheme.scheme?.toLowerCase() !== 'bearer') return bySchemes(operation, request, given);
  const lines = authorizationLines(request);
  const grammar = credentialsByGrammar({ lines }, 'Bearer', NO_TOKEN);
  const query = accessToken(request);
  const lenient = lenientRow({ lines, ...(query === undefined ? {} : { accessToken: query }) });
  const judged = (credentials: Credentials | 'unknown-token', reason: string): Judged<Credentials | 'unknown-token'> => ({ class: credentials, reason, ...(lenient === undefined ? {} : { lenient }) });
  switch (grammar) {
    case 'missing':
      return judged('missing', lines.length === 0 && query !== undefined ? 'no Authorization header; a token in the query (RFC 6750, section 2.3)' : 'no credentials');
    case 'other-scheme':
      return judged('other-scheme', 'credentials of another scheme than Bearer');
    case 'malformed':
      return judged('malformed', lines.length > 1 ? `${lines.length} Authorization fields` : 'malformed bearer credentials (RFC 6750, section 2.1)');
    default:
      return tokens.some((token) => credentialsByGrammar({ lines }, 'Bearer', token) === 'valid')
        ? judged('valid', 'a bearer token the target accepts (--token)')
        : judged('unknown-token', 'a well-formed bearer token the proxy was not told the target accepts');
  }
}

/** The credential at a scheme's place in a request: its header field, query parameter or cookie; undefined where it has none. */
function presentedAt(request: HttpRequest, place: CredentialLocation): string | undefined {
  if (place.in === 'header') return request.headers[place.name];
  if (place.in === 'query') {
    const mark = request.path.indexOf('?');
    return mark < 0 ? undefined : (new URLSearchParams(request.path.slice(mark + 1)).get(place.name) ?? undefined);
  }
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === place.name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/**
 * Credentials of the operation's schemes judged per scheme, each at its place, by its type
 * (src/openapi/security/) against the credential known for it: valid where an alternative's every
 * scheme is accepted; missing where none is present; malformed or a wrong token where every
 * present one is known and refused; otherwise unknown, which the answer reads.
 */
function bySchemes(operation: OperationContract, request: HttpRequest, given: Readonly<Record<string, string>>): Judged<Credentials | 'unknown-token'> {
  let present = false;
  let unknown = false;
  let malformed = false;
  for (const alternative of operation.securedBy) {
    let accepted = true;
    for (const use of alternative) {
      const value = presentedAt(request, use.credential);
      if (value !== undefined) present = true;
      const known = given[use.name];
      if (known === undefined) {
        accepted = false;
        if (value !== undefined) unknown = true;
        continue;
      }
      const judged = use.type.judge(value, (credential) => credential === known, use);
      if (judged.outcome === 'malformed') malformed = true;
      if (judged.outcome !== 'accepted') accepted = false;
    }
    if (accepted) return { class: 'valid', reason: `credentials of ${alternative.map((use) => use.name).join(' and ')} the target accepts (--auth)` };
  }
  if (!present) return { class: 'missing', reason: `no credentials of ${operation.securedBy.flat().map((use) => use.name).join(', ')}` };
  if (unknown) return { class: 'unknown-token', reason: 'credentials the proxy was not told the target accepts (--auth)' };
  return malformed ? { class: 'malformed', reason: 'malformed credentials of the operation\'s schemes' } : { class: 'wrong-token', reason: 'credentials the target is not known to accept (--auth)' };
}

/** The Authorization field lines, in order: the joined `headers` value holds the first, `extraLines` the others. */
function authorizationLines(request: HttpRequest): string[] {
  const first = request.headers.authorization;
  const more = (request.extraLines ?? []).filter(([name]) => name === 'authorization').map(([, value]) => value);
  return first === undefined ? more : [first, ...more];
}

/** RFC 6750, section 2.3: the `access_token` query parameter (form-encoded), if the request has one. */
function accessToken(request: HttpRequest): string | undefined {
  const mark = request.path.indexOf('?');
  return mark < 0 ? undefined : (new URLSearchParams(request.path.slice(mark + 1)).get('access_token') ?? undefined);
}

/** The reason of the credential table's lenient row that sends exactly these credentials, for any token they hold. */
function lenientRow(presented: Presented): string | undefined {
  // The plain spelling, one `Bearer <b64token>` field and nothing in the query, is the spelling every row differs from.
  if (presented.accessToken === undefined && presented.lines.length === 1 && PLAIN_BEARER.test(presented.lines[0] ?? '')) return undefined;
  const texts = [...presented.lines, presented.accessToken ?? ''];
  const candidates = new Set(texts.flatMap((text) => [...text.matchAll(B64TOKEN_RUN)].map((match) => match[0])));
  for (const variant of CREDENTIAL_VARIANTS) {
    if (variant.lenient === undefined) continue;
    for (const token of candidates) {
      const built = variant.build('Bearer', token);
      if (built !== undefined && built.accessToken === presented.accessToken && built.lines.length === presented.lines.length && built.lines.every((line, i) => line === presented.lines[i])) return variant.lenient;
    }
  }
  return undefined;
}

// ---- helpers ---------------------------------------------------------------------------------

function pathOf(request: HttpRequest): string {
  return request.path.split('?', 1)[0] ?? request.path;
}

/** The variant of a interpretation, for messages: what the content and credentials are, and why. */
function describe(classification: Classification, content: Content, credentials: Credentials): string {
  if (classification.operation === undefined) return classification.contentReason;
  const what = classification.content === 'open' ? `${classification.contentReason} (read as ${content})` : classification.contentReason;
  const who = classification.credentials === 'unknown-token' ? `${classification.credentialsReason}, read as ${credentials === 'valid' ? 'accepted: the answer was no 401' : 'wrong: the answer was 401'}` : classification.credentialsReason;
  return `${what}; ${who}`;
}
