/**
 * The kit's own refusals in the contract's words (docs/contracts.md, "Refusals in your contract's
 * words"). For each operation and each kind of refusal, worked out once at start-up: the status
 * the operation declares for that kind (the kind's statuses in order, then a range such as `4XX`,
 * then `default`, else the catalogue's), and a body template, an instance of that response's
 * schema (its example where valid, else one made from the schema) with a hole where the reason
 * goes and the status in its status-like property. A request then costs a lookup and a
 * concatenation, as the fixed Error did. Routing refusals (no operation) take the contract-wide
 * shape: the error schema most operations declare.
 * Values are made by the generator the reference's answers use (src/openapi/generated.ts), with
 * one seed: the same contract, the same bodies.
 */
import { generateValue, isJsonObject, LosslessNumber, quoteJson, stringifyJson, type BodyValidator, type Contract, type JsonObject, type JsonValue, type MediaVariant, type OperationContract, type ResponseContract, type Schema } from '../openapi/portable.js';
import { ERROR_CATALOGUE, errorBodyText, type ErrorCode, type PlantStoreError } from './errors.js';
import { JSON_HEADERS } from './exchange.js';

/** A value of `schema` (deterministic), valid by `validate` where it can be. */
type InstanceMaker = (schema: Schema, validate: BodyValidator | undefined) => JsonValue;

const REFUSAL_SEED = 'plant-store:refusal';

/** How one kind of refusal of one operation is answered: its status, its Content-Type, its body around the reason. */
export interface RefusalTemplate {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body before the reason (the whole body where `after` is undefined: a shape that cannot carry the reason). */
  readonly before: string;
  readonly after: string | undefined;
  /** Set where the declared error response is text (`text/*`, no JSON): the body is the reason itself, written as that text (textReason). */
  readonly text?: TextRefusal;
}

/** How a reason is written as a text body: escaped for HTML where the media type is text/html, cut to the schema's maxLength. */
export interface TextRefusal {
  readonly html: boolean;
  readonly maxLength: number | undefined;
}

export interface Refusals {
  /** The status and body of a refusal, for the operation it concerns (undefined: a routing refusal). */
  template(operation: OperationContract | undefined, refusal: PlantStoreError): RefusalTemplate;
  /** Each response whose shape could not carry a reason validly, named once (`METHOD /path 400: …`). */
  readonly notes: readonly string[];
}

/**
 * The statuses that fit each kind of refusal, in groups, best first: each group's statuses
 * declared exactly, then under a declared range (`4XX`). A bad body or parameter is a 400, else a
 * 422; a media type or coding the kit does not read is a 415, a body over the limit a 413, else a
 * bad request. Credentials, routing, 404 of the store, 406, 500 and 503 keep their status: a client
 * reads it (RFC 9110; RFC 6750 requires 401 for missing credentials), only the body takes the
 * declared shape. Codes not named here keep their catalogue status.
 */
const BAD_REQUEST = [[400, 422]] as const;
const FITTING: Partial<Record<ErrorCode, readonly (readonly number[])[]>> = {
  unsupported_media_type: [[415], ...BAD_REQUEST],
  unsupported_encoding: [[415], ...BAD_REQUEST],
  body_too_large: [[413], ...BAD_REQUEST],
  invalid_utf8: BAD_REQUEST,
  too_deep: BAD_REQUEST,
  malformed_json: BAD_REQUEST,
  malformed_body: BAD_REQUEST,
  invalid_body: BAD_REQUEST,
  invalid_parameter: BAD_REQUEST,
  unsupported_preference: BAD_REQUEST,
};

/** Names of the string property that takes the reason, best first (RFC 9457's `detail`, OAuth's `error_description`). */
const REASON_NAMES = ['message', 'detail', 'error_description', 'description', 'reason', 'title', 'error', 'msg'];
/** Names of the integer property that takes the status (the bundled Error's is `error`). */
const STATUS_NAMES = ['status', 'statusCode', 'status_code', 'httpStatus', 'code', 'error'];
/** How deep in nested objects the reason and status are looked for. */
const SEARCH_DEPTH = 3;
const SENTINEL = 'plant-store-kit:reason:7f3a9c2e';
const SAMPLE_REASON = 'body: a reason the kit gives for refusing a request';
/** The phrases of the statuses a refusal has (RFC 9110, section 15), for a problem's `title` (RFC 9457, section 4.2.1). */
const PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  408: 'Request Timeout', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

/** The refusal templates of a contract, all worked out now. */
export function planRefusals(contract: Contract): Refusals {
  const instanceOf: InstanceMaker = (schema, validate) => generateValue(schema, { resolve: (given) => contract.resolve(given), seed: REFUSAL_SEED, validate }).value;
  // Each response named once, however many statuses its shape answers.
  const notes = new Set<string>();
  // Operations that share an error response share its templates: each is made, and named, once.
  const made = new Map<string, Template>();
  const keyOf = variantKeys(contract);
  const shared = contractWideVariant(contract);
  const build = (variant: MediaVariant, status: number, where: string): Template => {
    const key = `${String(status)} ${keyOf(variant)}`;
    let template = made.get(key);
    if (template === undefined) {
      template = buildTemplate(contract, variant, status, instanceOf, (problem) => notes.add(`${where}: ${problem}`));
      made.set(key, template);
    }
    return template;
  };
  const render = (status: number, response: ResponseContract | undefined, where: string): RefusalTemplate => {
    const variant = response && errorVariant(response);
    const text = variant === undefined && response !== undefined ? textVariant(response) : undefined;
    if (text !== undefined) return { status, ...textTemplate(contract, text, (problem) => notes.add(`${where} ${response?.status ?? ''}: ${problem}`)) };
    const template = (variant && build(variant, status, `${where} ${response.status}`)) ?? (shared && build(shared.variant, status, shared.where));
    return template ? { status, ...template } : { status, ...kitTemplate(status) };
  };
  const routing = byCode((code) => render(ERROR_CATALOGUE[code].status, undefined, 'routing'));
  const byOperation = new Map<OperationContract, Record<ErrorCode, RefusalTemplate>>();
  for (const operation of contract.operations) {
    const where = `${operation.method} ${operation.path}`;
    byOperation.set(operation, byCode((code) => {
      const { status, response } = chooseResponse(operation, code);
      return render(status, response, where);
    }));
  }
  return {
    template: (operation, refusal) => ((operation && byOperation.get(operation)) ?? routing)[refusal.code],
    notes: [...notes],
  };
}

function byCode(make: (code: ErrorCode) => RefusalTemplate): Record<ErrorCode, RefusalTemplate> {
  const templates: Partial<Record<ErrorCode, RefusalTemplate>> = {};
  for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) templates[code] = make(code);
  return templates as Record<ErrorCode, RefusalTemplate>;
}

/** Where a contract declares no JSON error response at all: the kit's own Error, `{"error":<status>,"message":…}`. */
function kitTemplate(status: number): Template {
  return { headers: JSON_HEADERS, ...around(errorBodyText(status, SENTINEL)) };
}

/** A body's text split where the reason's sentinel stands: the text before and after it. */
function around(text: string): { before: string; after: string } {
  const quoted = quoteJson(SENTINEL);
  const at = text.indexOf(quoted);
  return { before: text.slice(0, at), after: text.slice(at + quoted.length) };
}

/** A refusal's answer body from its template. */
export function refusalBody(template: RefusalTemplate, message: string): string {
  if (template.text !== undefined) return textReason(message, template.text);
  return template.after === undefined ? template.before : template.before + quoteJson(message) + template.after;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The reason as a text body: each code point as it is (escaped for HTML, so that a reason quoting
 * the request cannot become markup), as many as the schema's maxLength holds (JSON Schema counts
 * code points), never an escape cut in two.
 */
export function textReason(message: string, { html, maxLength }: TextRefusal): string {
  let text = '';
  let length = 0;
  for (const char of message) {
    const written = html ? (HTML_ESCAPES[char] ?? char) : char;
    // An escape is ASCII; the character itself is one code point, as JSON Schema counts maxLength.
    const size = written === char ? 1 : written.length;
    if (maxLength !== undefined && length + size > maxLength) break;
    text += written;
    length += size;
  }
  return text;
}

/** The text variant of a response with no JSON one: the first `text/*` it declares, read by the text codec. */
function textVariant(response: ResponseContract): MediaVariant | undefined {
  return response.variants.find((variant) => variant.essence.startsWith('text/') && !variant.essence.includes('*'));
}

/**
 * A text error response (`text/plain`, `text/html`): the reason is the body, in the declared media
 * type with its charset (the kit writes UTF-8), never JSON labelled as text. A schema a string
 * cannot satisfy (not a string, a pattern, a minLength) is named in the notes.
 */
function textTemplate(contract: Contract, variant: MediaVariant, note: (problem: string) => void): Omit<RefusalTemplate, 'status'> {
  const schema = variant.schema === undefined ? {} : contract.resolve(variant.schema);
  const text: TextRefusal = { html: variant.essence === 'text/html', maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined };
  const fits = (Array.isArray(schema.type) ? schema.type.includes('string') : schema.type === undefined || schema.type === 'string') && schema.pattern === undefined && schema.minLength === undefined;
  if (!fits) note(`its ${variant.mediaType} schema may refuse a reason as text; answered with the reason all the same`);
  const charset = /;\s*charset=/i.test(variant.mediaType) ? '' : '; charset=utf-8';
  return { headers: Object.freeze({ 'content-type': `${variant.mediaType}${charset}` }), before: '', after: '', text };
}

/**
 * The response an operation declares for a kind of refusal, and the status to answer: for each
 * group of fitting statuses, one declared exactly, else under its declared range (`4XX`); else
 * `default` with the catalogue's status; else none (the contract-wide shape, the catalogue's status).
 */
export function chooseResponse(operation: OperationContract, code: ErrorCode): { status: number; response: ResponseContract | undefined } {
  const fallback = ERROR_CATALOGUE[code].status;
  for (const group of FITTING[code] ?? [[fallback]]) {
    for (const status of group) {
      const exact = operation.responses.find((response) => response.status === String(status));
      if (exact) return { status, response: exact };
    }
    for (const status of group) {
      const range = operation.responses.find((response) => response.status.toUpperCase() === `${String(status).charAt(0)}XX`);
      if (range) return { status, response: range };
    }
  }
  return { status: fallback, response: operation.responses.find((response) => response.status === 'default') };
}

type Template = Omit<RefusalTemplate, 'status'>;

/** The JSON variant of a response whose values are checked (`application/json`, any `+json`), if any. */
function errorVariant(response: ResponseContract): MediaVariant | undefined {
  return response.variants.find((variant) => variant.codec.name === 'json' && variant.checked && !variant.essence.includes('*'));
}

/**
 * The shape of routing refusals: the JSON error response schema the most operations declare
 * (4xx, 5xx, a range or `default`), the first declared on a tie; undefined where none is.
 */
function contractWideVariant(contract: Contract): { variant: MediaVariant; where: string } | undefined {
  const counts = new Map<Schema, { variant: MediaVariant; where: string; count: number }>();
  for (const operation of contract.operations) {
    const seen = new Set<Schema>();
    for (const response of operation.responses) {
      if (!/^[45]|^default$/i.test(response.status)) continue;
      const variant = errorVariant(response);
      if (variant?.schema === undefined) continue;
      const schema = contract.resolve(variant.schema);
      if (seen.has(schema)) continue;
      seen.add(schema);
      const entry = counts.get(schema);
      if (entry) entry.count += 1;
      else counts.set(schema, { variant, where: `${operation.method} ${operation.path} ${response.status}`, count: 1 });
    }
  }
  let best: { variant: MediaVariant; where: string; count: number } | undefined;
  for (const entry of counts.values()) if (best === undefined || entry.count > best.count) best = entry;
  return best;
}

/**
 * What makes two variants give the same template: the media type, the schema (the same object once
 * its `$ref` is followed) and the example; worked out once a variant.
 */
function variantKeys(contract: Contract): (variant: MediaVariant) => string {
  const schemas = new Map<Schema, number>();
  const keys = new WeakMap<MediaVariant, string>();
  return (variant) => {
    let key = keys.get(variant);
    if (key === undefined) {
      const schema = variant.schema === undefined ? undefined : contract.resolve(variant.schema);
      if (schema !== undefined && !schemas.has(schema)) schemas.set(schema, schemas.size);
      key = `${variant.mediaType} ${String(schema === undefined ? -1 : schemas.get(schema))} ${variant.example === undefined ? '' : stringifyJson(variant.example)}`;
      keys.set(variant, key);
    }
    return key;
  };
}

/**
 * The template of a response's variant for a status: its valid example, else a made instance, with
 * the status and a hole for the reason; validated with a sample reason. Where the reason cannot
 * go validly, the instance with the status alone (`note` says so).
 */
function buildTemplate(contract: Contract, variant: MediaVariant, status: number, instanceOf: InstanceMaker, note: (problem: string) => void): Template {
  const schema = variant.schema ?? {};
  const validate = variant.validate;
  const valid = (value: JsonValue): boolean => validate === undefined || validate(value).valid;
  const example = variant.example !== undefined && valid(variant.example) ? variant.example : undefined;
  const base = example ?? instanceOf(schema, validate);
  const headers = variant.essence === 'application/json' ? JSON_HEADERS : Object.freeze({ 'content-type': variant.mediaType });
  const problem = variant.essence.endsWith('/problem+json') ? asProblem(base, status) : base;
  const filled = fill(contract, schema, valid(problem) ? problem : base, status, instanceOf);
  if (filled.reasonAt !== undefined && valid(filled.with(SAMPLE_REASON))) return { headers, ...around(stringifyJson(filled.with(SENTINEL))) };
  const fixed = filled.with(undefined);
  const body = valid(fixed) ? fixed : base;
  note(valid(body) ? 'its shape has no string property that can take the reason; answered without it' : 'the kit could not make a valid instance of its schema; answered with the nearest');
  return { headers, before: stringifyJson(body), after: undefined };
}

/**
 * A problem detail (RFC 9457) of no particular type: `type` about:blank and `title` the status's
 * phrase (section 4.2.1), where the value has them; the template is validated all the same.
 */
function asProblem(base: JsonValue, status: number): JsonValue {
  if (!isJsonObject(base)) return base;
  const problem = structuredCopy(base) as JsonObject;
  if (typeof problem.type === 'string') put(problem, 'type', 'about:blank');
  const phrase = PHRASES[status];
  if (typeof problem.title === 'string' && phrase !== undefined) put(problem, 'title', phrase);
  return problem;
}

/** Where a property is in a value: names of object properties, and `0` for the first item of an array. */
type Path = readonly (string | 0)[];

interface Filled {
  /** The path of the property that takes the reason, if any. */
  readonly reasonAt: Path | undefined;
  /** The body with `reason` at its place (none: as made, with the status). */
  with(reason: string | undefined): JsonValue;
}

/** A copy of `base` with the status in its status-like property, and where the reason goes. */
function fill(contract: Contract, schema: Schema, base: JsonValue, status: number, instanceOf: InstanceMaker): Filled {
  const resolved = contract.resolve(schema);
  if (typeof base === 'string' || (base === null && typesOf(resolved).includes('string'))) return { reasonAt: [], with: (reason) => reason ?? base };
  if (!isJsonObject(base)) return { reasonAt: undefined, with: () => base };
  // An object schema that names no property for it but allows others takes the reason as `message`.
  const reasonAt = findProperty(contract, resolved, REASON_NAMES, true, isReasonSchema) ?? (contract.shapeOf(resolved).additionalProperties && !Object.hasOwn(base, 'message') ? ['message'] : undefined);
  const statusAt = findProperty(contract, resolved, STATUS_NAMES, false, isStatusSchema);
  return {
    reasonAt,
    with: (reason) => {
      const copy = structuredCopy(base) as JsonObject;
      if (statusAt) setAt(contract, copy, resolved, statusAt, new LosslessNumber(String(status)), instanceOf);
      if (reasonAt && reason !== undefined) setAt(contract, copy, resolved, reasonAt, reason, instanceOf);
      return copy;
    },
  };
}

/**
 * The path to the property of an object schema best named for `names` (with `anyName`, any name
 * fits after them), searching nested objects and the first item of arrays of objects too
 * (`{"errors": [{"detail": …}]}`): the best name first, then the shallowest, then the first declared.
 */
function findProperty(contract: Contract, schema: Schema, names: readonly string[], anyName: boolean, fits: (schema: Schema) => boolean): Path | undefined {
  let best: { path: Path; rank: number; depth: number } | undefined;
  const visit = (object: Schema, path: Path, depth: number): void => {
    if (depth >= SEARCH_DEPTH || !typesOf(object).includes('object')) return;
    for (const [name, property] of contract.shapeOf(object).properties) {
      const resolved = contract.resolve(property);
      const rank = names.includes(name) ? names.indexOf(name) : names.length;
      if (fits(resolved) && (anyName || rank < names.length) && (best === undefined || rank < best.rank || (rank === best.rank && depth < best.depth))) best = { path: [...path, name], rank, depth };
      if (typesOf(resolved).includes('array')) visit(childSchema(contract, resolved, 0), [...path, name, 0], depth + 1);
      else visit(resolved, [...path, name], depth + 1);
    }
  };
  visit(schema, [], 0);
  return best?.path;
}

/** A string property free to hold any reason: no enum, const, pattern, format or length bound. */
function isReasonSchema(schema: Schema): boolean {
  return typesOf(schema).includes('string') && ['enum', 'const', 'pattern', 'format', 'maxLength', 'contentEncoding'].every((keyword) => schema[keyword] === undefined);
}

function isStatusSchema(schema: Schema): boolean {
  const types = typesOf(schema);
  return (types.includes('integer') || types.includes('number')) && schema.enum === undefined && schema.const === undefined;
}

/** The JSON types a schema names (`type`, a list of them), or those its `properties` imply. */
function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  return schema.properties === undefined ? [] : ['object'];
}

/** Sets `value` at `path` in `object`, making the objects and arrays on the way where `object` lacks them. */
function setAt(contract: Contract, object: JsonObject, schema: Schema, path: Path, value: JsonValue, instanceOf: InstanceMaker): void {
  let here: JsonObject | JsonValue[] = object;
  let hereSchema = schema;
  for (let i = 0; i < path.length - 1; i += 1) {
    const step = path[i] ?? 0;
    const stepSchema = childSchema(contract, hereSchema, step);
    const wanted = path[i + 1] === 0 ? (item: unknown): item is JsonValue[] => Array.isArray(item) : isJsonObject;
    let next = valueAt(here, step);
    if (!wanted(next)) {
      const made = instanceOf(stepSchema, undefined);
      next = wanted(made) ? made : path[i + 1] === 0 ? [] : {};
      setStep(here, step, next);
    }
    here = next;
    hereSchema = stepSchema;
  }
  setStep(here, path.at(-1) ?? 0, value);
}

/** The schema of a property (a name) or of an array's items (`0`), `$ref` followed. */
function childSchema(contract: Contract, schema: Schema, step: string | 0): Schema {
  if (step === 0) return contract.resolve(typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : {});
  return contract.resolve(contract.shapeOf(schema).properties.get(step) ?? {});
}

function valueAt(container: JsonObject | JsonValue[], step: string | 0): JsonValue | undefined {
  return Array.isArray(container) ? container[0] : Object.hasOwn(container, step) ? container[step] : undefined;
}

function setStep(container: JsonObject | JsonValue[], step: string | 0, value: JsonValue): void {
  if (Array.isArray(container)) container[0] = value;
  else put(container, String(step), value);
}

/** An own property, whatever its name (`__proto__` too). */
function put(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy of a JSON value (LosslessNumbers are immutable and kept). */
function structuredCopy(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(structuredCopy);
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) put(copy, key, structuredCopy(item));
    return copy;
  }
  return value;
}
