/** Helpers the checks share: reading bodies strictly, naming things in messages, comparing JSON values exactly. */
import { exactInteger, isJsonObject, isLosslessNumber, parseJson, type Contract, type JsonObject, type JsonValue, type OperationContract, type Schema } from '../src/openapi/index.js';
import type { ExtraBytes, HttpOutcome, HttpRequest, NeighbourRequest, RequestCase } from './types.js';

/** A string's code points (not UTF-16 units: an astral character is one). */
export function codePointsOf(value: string): string[] {
  return Array.from(value);
}

export type Response = Extract<HttpOutcome, { kind: 'response' }>;

/** Strict UTF-8 that drops one leading byte order mark (ignoreBOM: false, the WHATWG default). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The media type without parameters, lower case (RFC 9110, section 8.3.1). */
export function essence(contentType: string | undefined): string {
  return (contentType?.split(';', 1)[0] ?? '').trim().toLowerCase();
}

const decoded = new WeakMap<Uint8Array, { value: JsonValue } | { error: string }>();

/**
 * A body as JSON, strictly (UTF-8, RFC 8259), parsed once per body however many checks ask. A
 * leading byte order mark is skipped, as RFC 8259, section 8.1 lets a parser do: sending one is a
 * finding of its own (the hygiene checks), not a reason to misread the body.
 */
export function decodeJson(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let result = decoded.get(bytes);
  if (!result) {
    result = decodeJsonOnce(bytes);
    decoded.set(bytes, result);
  }
  return result;
}

function decodeJsonOnce(bytes: Uint8Array): { value: JsonValue } | { error: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'not valid UTF-8' };
  }
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

const operations = new WeakMap<HttpRequest, { readonly contract: Contract; readonly operation: OperationContract | undefined }>();

/** The operation a request is for, ignoring its query string; found once per request and contract however many checks ask. */
export function operationOf(contract: Contract, request: HttpRequest): OperationContract | undefined {
  const known = operations.get(request);
  if (known?.contract === contract) return known.operation;
  const operation = contract.findOperation(request.method, request.path.split('?', 1)[0] ?? request.path);
  operations.set(request, { contract, operation });
  return operation;
}

/** resourceKeyProperties of each operation, derived once (every request the run keys asks). */
const keyProperties = new WeakMap<OperationContract, { readonly contract: Contract; readonly keys: readonly string[] }>();

/**
 * The properties of an operation's request body that make its resource key: those the contract
 * types as integer (the ids). The one place "the resource key is the integer properties" is
 * derived: the generators repeat a key (a repeated id, the capacity phase's replacements), the run
 * keeps two requests with the same key out of flight together (resourceKey), and `echo` forgives
 * an answer that carries another request's values for the same resource. An operation without a
 * request body has none.
 */
export function resourceKeyProperties(contract: Contract, operation: OperationContract | undefined): string[] {
  if (operation === undefined) return [];
  const known = keyProperties.get(operation);
  if (known?.contract === contract) return [...known.keys];
  const properties = operation.requestBody === undefined ? [] : [...operation.requestBody.shape.properties];
  const keys = properties.filter(([, schema]) => contract.resolve(schema).type === 'integer').map(([key]) => key);
  keyProperties.set(operation, { contract, keys });
  return [...keys];
}

/**
 * The resource a request writes, as text to compare: its path without the query string and the
 * exact integers of its body's key properties (1e2 is 100); undefined when its body is no JSON
 * object or holds none of them as a number.
 */
export function resourceKey(contract: Contract, request: HttpRequest): string | undefined {
  const keys = resourceKeyProperties(contract, operationOf(contract, request));
  if (keys.length === 0) return undefined;
  const parsed = decodeJson(request.body);
  if (!('value' in parsed) || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  const parts = keys.map((key) => {
    const v = value[key];
    return isLosslessNumber(v) ? String(exactInteger(v) ?? v.value) : '';
  });
  return parts.every((part) => part === '') ? undefined : `${request.path.split('?', 1)[0] ?? ''} ${parts.join(' ')}`;
}

/** The start of a body, for messages. */
export function excerpt(bytes: Uint8Array, max = 200): string {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.length === 0) return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
}

export function schemaName(schema: Schema | undefined): string {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? (/[^/]+$/.exec(ref)?.[0] ?? 'schema') : 'the declared schema';
}

/** A 5xx, or no response at all: `no-server-error`'s business, so the other checks stay quiet about it. */
export function isServerError(outcome: HttpOutcome): boolean {
  return outcome.kind === 'failure' || outcome.status >= 500;
}

export function describeRequest(request: RequestCase): string {
  return request.variant ? `${request.kind} request (${request.variant})` : `${request.kind} request`;
}

/** The declared 2xx statuses of an operation; 200 (rule 1) when none is declared. */
export function successStatuses(operation: OperationContract | undefined): number[] {
  const declared = operation?.declaredStatuses.filter((s) => s >= 200 && s < 300) ?? [];
  return declared.length > 0 ? declared : [200];
}

/** Whether the status is a 4xx the operation declares (exactly or by a 4XX range; `default` does not count). */
export function isDeclared4xx(operation: OperationContract | undefined, status: number): boolean {
  const declared = operation?.response(status);
  return status >= 400 && status < 500 && declared !== undefined && declared.status !== 'default';
}

/** A `WWW-Authenticate` value with a challenge for `scheme` (RFC 9110, section 11.6.1; several challenges may be listed). */
export function challenges(header: string | undefined, scheme: string): boolean {
  return header !== undefined && challengeSchemes(header).some((s) => s.toLowerCase() === scheme.toLowerCase());
}

/**
 * The schemes of the challenges a `WWW-Authenticate` value lists, in order (RFC 9110, section
 * 11.6.1: `#challenge`, each `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`). The list is split
 * at commas outside quoted strings; an element that starts with `name=` is a parameter of the
 * challenge before it, any other starts a challenge with its first word. Repeated header lines
 * arrive joined with `, ` (RFC 9110, section 5.3), so they read as one list.
 */
export function challengeSchemes(header: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header.charAt(i);
    if (quoted && c === '\\') {
      current += c + header.charAt(i + 1);
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === ',' && !quoted) {
      elements.push(current);
      current = '';
    } else current += c;
  }
  elements.push(current);
  return elements.flatMap((element) => {
    const text = element.trim();
    if (text === '' || /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(text)) return [];
    const scheme = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?=[ \t]|$)/.exec(text)?.[0];
    return scheme === undefined ? [] : [scheme];
  });
}

export function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const points = codePointsOf(value);
    return points.length > 60 ? `a string of ${points.length} characters starting ${JSON.stringify(points.slice(0, 40).join(''))}` : JSON.stringify(value);
  }
  if (isLosslessNumber(value)) return value.value;
  const text = JSON.stringify(value, (_k, v: unknown) => (isLosslessNumber(v) ? v.value : v));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Where two strings first differ, by code point: enough to see truncation or a mangled astral character. */
export function firstDifference(sent: string, got: string): string {
  const a = codePointsOf(sent);
  const b = codePointsOf(got);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const hex = (c: string | undefined): string => (c === undefined ? 'the end' : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return ` (${a.length} vs ${b.length} code points; first difference at ${i}: sent ${hex(a[i])}, got ${hex(b[i])})`;
}

/**
 * Whether `got` is `sent` (RFC 8259 values): strings code point for code point, integers as exact
 * integers whatever their spelling (1e2 is 100), and an integer may come back as the string of its
 * decimal digits (a common way to keep int64 exact for JavaScript clients) - but never rounded.
 */
export function sameJson(sent: JsonValue, got: JsonValue | undefined): boolean {
  if (got === undefined) return false;
  if (isLosslessNumber(sent)) {
    const integer = exactInteger(sent);
    if (integer !== undefined) {
      if (typeof got === 'string') return got === integer.toString();
      return isLosslessNumber(got) && exactInteger(got) === integer;
    }
    return isLosslessNumber(got) && Number(got.value) === Number(sent.value);
  }
  if (typeof sent !== 'object' || sent === null) return sent === got;
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((item, i) => sameJson(item, got[i]));
  if (!isJsonObject(got)) return false;
  const keys = Object.keys(sent);
  return keys.length === Object.keys(got).length && keys.every((k) => Object.hasOwn(got, k) && sameJson(sent[k] as JsonValue, got[k]));
}

/** A JSON media type: application/json or any `+json` suffix (RFC 6839, section 3.1). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = essence(contentType);
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** A parameter of a media type, its name case-insensitive, a quoted-string unquoted (RFC 9110, sections 5.6.6 and 8.3.1). */
export function mediaTypeParameter(contentType: string | undefined, name: string): string | undefined {
  const parameters = /;(.*)$/s.exec(contentType ?? '')?.[1] ?? '';
  const pattern = /\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)\s*(?:;|$)/g;
  for (const match of parameters.matchAll(pattern)) {
    const [, key = '', raw = ''] = match;
    if (key.toLowerCase() === name.toLowerCase()) return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return undefined;
}

/** Whether the client could not undo the answer's coding: its body is then not what the checks of content can read. */
export function bodyUnreadable(outcome: HttpOutcome): boolean {
  return outcome.kind === 'response' && outcome.wire?.undecodable !== undefined;
}

/** Whether bytes begin an HTTP/1.x status line: a second answer rather than the rest of a body. */
export function startsAnAnswer(extra: ExtraBytes): boolean {
  return Buffer.from(extra.bytes.subarray(0, 5)).toString('latin1') === 'HTTP/';
}

/**
 * Whether an answer's body, as its framing delimits it, is a complete JSON text that ends itself
 * (an object, an array or a string: nothing after its last byte can belong to it). Bytes that
 * follow such a body were not cut off from it by a Content-Length too short: they are stray bytes
 * after a complete answer (a second answer without a head - Python's http.server answers a request
 * line it cannot read so - or garbage), `one-answer-per-request`'s finding, not `content-length`'s.
 */
export function endsItself(outcome: HttpOutcome): boolean {
  if (outcome.kind !== 'response' || !isJsonMediaType(outcome.headers['content-type'])) return false;
  const parsed = decodeJson(outcome.body);
  return 'value' in parsed && (typeof parsed.value === 'string' || Array.isArray(parsed.value) || isJsonObject(parsed.value));
}

/** When extra bytes came after the answer, for messages: `at once`, `42.5 ms later, while the kept-alive connection was idle`. */
export function whenExtra(extra: ExtraBytes): string {
  if (extra.seen === 'before-next') return 'found when the connection carried its next request';
  const later = extra.afterMs < 1 ? 'at once' : `${extra.afterMs.toFixed(1)} ms later`;
  return extra.seen === 'idle' ? `${later}, while the kept-alive connection was idle` : later;
}

/**
 * A failed exchange whose answer stopped short of its Content-Length although what came is a
 * complete JSON text: the declared length, not the body, is wrong (`content-length`'s finding,
 * not a crash of the target).
 */
export function stopsShortOfItsLength(outcome: HttpOutcome): boolean {
  if (outcome.kind !== 'failure' || outcome.partial === undefined) return false;
  const { contentLength, body, framing } = outcome.partial;
  return framing === 'content-length' && contentLength !== undefined && body.length > 0 && body.length < contentLength && 'value' in decodeJson(body);
}

/** One property a success answer does not carry as the request sent it. */
export interface EchoDifference {
  readonly key: string;
  /** Undefined: the request did not send it. */
  readonly sent: JsonValue | undefined;
  /** Undefined: the answer does not have it. */
  readonly got: JsonValue | undefined;
}

/**
 * How a success answer differs from the request's body, property by property, derived from the
 * schemas: a property the request sent must come back exactly where the response schema declares
 * it (and where the answer has it otherwise, e.g. an id); a property the response schema declares
 * that the request could carry but did not must be absent (a plant is stored as sent, and a
 * repeated id replaces it - decision 2 - rather than merging). Properties the request schema does
 * not have are the server's to add. Undefined when either body is not a JSON object.
 */
export function echoDifferences(contract: Contract, request: HttpRequest, outcome: Response): EchoDifference[] | undefined {
  const operation = operationOf(contract, request);
  const requestShape = operation?.requestBody?.shape;
  const responseSchema = operation?.response(outcome.status)?.schema;
  if (!requestShape || !responseSchema) return undefined;
  const sent = decodeJson(request.body);
  const got = decodeJson(outcome.body);
  if (!('value' in sent) || !('value' in got) || !isJsonObject(sent.value) || !isJsonObject(got.value)) return undefined;
  const sentObject: JsonObject = sent.value;
  const gotObject: JsonObject = got.value;
  const echoed = contract.shapeOf(responseSchema).properties;
  const differences: EchoDifference[] = [];
  for (const key of requestShape.properties.keys()) {
    const present = Object.hasOwn(gotObject, key);
    const back = present ? gotObject[key] : undefined;
    if (!Object.hasOwn(sentObject, key)) {
      if (present && echoed.has(key)) differences.push({ key, sent: undefined, got: back });
      continue;
    }
    const value = sentObject[key] as JsonValue;
    if (!present && !echoed.has(key)) continue;
    if (!sameJson(value, back)) differences.push({ key, sent: value, got: back });
  }
  return differences;
}

/**
 * Whether two requests write the same resource: their bodies have the same values for every
 * property of the resource key (resourceKeyProperties), and there is one. The answer to the
 * second may then carry the first's values because of what the target stored (`echo`'s finding),
 * not because it went to the wrong request.
 */
function sameResource(contract: Contract, a: HttpRequest, b: HttpRequest): boolean {
  const first = decodeJson(a.body);
  const second = decodeJson(b.body);
  if (!('value' in first) || !('value' in second) || !isJsonObject(first.value) || !isJsonObject(second.value)) return false;
  const keys = resourceKeyProperties(contract, operationOf(contract, a));
  const x = first.value;
  const y = second.value;
  return keys.length > 0 && keys.every((key) => Object.hasOwn(x, key) && sameJson(x[key] as JsonValue, y[key]));
}

/**
 * The request this success answer belongs to when it is not its own: it differs from what its
 * request sent, and is exactly what another request carried - the one the connection carried
 * before, or one in flight at the same time (WireFacts.others) - for another resource.
 */
export function misdelivered(contract: Contract, request: HttpRequest, outcome: HttpOutcome): NeighbourRequest | undefined {
  if (outcome.kind !== 'response' || outcome.wire === undefined || outcome.wire.others.length === 0) return undefined;
  const own = echoDifferences(contract, request, outcome);
  if (own === undefined || own.length === 0) return undefined;
  return outcome.wire.others.find((other) => other.request !== request && echoDifferences(contract, other.request, outcome)?.length === 0 && !sameResource(contract, request, other.request));
}

/** A 4xx to a request whose target a server may not recognise as the operation's (RequestCase.lenientAbout `target`). */
export function refusedTarget(request: RequestCase, status: number): boolean {
  return request.lenient !== undefined && request.lenientAbout === 'target' && status >= 400 && status < 500;
}
