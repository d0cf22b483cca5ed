/**
 * The rules of the pipeline (pipeline.ts): each judges one thing about a request and gives the
 * refusal it earns (a PlantStoreError, which becomes its Error answer) or undefined. `route`
 * comes first and finds the operation; the head rules follow, before any of the body is read
 * (so that credentials are judged before a byte of the body is: docs/DESIGN.md, decision 5); the body
 * rules judge the whole body. Their order is docs/DESIGN.md's and the lists below are the only place
 * that sets it: route, credentials, media type, content coding, declared length; then the
 * parameters (`readParameters`) and, where an operation's answer is negotiated, its Accept
 * (negotiation.ts: 406); then size, presence, UTF-8, byte order mark, nesting, JSON,
 * schema, object (only presence for an absent body the operation allows).
 *
 * Adding a rule touches two source files and a test:
 * 1. here, the rule: a `HeadRule` (it reads the head: method, url, headers) or a `BodyRule` (it
 *    reads the body as the rules before it left it: bytes, text, JSON value), placed in
 *    HEAD_RULES or BODY_RULES where it belongs in the order. A rule that applies to some
 *    operations only says so itself (see `credentialsRule`); its limits are constants here, or
 *    the `RuleSettings` that exist.
 * 2. src/http/errors.ts, when its refusal needs a code the catalogue lacks: the code, its status
 *    and what it is about (test/reference/error-catalogue.test.ts then wants a battery case
 *    that reaches it).
 * 3. its test: a line in test/http/rules.test.ts - the request it refuses and the code - which
 *    runs it through both servers and against the other rules' order.
 * Both servers run the new rule; nothing else changes. (A rule with a new configurable limit
 * is also a new setting: a field of `RuleSettings`, an option of createPipeline, and the
 * servers' and the command line's options that set it.)
 */
import { cookiePairs, formatIssues, httpBearer, isJsonObject, isParameterProblem, Malformed, variantFor, mediaTypeEssence, type Contract, type CredentialPolicy, type CredentialRefusal, type JsonValue, type MediaTypeCodec, type MediaVariant, type OperationContract, type ParsedParameters, type SchemeInUse } from '../openapi/portable.js';
import { PlantStoreError, truncate } from './errors.js';
import { headerValue, type RequestHead } from './exchange.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 64;

/** What the rules are told of the server that runs them. */
export interface RuleSettings {
  /** Which well-formed bearer tokens are accepted; the policy of every scheme without its own in `credentials`. */
  readonly accept: TokenPolicy;
  /** The policy of a security scheme, by its name in the contract (credentials.ts: `schemePolicies`). */
  readonly credentials?: ReadonlyMap<string, CredentialPolicy> | undefined;
  readonly maxBodyBytes: number;
  readonly maxDepth: number;
}

/** A rule judged on the head of a request the route has found an operation for. */
export interface HeadRule {
  (request: RequestHead, operation: OperationContract, settings: RuleSettings): PlantStoreError | undefined;
  /** How a verdict names the rule that refused a request (`credentials`, `media-type`, …; exchange.ts). */
  readonly ruleName: string;
}

/**
 * The body as the body rules read it: the bytes, then the text the UTF-8 rule decoded, then the
 * value the JSON rule parsed. A rule reads what the rules before it left and may leave more.
 */
export interface Body {
  bytes: Uint8Array;
  text: string;
  value: JsonValue;
  /**
   * The request body's media variant its Content-Type picked, where the operation declares more
   * than one (pipeline.ts); undefined: the operation's only (preferred) one.
   */
  variant?: MediaVariant | undefined;
  /** The request's Content-Type as sent (its parameters: multipart's boundary), set for a codec of fields. */
  contentType?: string | undefined;
}

/** A rule judged on the whole body of a request whose head passed every head rule. */
export interface BodyRule {
  (body: Body, operation: OperationContract, settings: RuleSettings): PlantStoreError | undefined;
  /** How a verdict names the rule that refused a request (`size`, `utf-8`, `json`, …). */
  readonly ruleName: string;
}

/** A head rule with the name its verdicts give it. */
function headRule(ruleName: string, judge: (request: RequestHead, operation: OperationContract, settings: RuleSettings) => PlantStoreError | undefined): HeadRule {
  return Object.assign(judge, { ruleName });
}

/** A body rule with the name its verdicts give it. */
function bodyRule(ruleName: string, judge: (body: Body, operation: OperationContract, settings: RuleSettings) => PlantStoreError | undefined): BodyRule {
  return Object.assign(judge, { ruleName });
}

/** How a verdict names the first rule, which finds the operation (404, 405). */
export const ROUTE_RULE = 'route';

/** `scheme://authority` at the start of an absolute-form request target (RFC 9112, section 3.2.2). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * A request target's path and query string (without `?`). An absolute-form target
 * (`http://host/plants`), which a server must accept, gives its path.
 */
export function splitTarget(url: string): { path: string; query: string } {
  // An origin-form target (`/plants`), which nearly every request has, needs no match.
  const authority = url.charCodeAt(0) === 0x2f /* / */ ? null : ABSOLUTE_FORM.exec(url);
  const target = authority ? url.slice(authority[0].length) || '/' : url;
  const mark = target.indexOf('?');
  return { path: mark === -1 ? target : target.slice(0, mark), query: mark === -1 ? '' : target.slice(mark + 1) };
}

/** A request the route has found an operation for: the operation, its path's templated segments and the query string. */
export interface Routed {
  readonly operation: OperationContract;
  /** The raw text of each templated path segment, by parameter name. */
  readonly pathValues: Readonly<Record<string, string>>;
  readonly query: string;
}

/**
 * The methods a path answers: those declared, and HEAD where GET is declared (RFC 9110, section
 * 9.3.2: HEAD is GET without content), as `Allow` lists them (section 10.2.1).
 */
export function allowedMethods(operations: ReadonlyMap<string, OperationContract>): string[] {
  const methods = [...operations.keys()];
  return operations.has('GET') && !operations.has('HEAD') ? [...methods, 'HEAD'] : methods;
}

/**
 * The path with each percent-escape of an unreserved character decoded (`/%70lants` is `/plants`):
 * the two are equivalent, and a URI normaliser decodes them (RFC 3986, sections 2.3, 6.2.2.2).
 * Escapes of other octets stay as they are, in either case of hex (section 6.2.2.1): the
 * parameters' reading decodes them.
 */
function unreservedDecoded(path: string): string {
  return path.includes('%') ? path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(char) ? char : escape;
  }) : path;
}

/**
 * The first rule: the operation for a request, or the 404/405 Error. A path falls under the
 * template whose literal segments match first (contract.ts); HEAD is answered as GET where only
 * GET is declared; a 405 lists the path's methods in `Allow` (RFC 9110, section 15.5.6).
 */
export function route(contract: Contract, method: string, url: string): Routed | PlantStoreError {
  const { path, query } = splitTarget(url);
  const match = contract.matchPath(unreservedDecoded(path));
  if (match === undefined) {
    const known = contract.operations.map((o) => `${o.method} ${o.path}`).join(', ');
    return new PlantStoreError('not_found', `path: no operation at ${truncate(path)}; the store has ${known}`);
  }
  const operations = contract.operationsAt(match.template);
  // Methods are case-sensitive (RFC 9110, section 9.1): `post` is no operation's, and gets 405.
  const operation = operations.get(method) ?? (method === 'HEAD' ? operations.get('GET') : undefined);
  if (operation) return { operation, pathValues: match.values, query };
  const allowed = allowedMethods(operations);
  return new PlantStoreError('method_not_allowed', `method: ${truncate(method)} is not allowed on ${truncate(path)}; use ${allowed.join(', ')}`, {
    headers: { allow: allowed.join(', ') },
  });
}

/** How a verdict names the rule that reads the parameters (after the head rules). */
export const PARAMETERS_RULE = 'parameters';

/** The request's path, query and header parameters as typed values, or the 400 Error naming the parameter. */
export function readParameters(request: RequestHead, routed: Routed): ParsedParameters | PlantStoreError {
  const parsed = routed.operation.parseParameters({ path: routed.pathValues, query: routed.query, headers: request.headers });
  return isParameterProblem(parsed) ? new PlantStoreError('invalid_parameter', parsed.problem) : parsed;
}

// ---- credentials ---------------------------------------------------------------------------

export { isWellFormedToken } from '../openapi/portable.js';

/** Decides whether a well-formed bearer token is accepted. */
export type TokenPolicy = CredentialPolicy;

/**
 * Accepts exactly the configured tokens, compared in constant time. Every accepted token and
 * the presented one are written into records of one fixed width - the byte length, then the
 * bytes, zero-padded to the longest accepted token - so the comparison reads the same number of
 * bytes whatever was presented, and only a token of exactly an accepted one's bytes matches (a
 * b64token has no zero byte; the length field tells a prefix from the whole). A digest would
 * serve as well and costs ten times more on every request. Plain typed arrays, no node:crypto:
 * the MSW handlers run this in the browser.
 */
export function acceptTokens(tokens: readonly string[]): TokenPolicy {
  const width = 4 + Math.max(0, ...tokens.map(utf8Length));
  const record = (token: string, into: Uint8Array = new Uint8Array(width)): Uint8Array => {
    // A presented token longer than every accepted one keeps its true length, so it cannot match.
    let end = 4 + Math.min(token.length, width - 4);
    let ascii = true;
    for (let i = 4; i < end && ascii; i++) {
      const code = token.charCodeAt(i - 4);
      into[i] = code;
      ascii = code < 0x80;
    }
    // A b64token is ASCII, written above a byte per character; anything else is written as UTF-8.
    if (ascii) writeLength(into, token.length);
    else {
      writeLength(into, utf8Length(token));
      end = 4 + UTF8.encodeInto(token, into.subarray(4)).written;
    }
    into.fill(0, end);
    return into;
  };
  const expected = tokens.map((token) => record(token));
  // Written anew for each presented token; requests are answered one at a time on one thread.
  const presented = new Uint8Array(width);
  return (token) => {
    record(token, presented);
    let accepted = false;
    for (const candidate of expected) accepted = sameBytes(presented, candidate) || accepted;
    return accepted;
  };
}

const UTF8 = new TextEncoder();

function utf8Length(text: string): number {
  return UTF8.encode(text).length;
}

/** The length field of a token record: 4 bytes, big-endian. */
function writeLength(into: Uint8Array, length: number): void {
  into[0] = length >>> 24;
  into[1] = (length >>> 16) & 0xff;
  into[2] = (length >>> 8) & 0xff;
  into[3] = length & 0xff;
}

/** Two records of one width compared byte for byte, all of them whatever differs: no early exit to time. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** Accepts any well-formed token: the mock's freedom. */
export const acceptAnyToken: TokenPolicy = () => true;

/**
 * What is wrong with an Authorization header as RFC 6750 bearer credentials, if anything: the 401
 * with its `WWW-Authenticate: Bearer` challenge (src/openapi/security/http-bearer.ts judges).
 */
export function bearerRefusal(authorization: string | undefined, accept: TokenPolicy): PlantStoreError | undefined {
  const judgement = httpBearer.judge(authorization, accept);
  return judgement.outcome === 'accepted' ? undefined : refusalOf(judgement, [httpBearer.challenge(judgement)]);
}

/** The credential a request carries at `location`: a header field, a query parameter or a cookie. */
function credentialAt(request: RequestHead, location: SchemeInUse['credential']): string | undefined {
  if (location.in === 'header') return headerValue(request.headers, location.name);
  if (location.in === 'query') return new URLSearchParams(splitTarget(request.url ?? '/').query).get(location.name) ?? undefined;
  // RFC 6265, section 4.2.1, read as cookie parameters are (parameter-styles/): the value as it came, unquoted.
  return cookiePairs(headerValue(request.headers, 'cookie')).find((pair) => pair.name === location.name)?.raw;
}

// ---- the head rules ------------------------------------------------------------------------

/**
 * An operation that declares security gets credentials the policy accepts: of one of its
 * alternatives, every scheme's (OpenAPI's security requirement). Refused, the message is the
 * first refusal of a credential the request carried, else the first alternative's first; a 401 carries the challenge of every refused scheme, one
 * each (RFC 9110, section 11.6.1), so the client learns each way in. Where an alternative fails
 * only for scopes its accepted tokens lack, the answer is that 403 (RFC 6750, section 3.1).
 */
export const credentialsRule = headRule('credentials', (request, operation, settings) => {
  const { securedBy } = operation;
  if (securedBy.length === 0) return undefined;
  // The common case, one scheme (the bundled contract's bearer), judged with nothing gathered.
  if (securedBy.length === 1 && securedBy[0]?.length === 1) {
    const scheme = securedBy[0][0] as SchemeInUse;
    const judgement = scheme.type.judge(credentialAt(request, scheme.credential), policyOf(scheme, settings), scheme);
    return judgement.outcome === 'accepted' ? undefined : refusalOf(judgement, [scheme.type.challenge(judgement, scheme)]);
  }
  let first: CredentialRefusal | undefined;
  let forbidden: { refusal: CredentialRefusal; challenge: string } | undefined;
  const challenges: string[] = [];
  for (const alternative of securedBy) {
    let held = true;
    let otherwise = false;
    let scoped: typeof forbidden;
    for (const scheme of alternative) {
      const judgement = scheme.type.judge(credentialAt(request, scheme.credential), policyOf(scheme, settings), scheme);
      if (judgement.outcome === 'accepted') continue;
      held = false;
      // The message speaks of a credential the client did send and that is refused, if any: its scheme is the one it chose.
      if (first === undefined || RANK[judgement.outcome] < RANK[first.outcome]) first = judgement;
      const challenge = scheme.type.challenge(judgement, scheme);
      if (!challenges.includes(challenge)) challenges.push(challenge);
      if (judgement.outcome === 'insufficient_scope') scoped ??= { refusal: judgement, challenge };
      else otherwise = true;
    }
    if (held) return undefined;
    if (!otherwise) forbidden ??= scoped;
  }
  if (forbidden !== undefined) return refusalOf(forbidden.refusal, [forbidden.challenge]);
  return first && refusalOf(first, challenges);
});

/** Which refusal a 401's message names: a credential sent and refused, else one missing, else a scope lacking (never, for a 401: an alternative whose only refusals are scopes answers the 403). */
const RANK: Readonly<Record<CredentialRefusal['outcome'], number>> = { malformed: 0, rejected: 0, absent: 1, insufficient_scope: 2 };

/** The policy a scheme's credentials are judged by: the user's for it, else the server's tokens. */
function policyOf(scheme: SchemeInUse, settings: RuleSettings): CredentialPolicy {
  return settings.credentials?.get(scheme.name) ?? settings.accept;
}

/** The 401 (or, for scopes, 403) Error of a refusal, with its challenges in one WWW-Authenticate field. */
function refusalOf(refusal: CredentialRefusal, challenges: readonly string[]): PlantStoreError {
  return new PlantStoreError(refusal.outcome === 'insufficient_scope' ? 'insufficient_scope' : 'unauthorized', refusal.reason, { headers: { 'www-authenticate': challenges.join(', ') } });
}

/**
 * The request's media type must be one the operation declares; parameters (charset=utf-8 and
 * others) are allowed and type and subtype compare case-insensitively (RFC 9110, section 8.3.1).
 */
export const mediaTypeRule = headRule('media-type', (request, operation) => {
  const declared = operation.requestBody?.mediaTypes;
  if (declared === undefined) return undefined;
  const contentType = headerValue(request.headers, 'content-type');
  // An optional body may be left out, and then needs no media type.
  if (contentType === undefined && operation.requestBody?.required === false) return undefined;
  // The common case, a bare declared type, needs no parsing.
  if (contentType !== undefined && declared.includes(contentType)) return undefined;
  const expected = declared.join(' or ');
  if (contentType === undefined || contentType.trim() === '') return new PlantStoreError('unsupported_media_type', `content-type: missing; send ${expected}`);
  const essence = mediaTypeEssence(contentType);
  if (declared.some((type) => type.toLowerCase() === essence)) return undefined;
  // A declared range (`text/*`, `*` + `/*`) covers the types within it.
  if (operation.requestBody !== undefined && variantFor(operation.requestBody.variants, contentType) !== undefined) return undefined;
  return new PlantStoreError('unsupported_media_type', `content-type: ${truncate(contentType)} is not accepted; send ${expected}`);
});

/**
 * The kit decodes no content coding (RFC 9110, section 8.4): a body labelled gzip or br would
 * otherwise be read as if it were plain JSON. Where a server would answer 415, the kit answers
 * its 400 (docs/DESIGN.md, decision 6). `identity` is no coding at all.
 */
export const contentCodingRule = headRule('content-coding', (request, operation) => {
  const contentEncoding = operation.requestBody === undefined ? undefined : headerValue(request.headers, 'content-encoding');
  if (contentEncoding === undefined) return undefined;
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === 'identity' || coding === '')) return undefined;
  return new PlantStoreError('unsupported_encoding', `content-encoding: ${truncate(contentEncoding)} is not supported; send the body without a content coding`);
});

/** A body declared larger than the limit is refused before any of it is read. */
export const declaredLengthRule = headRule('declared-length', (request, operation, settings) => {
  if (operation.requestBody === undefined) return undefined;
  const contentLength = headerValue(request.headers, 'content-length');
  return contentLength !== undefined && Number(contentLength) > settings.maxBodyBytes ? tooLarge(settings.maxBodyBytes) : undefined;
});

/** The head rules, in order. */
export const HEAD_RULES: readonly HeadRule[] = [credentialsRule, mediaTypeRule, contentCodingRule, declaredLengthRule];

// ---- the body rules ------------------------------------------------------------------------

export function tooLarge(maxBytes: number): PlantStoreError {
  return new PlantStoreError('body_too_large', `body: larger than the limit of ${maxBytes} bytes`);
}

export const sizeRule = bodyRule('size', (body, _operation, settings) => (body.bytes.length > settings.maxBodyBytes ? tooLarge(settings.maxBodyBytes) : undefined));

/**
 * A body is required where the operation declares a required one, and refused where it declares
 * none (RFC 9110, section 9.3.1: content in a GET has no meaning the contract gives it).
 */
export const presenceRule = bodyRule('presence', (body, operation) => {
  if (operation.requestBody === undefined) return body.bytes.length === 0 ? undefined : new PlantStoreError('invalid_body', 'body: this operation takes no body');
  return body.bytes.length === 0 && operation.requestBody.required ? new PlantStoreError('invalid_body', 'body: is required') : undefined;
});

// The decoding rules are the steps of the request body's codec (src/openapi/media-types/), each
// named in a verdict and coded in its Error; a step the codec does not have lets the body through.

/** The codec of the request's body (its Content-Type's); the presence rule has refused a body where there is none. */
function codecOf(body: Body, operation: OperationContract): MediaTypeCodec | undefined {
  return body.variant?.codec ?? operation.requestBody?.codec;
}

/** A JSON text is UTF-8 (RFC 8259, section 8.1), decoded strictly: no replacement characters. */
export const utf8Rule = bodyRule('utf-8', (body, operation) => {
  const text = codecOf(body, operation)?.text?.(body.bytes);
  if (text instanceof Malformed) return new PlantStoreError('invalid_utf8', text.reason, { cause: text.cause });
  if (text !== undefined) body.text = text;
  return undefined;
});

/**
 * RFC 8259, section 8.1: a JSON text carries no byte order mark; a parser may ignore one, the
 * kit is strict and says so plainly (the parser's own message would show an invisible character).
 */
export const byteOrderMarkRule = bodyRule('byte-order-mark', (body, operation) => {
  const malformed = codecOf(body, operation)?.opening?.(body.text);
  return malformed && new PlantStoreError('malformed_json', malformed.reason);
});

/** Nesting past the limit is refused before it is parsed. */
export const nestingRule = bodyRule('nesting', (body, operation, settings) => {
  const malformed = codecOf(body, operation)?.nesting?.(body.text, settings.maxDepth);
  return malformed && new PlantStoreError('too_deep', malformed.reason);
});

/**
 * Lossless JSON (RFC 8259): numbers keep every digit, so an int64 id stays exact (decision 8). A
 * codec of fields (a form, multipart) is given the Content-Type and the fields to type them by.
 */
export const jsonRule = bodyRule('json', (body, operation, settings) => {
  const codec = codecOf(body, operation);
  if (codec === undefined) return undefined;
  const value = codec.fields === true ? codec.parse(body.text, { contentType: body.contentType, fields: body.variant?.fields ?? operation.requestBody?.fields, maxDepth: settings.maxDepth }) : codec.parse(body.text);
  if (value instanceof Malformed) return new PlantStoreError(codec.name === 'json' ? 'malformed_json' : 'malformed_body', value.reason, { cause: value.cause });
  body.value = value;
  return undefined;
});

/** The operation's request schema, as the contract's validator reads it (JSON Schema 2020-12). */
export const schemaRule = bodyRule('schema', (body, operation) => {
  // A variant of a type the kit cannot check (XML, bytes) has no validator: any body of it passes.
  const validation = body.variant === undefined ? operation.requestBody?.validate(body.value) : body.variant.validate?.(body.value);
  return validation === undefined || validation.valid ? undefined : new PlantStoreError('invalid_body', formatIssues(validation.issues));
});

/**
 * Where the request schema is of objects (`type: object`), what the answer is given is a JSON
 * object, whatever the schema's other keywords would allow; a body of another media variant, or of
 * a schema of arrays or scalars, is the answer's as it is.
 */
export const objectRule = bodyRule('object', (body, operation) => {
  const requestBody = operation.requestBody;
  if (requestBody?.objectsOnly !== true || (body.variant !== undefined && body.variant.schema !== requestBody.schema)) return undefined;
  return isJsonObject(body.value) ? undefined : new PlantStoreError('invalid_body', 'body: must be an object');
});

/** The body rules, in order. */
export const BODY_RULES: readonly BodyRule[] = [sizeRule, presenceRule, utf8Rule, byteOrderMarkRule, nestingRule, jsonRule, schemaRule, objectRule];

/** The rules for an empty body: where the operation takes none, or its body is optional, nothing else is read. */
export const EMPTY_BODY_RULES: readonly BodyRule[] = [presenceRule];

/** Whether a body of this length is absent, and allowed to be, for the operation (then the answer is given none). */
export function isAbsentBody(operation: OperationContract, length: number): boolean {
  return length === 0 && operation.requestBody?.required !== true;
}
