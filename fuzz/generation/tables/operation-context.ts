/**
 * What the kinds that send every operation are built from: the operation's parameters as the
 * contract declares them (path, query, header), valid values drawn from their schemas and written
 * as a request carries them - int64 digit for digit, never through a double - and a request of the
 * operation made from them, with a plain valid body only where the operation declares one.
 *
 * The contract judges every value: a parameter's text is valid when the operation's own reading of
 * a request (OperationContract.parseParameters, what the kit's pipeline runs) accepts it.
 */
import fc from 'fast-check';
import { isJsonObject, parseJson, serialiseParameter, type Contract, type OperationContract, type ParameterContract } from '../../../src/openapi/index.js';
import { writeJson, type JsonModel } from '../json-text.js';
import { SchemaArbitraries } from '../schema-arbitraries.js';
import type { Content, Profile, RequestCase } from '../../../oracle/index.js';
import type { AuthSpelling } from './credential-spellings.js';
import type { CredentialPlan, EngineCredentials } from './scheme-credentials.js';
import { canonicalText } from '../../../oracle/index.js';
import { otherMediaVariants, plainMediaBody } from './media-bodies.js';

/** A parameter's value as a request carries it: one text, or a list's items. */
export type ParameterText = string | readonly string[];

/** Parameter values by `in name` (parameterKey); a parameter left out is absent from the request. */
export type ParameterTexts = Readonly<Record<string, ParameterText>>;

export function parameterKey(parameter: ParameterContract): string {
  return `${parameter.in} ${parameter.name}`;
}

/** A model of a parameter's value as its text: a string as it is, anything else as its JSON text (a number's digits). */
export function modelText(model: JsonModel): ParameterText {
  if (model.kind === 'string') return model.value;
  if (model.kind === 'array') return model.items.map((item) => (item.kind === 'string' ? item.value : writeJson(item)));
  return writeJson(model);
}

/** A UTF-16 unit with no partner: not text percent-encoding can carry (encodeURIComponent throws). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How long a parameter's text may be, percent-encoded: RFC 9110, section 4.1 recommends that
 * recipients support request lines of 8000 octets at least; a longer one may get 414 or 431
 * whatever the contract says (sections 15.5.15, RFC 6585 section 5).
 */
const MAX_PARAMETER_OCTETS = 4000;

/** Text a request can carry in the parameter's place: a path segment that is not empty or a dot segment; a header field's visible ASCII (RFC 9110, section 5.5); within the length every recipient supports. */
export function carriable(parameter: ParameterContract, text: ParameterText): boolean {
  const items = typeof text === 'string' ? [text] : text;
  if (items.some((item) => LONE_SURROGATE.test(item))) return false;
  if (items.reduce((n, item) => n + encodeURIComponent(item).length + 1, 0) > MAX_PARAMETER_OCTETS) return false;
  if (parameter.in === 'path') return items.length > 0 && items.every((item) => item !== '' && item !== '.' && item !== '..');
  if (parameter.in === 'header') return items.every((item) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(item));
  return true;
}

/**
 * What the style writer is given for a parameter's text: an object-valued parameter's JSON text as
 * the object, so that its style writes its members (`color[R]=100`, `R=100,G=200`); any other
 * text (a probe that is not an object) as it is.
 */
function styledValue(parameter: ParameterContract, text: ParameterText): unknown {
  if (parameter.shape !== 'object' || parameter.reading !== 'style' || typeof text !== 'string' || !text.startsWith('{')) return text;
  try {
    const value = parseJson(text);
    return isJsonObject(value) ? value : text;
  } catch {
    return text;
  }
}

/**
 * The request target and header fields of the operation with these parameter values, each written
 * in its style by the kit's one writer (serialiseParameter; cookies as one Cookie field), and the
 * path segments as the operation reads them. An object-valued parameter's value is its JSON text
 * here, written member by member in its style (styledValue).
 */
export function requestTarget(operation: OperationContract, values: ParameterTexts): { path: string; query: string; headers: Record<string, string>; segments: Record<string, string> } {
  let path = operation.path;
  const query: string[] = [];
  const cookies: string[] = [];
  const headers: Record<string, string> = {};
  const segments: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const text = values[parameterKey(parameter)];
    if (text === undefined) continue;
    const serialised = serialiseParameter(parameter, styledValue(parameter, text));
    const written = 'text' in serialised ? serialised.text : serialised.parts;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, (segments[parameter.name] = String(written)));
    else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = String(written);
    else (parameter.in === 'cookie' ? cookies : query).push(...(typeof written === 'string' ? [written] : written));
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return { path, query: query.join('&'), headers, segments };
}

/** Whether the operation reads these values as valid parameters: the contract's own judgement. */
export function parametersValid(operation: OperationContract, values: ParameterTexts): boolean {
  const target = requestTarget(operation, values);
  return !('problem' in operation.parseParameters({ path: target.segments, query: target.query, headers: target.headers }));
}

/** The plain values of the operation's required parameters (and of none other), each in its canonical spelling (oracle/parameter-spellings.ts): different for each `n` where the schema allows. */
export function plainParameters(schemas: SchemaArbitraries, operation: OperationContract, n: number): ParameterTexts {
  const values: Record<string, ParameterText> = {};
  for (const parameter of operation.parameters) if (parameter.required) values[parameterKey(parameter)] = canonicalText(parameter, modelText(schemas.plain(parameter.schema, n)));
  return values;
}

/**
 * Valid values of the operation's parameters, each optional one present or not, drawn from their
 * schemas, each in its canonical spelling: a body's `1e2` is an integer, a parameter's is a probe (oracle/parameter-spellings.ts).
 */
export function parametersArbitrary(schemas: SchemaArbitraries, operation: OperationContract): fc.Arbitrary<ParameterTexts> {
  // Values the schemas' generators cannot make valid (a pattern and a format that disagree, a
  // keyword they do not read) give way to the plain values: a filter would spin on them for ever.
  const fallback = plainParameters(schemas, operation, 0);
  const entries = operation.parameters.map((parameter) => {
    const value = schemas
      .valid(parameter.schema)
      .map((model) => canonicalText(parameter, modelText(model)))
      .filter((text) => carriable(parameter, text));
    return [parameterKey(parameter), parameter.required ? value : fc.option(value, { nil: undefined })] as const;
  });
  return fc
    .record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<ParameterText | undefined>>)
    .map((record) => Object.fromEntries(Object.entries(record).filter((entry): entry is [string, ParameterText] => entry[1] !== undefined)))
    .map((values) => (parametersValid(operation, values) ? values : fallback));
}

/** What a request of the operation is, besides its parameters. */
export interface OperationSpec {
  readonly kind: string;
  readonly variant: string;
  readonly content: Content;
  readonly auth: AuthSpelling;
  readonly values: ParameterTexts;
  /** Another method than the operation's (an undeclared one, HEAD for a GET). */
  readonly method?: string;
  /** The body's number: a plain valid body where the operation declares one (different for each n). */
  readonly n?: number;
  readonly tags?: readonly string[];
  readonly setup?: readonly RequestCase[];
  /** Why the contract leaves the request's acceptance to the server (RequestCase.open): a parameter's other spelling. */
  readonly open?: string;
  /** The body and its Content-Type, where not the plain one (a form, a multipart upload: tables/media-bodies.ts). */
  readonly body?: { readonly contentType: string; readonly bytes: Uint8Array };
}

export interface OperationContext {
  readonly contract: Contract;
  readonly operation: OperationContract;
  readonly profile: Profile;
  readonly token: string;
  readonly schemas: SchemaArbitraries;
  /** The scheme word of the operation's bearer scheme, or undefined when the contract opens it. */
  readonly scheme: string | undefined;
  /** How its requests carry credentials (scheme-credentials.ts). */
  readonly plan: CredentialPlan;
  readonly validAuth: AuthSpelling;
  /** The run's credentials per scheme, for the requests of other operations a kind sends first (a create before a HEAD). */
  readonly credentials?: EngineCredentials;
  readonly parameters: fc.Arbitrary<ParameterTexts>;
  plainParameters(n: number): ParameterTexts;
  make(spec: OperationSpec): RequestCase;
}

/**
 * The Accept a request of the operation carries: application/json, unless its success answers
 * declare content and none of it is JSON (an image, text), when it names their first type - so
 * that the request asks for an answer the operation can give (RFC 9110, section 12.5.1).
 */
function acceptOf(operation: OperationContract): string {
  const types = operation.responses.filter((r) => /^2(\d\d|XX)$/i.test(r.status)).flatMap((r) => r.mediaTypes);
  const json = types.length === 0 || types.some((t) => t.includes('*') || /^application\/([^;]*\+)?json\b/i.test(t.trim()));
  return json ? 'application/json' : (types[0] ?? 'application/json');
}

/** The plain body of the operation's first media type other than JSON that the kit writes; undefined where it has none. */
function plainOther(schemas: SchemaArbitraries, operation: OperationContract, n: number): { contentType: string; bytes: Uint8Array } | undefined {
  const variant = otherMediaVariants(operation)[0];
  return variant === undefined ? undefined : plainMediaBody(schemas, variant, n);
}

export function operationContext(
  contract: Contract,
  operation: OperationContract,
  options: { token: string; profile: Profile; scheme: string | undefined; validAuth: AuthSpelling; plan: CredentialPlan; credentials?: EngineCredentials | undefined },
): OperationContext {
  const schemas = new SchemaArbitraries(contract);
  const requestBody = operation.requestBody;
  const jsonType = requestBody?.mediaTypes.find((t) => /^application\/json$/i.test(t));
  const accept = acceptOf(operation);
  const make = (spec: OperationSpec): RequestCase => {
    const target = requestTarget(operation, spec.values);
    const headers: Record<string, string> = { accept, ...target.headers, ...options.credentials?.headers };
    const withBody = requestBody !== undefined && jsonType !== undefined && spec.method === undefined;
    if (spec.auth.header !== undefined) headers.authorization = spec.auth.header;
    if (withBody) headers['content-type'] = jsonType;
    for (const [name, value] of Object.entries(spec.auth.fields ?? {})) headers[name] = name === 'cookie' && headers.cookie !== undefined ? `${headers.cookie}; ${value}` : value;
    const query = [target.query, spec.auth.query].filter((q): q is string => q !== undefined && q !== '').join('&');
    let body: Uint8Array = withBody ? Buffer.from(writeJson(schemas.plain(requestBody.schema, spec.n ?? 0)), 'utf8') : new Uint8Array(0);
    // An operation whose body is not JSON (a form, a multipart upload) gets its first other media type's plain body.
    const other = spec.body ?? (requestBody !== undefined && jsonType === undefined && spec.method === undefined ? plainOther(schemas, operation, spec.n ?? 0) : undefined);
    if (other !== undefined) {
      headers['content-type'] = other.contentType;
      body = other.bytes;
    }
    return {
      method: spec.method ?? operation.method,
      path: query === '' ? target.path : `${target.path}?${query}`,
      headers,
      body,
      kind: spec.kind,
      variant: spec.variant,
      content: spec.content,
      credentials: spec.auth.credentials,
      setup: spec.setup ?? [],
      // A spelling of credentials the RFCs leave open leaves only its refusal open (as caseMaker, context.ts).
      ...(spec.auth.lenient === undefined ? {} : { lenient: spec.auth.lenient, lenientAbout: 'refusal' as const }),
      ...(spec.auth.moreHeaders === undefined ? {} : { extraLines: spec.auth.moreHeaders.map((value) => ['authorization', value] as const) }),
      ...(spec.auth.derived === undefined ? {} : { derived: spec.auth.derived }),
      ...(spec.auth.attacked === undefined ? {} : { attacked: spec.auth.attacked }),
      ...(spec.tags === undefined || spec.tags.length === 0 ? {} : { tags: [...new Set(spec.tags)] }),
      ...(spec.open === undefined ? {} : { open: { reason: spec.open, readings: [body] } }),
    };
  };
  return {
    contract,
    operation,
    profile: options.profile,
    token: options.token,
    schemas,
    scheme: options.scheme,
    plan: options.plan,
    validAuth: options.validAuth,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    parameters: parametersArbitrary(schemas, operation),
    plainParameters: (n) => plainParameters(schemas, operation, n),
    make,
  };
}
