/**
 * The pact lint: every interaction of a pact file must stay inside the contract (openapi.yaml, or
 * the one `verify --contract` names) - its operations by path template, parameters and bodies - in
 * the manner of PactFlow's bi-directional contract testing (https://docs.pactflow.io/docs/bi-directional-contract-testing),
 * offline and with the kit's own validators (src/openapi). A pact's bodies hold the example
 * values of its matchers, so those examples are what is validated.
 *
 * Each finding names its rule; the rules return findings as data and the caller (a test, a
 * command) decides what to do with them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatIssues,
  isJsonObject,
  isParameterProblem,
  isLosslessNumber,
  loadContract,
  mediaTypeEssence,
  parseJson,
  type Contract,
  type JsonObject,
  type JsonValue,
  type OperationContract,
  variantFor,
} from '../src/openapi/index.js';
import { readVariantBody } from '../oracle/index.js';

export type PactRule =
  /** The pact file is readable and an HTTP pact. */
  | 'pact-format'
  /** The method and path are an operation of the contract (the path under one of its templates). */
  | 'operation-declared'
  /** The expected status is declared for the operation. */
  | 'status-declared'
  /** A request the contract rejects (a bad path, query or header parameter, invalid body, missing credentials, another media type) expects a declared 4xx. */
  | 'invalid-request-rejected'
  /** Credentials in a pact are matched by a rule, so no real token has to be written into it. */
  | 'credentials-matched'
  /** The response's media type is one the contract declares for that status. */
  | 'response-media-type'
  /** The response body (the matchers' examples) conforms to the declared schema. */
  | 'response-body';

export interface PactFinding {
  readonly file: string;
  /** The interaction's description, or '' for findings about the whole file. */
  readonly interaction: string;
  readonly rule: PactRule;
  readonly message: string;
}

interface HttpPart {
  /** Lower-case names; a header given as several values is joined with ', ' (RFC 9110, section 5.3). */
  readonly headers: ReadonlyMap<string, string>;
  /** Absent when the pact gives no body. */
  readonly body: { readonly contentType: string | undefined; readonly value: JsonValue } | undefined;
  readonly matchingRules: JsonObject;
}

interface HttpInteraction {
  readonly description: string;
  /** The path without a query; the query string (V2's text, or V3/V4's object written as one). */
  readonly request: HttpPart & { readonly method: string; readonly path: string; readonly query: string };
  readonly response: HttpPart & { readonly status: number };
}

/** Checks every interaction of one parsed pact against the contract. */
export function lintPact(pact: JsonValue, contract: Contract = loadContract(), file = '<pact>'): PactFinding[] {
  const findings: PactFinding[] = [];
  const fileFinding = (message: string): PactFinding[] => [{ file, interaction: '', rule: 'pact-format', message }];
  if (!isJsonObject(pact) || !Array.isArray(pact.interactions)) return fileFinding('not a pact: no interactions array');
  const version = specificationVersion(pact);
  for (const raw of pact.interactions) {
    const description = isJsonObject(raw) && typeof raw.description === 'string' ? raw.description : '(no description)';
    const add = (rule: PactRule, message: string): void => {
      findings.push({ file, interaction: description, rule, message });
    };
    const interaction = readInteraction(raw, version);
    if (typeof interaction === 'string') {
      add('pact-format', interaction);
      continue;
    }
    lintInteraction(interaction, contract, add);
  }
  return findings;
}

function lintInteraction(interaction: HttpInteraction, contract: Contract, add: (rule: PactRule, message: string) => void): void {
  const { request, response } = interaction;
  const operation = contract.findOperation(request.method, request.path);
  if (!operation) {
    add('operation-declared', `${request.method} ${request.path} is not an operation of ${contract.file}`);
    return;
  }
  const declared = operation.response(response.status);
  if (!declared) add('status-declared', `${response.status} is not declared for ${operation.method} ${operation.path} (declared: ${operation.declaredStatuses.join(', ')})`);

  const authorization = request.headers.get('authorization');
  if (authorization !== undefined && !hasHeaderRule(request.matchingRules, 'authorization')) {
    add('credentials-matched', 'the Authorization header is written literally; match it with a regex so that the provider sends its own token and no real token is in the pact');
  }

  const rejections = reasonsToReject(operation, request, contract.matchPath(request.path)?.values ?? {});
  if (rejections.length > 0 && !(declared && response.status >= 400 && response.status < 500)) {
    add('invalid-request-rejected', `the contract rejects this request (${rejections.join('; ')}), so it must expect a declared 4xx, not ${response.status}`);
  }

  if (!declared || !response.body) return;
  const mediaType = mediaTypeEssence(response.headers.get('content-type') ?? response.body.contentType);
  if (!declared.mediaTypes.includes(mediaType)) {
    add('response-media-type', `${mediaType || '(none)'} is not declared for ${response.status} (declared: ${declared.mediaTypes.join(', ') || 'no body'})`);
    return;
  }
  const validation = declared.validateBody?.(response.body.value);
  if (validation && !validation.valid) add('response-body', `the ${response.status} body does not match the declared schema: ${formatIssues(validation.issues)}`);
}

/** Why the contract rejects a request, if it does: every reason, so the finding explains itself. */
function reasonsToReject(operation: OperationContract, request: HttpInteraction['request'], pathValues: Readonly<Record<string, string>>): string[] {
  const reasons: string[] = [];
  // The path's templated segments, the query and the headers, read as the kit's servers read them (OpenAPI 3.1, section 4.8.12).
  const parsed = operation.parseParameters({ path: pathValues, query: request.query, headers: Object.fromEntries(request.headers) });
  if (isParameterProblem(parsed)) reasons.push(parsed.problem);
  const needsBearer = operation.security.length > 0 && operation.security.every((alternative) => alternative.some((s) => s.type === 'http' && s.scheme === 'bearer'));
  const credentials = request.headers.get('authorization') ?? '';
  // RFC 6750, section 2.1 (the scheme word is case-insensitive, RFC 9110, section 11.1).
  if (needsBearer && !/^bearer \S/i.test(credentials)) reasons.push(credentials === '' ? 'no credentials' : 'not bearer credentials');
  const requestBody = operation.requestBody;
  if (requestBody) {
    if (!request.body) {
      if (requestBody.required) reasons.push('no body');
    } else {
      const contentType = request.headers.get('content-type') ?? request.body.contentType;
      const mediaType = mediaTypeEssence(contentType);
      if (!requestBody.mediaTypes.includes(mediaType)) reasons.push(`media type ${mediaType || '(none)'}`);
      else reasons.push(...bodyReasons(operation, contentType, request.body.value));
    }
  }
  return reasons;
}

/** Why a request body of a declared media type is invalid: JSON as it is, other media (a form, text) read by their codec first. */
function bodyReasons(operation: OperationContract, contentType: string | undefined, value: JsonValue): string[] {
  const requestBody = operation.requestBody;
  const variant = requestBody === undefined ? undefined : variantFor(requestBody.variants, contentType);
  let read = value;
  if (variant !== undefined && variant.codec.name !== 'json' && typeof value === 'string') {
    const reading = readVariantBody(variant, contentType, Buffer.from(value, 'utf8'));
    if ('error' in reading) return [`the body is not valid: ${reading.error}`];
    if ('unread' in reading) return [];
    read = reading.value;
  }
  const validation = (variant?.validate ?? requestBody?.validate)?.(read);
  return validation === undefined || validation.valid ? [] : [`the body is not valid: ${formatIssues(validation.issues)}`];
}

/**
 * Whether a matchingRules object has a rule for the header `name` (lower case): V3 and V4 group
 * rules by category (`header.Authorization`), V2 keys them by path (`$.headers.Authorization`).
 */
function hasHeaderRule(rules: JsonObject, name: string): boolean {
  const grouped = rules.header;
  if (isJsonObject(grouped) && Object.keys(grouped).some((key) => key.toLowerCase() === name)) return true;
  return Object.keys(rules).some((key) => key.toLowerCase() === `$.headers.${name}`);
}

function specificationVersion(pact: JsonObject): number {
  const metadata = pact.metadata;
  const specification = isJsonObject(metadata) ? metadata.pactSpecification : undefined;
  const version = isJsonObject(specification) ? specification.version : undefined;
  return typeof version === 'string' ? Number.parseInt(version, 10) || 2 : 2;
}

/** One interaction in a common shape, from a V2, V3 or V4 pact; a string says why it cannot be read. */
function readInteraction(raw: JsonValue, version: number): HttpInteraction | string {
  if (!isJsonObject(raw)) return 'not an interaction object';
  if (version >= 4 && typeof raw.type === 'string' && raw.type !== 'Synchronous/HTTP') return `a ${raw.type} interaction; the contract describes HTTP only`;
  const { request, response } = raw;
  if (!isJsonObject(request) || !isJsonObject(response)) return 'no request or no response';
  if (typeof request.method !== 'string' || typeof request.path !== 'string') return 'the request has no method or path';
  const status = isLosslessNumber(response.status) ? Number(response.status.value) : NaN;
  if (!Number.isInteger(status)) return 'the response has no status';
  const [path = request.path, inPath = ''] = request.path.split(/\?(.*)/s, 2);
  try {
    return {
      description: typeof raw.description === 'string' ? raw.description : '',
      request: { method: request.method.toUpperCase(), path, query: readQuery(request.query) ?? inPath, ...readPart(request, version) },
      response: { status, ...readPart(response, version) },
    };
  } catch (error) {
    return (error as Error).message;
  }
}

/** A pact's query as a query string: V2 writes the text, V3 and V4 an object of value lists. */
function readQuery(query: JsonValue | undefined): string | undefined {
  if (typeof query === 'string') return query;
  if (!isJsonObject(query)) return undefined;
  const search = new URLSearchParams();
  for (const [name, values] of Object.entries(query)) for (const value of Array.isArray(values) ? values : [values]) if (typeof value === 'string') search.append(name, value);
  return search.toString();
}

function readPart(part: JsonObject, version: number): HttpPart {
  const headers = new Map<string, string>();
  if (isJsonObject(part.headers)) {
    for (const [name, value] of Object.entries(part.headers)) {
      const values = Array.isArray(value) ? value : [value];
      headers.set(name.toLowerCase(), values.filter((v): v is string => typeof v === 'string').join(', '));
    }
  }
  return { headers, body: readBody(part.body, version, headers.get('content-type')), matchingRules: isJsonObject(part.matchingRules) ? part.matchingRules : {} };
}

/**
 * V4 wraps a body as `{ content, contentType, encoded }`; V2 and V3 give it as is. JSON given as
 * text (`encoded: "json"` or a string body with a JSON media type) is parsed, losslessly.
 */
function readBody(body: JsonValue | undefined, version: number, contentTypeHeader: string | undefined): HttpPart['body'] {
  if (body === undefined || body === null) return undefined;
  let value: JsonValue = body;
  let contentType = contentTypeHeader;
  let encoded: JsonValue | undefined = false;
  if (version >= 4 && isJsonObject(body) && 'content' in body) {
    value = body.content ?? null;
    if (typeof body.contentType === 'string') contentType ??= body.contentType;
    encoded = body.encoded;
  }
  if (encoded === 'base64' && typeof value === 'string') value = Buffer.from(value, 'base64').toString('utf8');
  if (typeof value === 'string' && /[/+]json$/.test(mediaTypeEssence(contentType))) {
    try {
      value = parseJson(value);
    } catch {
      throw new Error(`the ${contentType ?? ''} body is not JSON`);
    }
  }
  return { contentType, value };
}

/** The pact files (*.json) at `path`: the file itself, or those directly in the directory. */
export function pactFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(path, name));
}

/** Checks pact files, read losslessly so that an int64 example keeps every digit. */
export function lintPactFiles(files: readonly string[], contract: Contract = loadContract()): PactFinding[] {
  return files.flatMap((file) => {
    let pact: JsonValue;
    try {
      pact = parseJson(readFileSync(file, 'utf8'));
    } catch (error) {
      return [{ file, interaction: '', rule: 'pact-format' as const, message: `not readable as JSON: ${(error as Error).message}` }];
    }
    return lintPact(pact, contract, file);
  });
}

/** Findings as lines a person can act on. */
export function formatFindings(findings: readonly PactFinding[]): string {
  return findings.map((f) => `${f.file}${f.interaction ? ` - ${f.interaction}` : ''}: [${f.rule}] ${f.message}`).join('\n');
}
