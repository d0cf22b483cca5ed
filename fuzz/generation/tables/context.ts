/**
 * What every request kind is built from: the operation and its request body as the contract
 * declares them, the credentials the target accepts, and the generators the kinds share (valid
 * bodies, layouts, media type spellings, valid credentials). Everything comes from the contract:
 * the body from the request schema's resolved shape, the media types from the request body's
 * content, the credentials from the operation's security scheme, the path and method from the
 * operation.
 */
import fc from 'fast-check';
import type { Contract, ObjectShape, OperationContract, RequestBodyContract } from '../../../src/openapi/index.js';
import { codePointsOf, integerKeyProperties, type Content, type Profile, type RequestCase } from '../../../oracle/index.js';
import { LAYOUTS, writeJson, type JsonModel, type Layout } from '../json-text.js';
import { SchemaArbitraries } from '../schema-arbitraries.js';
import type { Writable } from '../../writable.js';
import { credentialSpellings, type AuthSpelling } from './credential-spellings.js';
import { extrasArbitrary, NO_EXTRAS, type RequestExtras } from './extras.js';
import { alternativeSpellings, credentialPlan, NO_CREDENTIALS, validSpelling, type CredentialPlan, type EngineCredentials } from './scheme-credentials.js';
import { plainParameters, requestTarget } from './operation-context.js';

export interface CaseSpec {
  readonly kind: string;
  readonly variant: string;
  readonly content: Content;
  readonly auth: AuthSpelling;
  /** The Content-Type header; undefined for none. */
  readonly contentType: string | undefined;
  readonly body: Uint8Array;
  readonly setup?: readonly RequestCase[];
  readonly lenient?: string | undefined;
  /** What `lenient` leaves open (see RequestCase.lenientAbout); a leniency of the credentials is always about refusal. */
  readonly lenientAbout?: 'refusal' | 'target' | undefined;
  /** Headers, query string and a note from a valid request's extras (Accept, Accept-Encoding...). */
  readonly extras?: RequestExtras;
  /** The variants it was drawn from (see RequestCase.tags). */
  readonly tags?: readonly string[];
}

export interface KindContext {
  readonly contract: Contract;
  readonly operation: OperationContract;
  readonly profile: Profile;
  /** The bearer token the target accepts (under the mock profile, any well-formed one). */
  readonly token: string;
  readonly schemas: SchemaArbitraries;
  readonly requestBody: RequestBodyContract;
  readonly shape: ObjectShape;
  /** Whether the request body is a JSON object (so non-objects are invalid). */
  readonly isObject: boolean;
  /** The path and query string with the required parameters' plain values (the header parameters' go in every request's fields). */
  readonly path: string;
  /** The scheme word of the operation's bearer scheme (`Bearer`), or undefined when it needs none or is planned per scheme (`plan`). */
  readonly scheme: string | undefined;
  /** How the operation's requests carry credentials (scheme-credentials.ts): the attacks of a plan of kind `schemes` are per scheme. */
  readonly plan: CredentialPlan;
  /** The request body's declared JSON media types (`application/json`). */
  readonly jsonTypes: readonly string[];
  /** The request body's properties the contract types as integer (`id`): the integer key (the oracle's integerKeyProperties). */
  readonly integerKeys: readonly string[];
  /** Valid request bodies. */
  readonly body: fc.Arbitrary<JsonModel>;
  /** Whitespace between tokens, compact most of the time. */
  readonly layout: fc.Arbitrary<Layout>;
  /** Every spelling of a declared JSON media type a server must accept. */
  readonly mediaType: fc.Arbitrary<string>;
  /** Valid credentials in every spelling a server must accept. */
  readonly goodAuth: fc.Arbitrary<AuthSpelling>;
  /** Every other spelling of valid credentials a server must accept (the credential table's `accept` rows), the lenient ones included. */
  readonly acceptedAuth: readonly AuthSpelling[];
  /** Valid credentials as most clients write them. */
  readonly validAuth: AuthSpelling;
  /** Headers and query strings a valid request may carry besides its credentials and media type. */
  readonly extras: fc.Arbitrary<RequestExtras>;
  /** A request of the operation. */
  make(spec: CaseSpec): RequestCase;
  /** The JSON text of a model, as bytes. */
  text(model: JsonModel, layout?: Layout): Uint8Array;
  /**
   * A valid body that differs from every other `plainBody(n)` in its integer properties (so that
   * deterministic requests never share an id), built from the request schema alone.
   */
  plainBody(n: number): JsonModel;
}

export interface ContextOptions {
  readonly token: string;
  readonly profile?: Profile;
  /** Credentials per scheme and plain header fields (scheme-credentials.ts); none by default. */
  readonly credentials?: EngineCredentials | undefined;
}

/** RFC 9110, section 11.1: the auth scheme is case-insensitive. The same word in the letter cases a client may send. */
export function caseSpellings(word: string): string[] {
  const lower = word.toLowerCase();
  const capitalised = lower.charAt(0).toUpperCase() + lower.slice(1);
  const alternating = codePointsOf(lower)
    .map((c, i) => (i % 2 === 0 ? c : c.toUpperCase()))
    .join('');
  return [...new Set([capitalised, lower, lower.toUpperCase(), alternating])];
}

/**
 * Media types a server must accept for a declared one (RFC 9110, section 8.3.1: type and subtype
 * are case-insensitive; parameters such as charset may follow, with optional whitespace).
 */
export function mediaTypeSpellings(declared: string): string[] {
  const capitalised = declared.replace(/(^|\/)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
  return [...new Set([declared, `${declared}; charset=utf-8`, `${declared};charset=UTF-8`, declared.toUpperCase(), `${capitalised}; Charset=utf-8`, `${declared} ; charset=utf-8`])];
}

/**
 * The operation's target with its required parameters' plain values (operation-context.ts): the
 * path and query string, and the header fields. The body's kinds vary the body, not the parameters
 * (the operation kinds drop and break those), so each of their requests carries these.
 */
function plainTarget(contract: Contract, operation: OperationContract): { path: string; headers: Readonly<Record<string, string>> } {
  const target = requestTarget(operation, plainParameters(new SchemaArbitraries(contract), operation, 0));
  return { path: target.query === '' ? target.path : `${target.path}?${target.query}`, headers: target.headers };
}

/** The bearer scheme word of a plan: `Bearer` for the historical single HTTP bearer scheme, else undefined (open, or per scheme). */
export function bearerScheme(plan: CredentialPlan): string | undefined {
  return plan.kind === 'bearer' ? 'Bearer' : undefined;
}

/** The valid credentials of a plan as most clients write them (none for an operation the contract opens or one out of reach). */
export function planAuth(plan: CredentialPlan, token: string): AuthSpelling {
  return plan.kind === 'schemes' ? validSpelling(plan.parts) : validAuthOf(bearerScheme(plan), token);
}

/** The plan, the bearer scheme word and the valid credentials of an operation for a run. */
export function operationAuth(operation: OperationContract, options: ContextOptions): { plan: CredentialPlan; scheme: string | undefined; validAuth: AuthSpelling } {
  const plan = credentialPlan(operation, options.token, options.credentials ?? NO_CREDENTIALS, options.profile ?? 'reference');
  return { plan, scheme: bearerScheme(plan), validAuth: planAuth(plan, options.token) };
}

/** The credentials' header fields set on a request's (Authorization, an API key's header, its cookie after any other). */
export function setCredentialFields(headers: Record<string, string>, auth: AuthSpelling): void {
  if (auth.header !== undefined) headers.authorization = auth.header;
  for (const [name, value] of Object.entries(auth.fields ?? {})) headers[name] = name === 'cookie' && headers.cookie !== undefined ? `${headers.cookie}; ${value}` : value;
}

/** How a request of the operation is made from a kind's spec: the default Accept, the header parameters, the extras, the credentials, the tags. */
function caseMaker(operation: OperationContract, target: { path: string; headers: Readonly<Record<string, string>> }, credentials: EngineCredentials | undefined): (spec: CaseSpec) => RequestCase {
  const path = target.path;
  return (spec) => {
    const extras = spec.extras ?? NO_EXTRAS;
    const headers: Record<string, string> = { accept: 'application/json', ...target.headers, ...credentials?.headers };
    // An extra header of null takes a default one away (a request without Accept).
    for (const [name, value] of Object.entries(extras.headers)) {
      if (value === null) Reflect.deleteProperty(headers, name);
      else headers[name] = value;
    }
    if (spec.contentType !== undefined) headers['content-type'] = spec.contentType;
    setCredentialFields(headers, spec.auth);
    const lenient = spec.lenient ?? spec.auth.lenient;
    const lenientAbout = spec.lenient !== undefined ? spec.lenientAbout : spec.auth.lenient !== undefined ? 'refusal' : undefined;
    const query = [spec.auth.query, extras.query].filter((q): q is string => q !== undefined && q !== '').join('&');
    const made: Writable<RequestCase> = {
      method: operation.method,
      path: query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`,
      headers,
      body: spec.body,
      kind: spec.kind,
      variant: spec.variant,
      content: spec.content,
      credentials: spec.auth.credentials,
      setup: spec.setup ?? [],
    };
    if (lenient !== undefined) made.lenient = lenient;
    if (lenient !== undefined && lenientAbout !== undefined) made.lenientAbout = lenientAbout;
    return withCredentialsAndTags(made, spec);
  };
}

/** A case with the further fields of its credentials and its tags, where it has them. */
function withCredentialsAndTags(made: Writable<RequestCase>, spec: CaseSpec): RequestCase {
  if (spec.auth.moreHeaders !== undefined) made.extraLines = spec.auth.moreHeaders.map((value) => ['authorization', value] as const);
  if (spec.auth.derived !== undefined) made.derived = spec.auth.derived;
  if (spec.auth.attacked !== undefined) made.attacked = spec.auth.attacked;
  if (spec.tags !== undefined && spec.tags.length > 0) made.tags = [...new Set(spec.tags)];
  return made;
}

/** Valid credentials as most clients write them (none for an operation the contract opens). */
export function validAuthOf(scheme: string | undefined, token: string): AuthSpelling {
  return scheme === undefined ? { header: undefined, credentials: 'valid', shown: '' } : { header: `${scheme} ${token}`, credentials: 'valid', shown: `Authorization: ${scheme} <token>` };
}

export function kindContext(contract: Contract, operation: OperationContract, options: ContextOptions): KindContext {
  const requestBody = operation.requestBody;
  if (!requestBody) throw new Error(`${operation.operationId}: the generators need an operation with a JSON request body`);
  const profile = options.profile ?? 'reference';
  const schemas = new SchemaArbitraries(contract);
  const shape = requestBody.shape;
  const isObject = contract.resolve(requestBody.schema).type === 'object' || shape.properties.size > 0;
  const target = plainTarget(contract, operation);
  const { plan, scheme, validAuth } = operationAuth(operation, options);
  const jsonTypes = requestBody.mediaTypes.filter((t) => /^application\/json$/i.test(t));
  if (jsonTypes.length === 0) throw new Error(`${operation.operationId}: the request body declares no application/json content`);
  const integerKeys = integerKeyProperties(contract, operation);

  const acceptedAuth = scheme === undefined ? alternativeSpellings(plan) : credentialSpellings('accept', scheme, options.token, profile);
  // Spellings a request of any kind may carry: none the RFCs leave open, so that the request's
  // `lenient` stays about its body.
  const strict = acceptedAuth.filter((auth) => auth.lenient === undefined);
  const goodAuth: fc.Arbitrary<AuthSpelling> =
    strict.length === 0 ? fc.constant(validAuth) : fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant(validAuth) }, { weight: 1, arbitrary: fc.constantFrom(...strict) });

  const make = caseMaker(operation, target, options.credentials);

  return {
    contract,
    operation,
    profile,
    token: options.token,
    schemas,
    requestBody,
    shape,
    isObject,
    path: target.path,
    scheme,
    plan,
    jsonTypes,
    integerKeys,
    body: schemas.valid(requestBody.schema),
    layout: fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant<Layout>('compact') }, { weight: 1, arbitrary: fc.constantFrom(...LAYOUTS.slice(1)) }),
    mediaType: fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constantFrom(...jsonTypes) }, { weight: 2, arbitrary: fc.constantFrom(...jsonTypes.flatMap(mediaTypeSpellings)) }),
    goodAuth,
    acceptedAuth,
    validAuth,
    extras: extrasArbitrary(),
    make,
    text: (model, layout = 'compact') => Buffer.from(writeJson(model, layout), 'utf8'),
    plainBody: (n) => schemas.plain(requestBody.schema, n),
  };
}
