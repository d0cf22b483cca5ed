/**
 * Reads openapi.yaml once and derives everything the rest of the kit needs from it: the
 * operations, their declared statuses, validators for request and response bodies, the shapes
 * of object schemas. Nothing here restates a schema of the contract.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { compileContent, preferredVariant, type MediaVariant } from './content.js';
import { INT64_MAX, INT64_MIN, isInt64Projection, validationView, type JsonValue } from './json.js';
import { compileLinks, type LinkContract } from './links.js';
import { SECURITY_SCHEMES, securitySchemeTypeFor, type SchemeUse, type SecuritySchemeType } from './security/index.js';
import type { FormFields, MediaTypeCodec } from './media-types/index.js';
import { parseParameters } from './parameter-values.js';
import { compileParameters, type ParameterContract, type ParameterProblem, type ParsedParameters, type RequestParameters } from './parameters.js';
import { compilePaths, templateParameters, type PathMatch } from './paths.js';
import { formatFeatures } from './refusal.js';
import { hiddenIn, schemaView, type Direction, type SchemaView } from './schema-views.js';
import { namedUnchecked, unknownFormats } from './unchecked.js';
import { asRecord, decodePointerSegment, encodePointerSegment, type BodyValidator, type Schema, type Unsupported, type Validation, type ValidationIssue } from './types.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type { BodyValidator, Schema, Unsupported, Validation, ValidationIssue } from './types.js';
export * from './links.js';
export * from './parameters.js';
export * from './parameter-values.js';
export type { PathMatch } from './paths.js';
export { variantFor, type MediaVariant } from './content.js';

export interface SecurityScheme {
  readonly name: string;
  readonly type: string;
  readonly scheme?: string;
}

/** A scheme of a security requirement with what serves it: its type (security/), where its credential is, the scopes it names. */
export interface SchemeInUse extends SchemeUse {
  readonly type: SecuritySchemeType;
}

export interface ResponseContract {
  /** An HTTP status, or a range such as `4XX`, or `default`. */
  readonly status: string;
  readonly description: string;
  readonly mediaTypes: readonly string[];
  /** The codec of its content (media-types/), undefined when it declares none. */
  readonly codec: MediaTypeCodec | undefined;
  /** Validates an application/json body; undefined when the response declares no JSON body. */
  readonly validateBody: BodyValidator | undefined;
  readonly schema: Schema | undefined;
  /** Declared headers, by lower-case name. */
  readonly headers: ReadonlyMap<string, { readonly required: boolean }>;
  /** Where the response leads (OpenAPI links), each with how the target's parameters are taken from the exchange. */
  readonly links: readonly LinkContract[];
  /** The first example of its application/json content (`example`, else the first of `examples`), lossless. */
  readonly example: JsonValue | undefined;
  /** Each media type of its content, in the contract's order (content.ts); the fields above are the preferred one's. */
  readonly variants: readonly MediaVariant[];
}

export interface RequestBodyContract {
  readonly required: boolean;
  readonly mediaTypes: readonly string[];
  /** The codec that reads the body (media-types/): the pipeline's decoding steps are its. */
  readonly codec: MediaTypeCodec;
  readonly schema: Schema;
  readonly validate: BodyValidator;
  readonly shape: ObjectShape;
  /** Each media type of its content (the request's Content-Type picks one); the fields above are the preferred one's. */
  readonly variants: readonly MediaVariant[];
  /** Whether the preferred schema is of JSON objects only (`type: object`): any other value is refused (rules.ts, the object rule). */
  readonly objectsOnly: boolean;
  /** The preferred variant's fields, where it is a form (content.ts): what its codec types them by. */
  readonly fields?: FormFields | undefined;
}

export interface OperationContract {
  readonly operationId: string;
  /** Upper case. */
  readonly method: string;
  readonly path: string;
  /**
   * Alternatives, each a list of schemes that must all hold (OpenAPI's security requirement);
   * empty when the operation is open (`security: []`, or an empty requirement among them).
   */
  readonly security: readonly (readonly SecurityScheme[])[];
  /** `security` with each scheme's type and credential location (the pipeline's credentials rule reads these). */
  readonly securedBy: readonly (readonly SchemeInUse[])[];
  /** Path, query, header and cookie parameters: the path item's, overridden by the operation's own. */
  readonly parameters: readonly ParameterContract[];
  /** The request's parameters as typed values (int64 exact), or a problem naming the parameter. */
  parseParameters(request: RequestParameters): ParsedParameters | ParameterProblem;
  readonly requestBody: RequestBodyContract | undefined;
  readonly responses: readonly ResponseContract[];
  /** Explicitly declared numeric statuses, ascending. */
  readonly declaredStatuses: readonly number[];
  /** The response that covers `status`: the exact one, else its `NXX` range, else `default`. */
  response(status: number): ResponseContract | undefined;
}

/** The properties and required names of an object schema, with `$ref` and `allOf` resolved. */
export interface ObjectShape {
  readonly properties: ReadonlyMap<string, Schema>;
  readonly required: ReadonlySet<string>;
  /** False only when the schema (or a part of its allOf) says `additionalProperties: false`. */
  readonly additionalProperties: boolean;
}

/** What names a contract: its file, and the title and version of its info. */
export interface ContractHeading {
  readonly file: string;
  readonly title: string;
  readonly version: string;
  /**
   * The OpenAPI version the file was written in, where it is not the 3.1 the kit reads: `OpenAPI
   * 3.0.3, read as 3.1`, `Swagger 2.0, read as 3.1`, `OpenAPI 3.2.0`. Absent for OpenAPI 3.1.
   */
  readonly writtenIn?: string;
}

export interface Contract extends ContractHeading {
  readonly document: Schema;
  /**
   * What the contract declares and the kit does not serve or check, each with where it is
   * (callbacks, webhooks, unknown formats, OpenAPI 3.2's additions): loaded all the same, and
   * named in the banners (docs/contracts.md).
   */
  readonly unchecked: readonly Unsupported[];
  readonly operations: readonly OperationContract[];
  /** The operation for a method and a concrete path, if one is declared. */
  findOperation(method: string, path: string): OperationContract | undefined;
  /** The methods declared for a concrete path (upper case), or undefined when no path matches. */
  methodsFor(path: string): readonly string[] | undefined;
  /** The path template a concrete path falls under (literal segments before templated ones), with its templated segments' text. */
  matchPath(path: string): PathMatch | undefined;
  /** The operations of a path template, by upper-case method. */
  operationsAt(template: string): ReadonlyMap<string, OperationContract>;
  /** The operation with this operationId (`METHOD /path` for one without). */
  operationById(id: string): OperationContract | undefined;
  /** A schema with `$ref`s followed, e.g. `resolve({ $ref: '#/components/schemas/Plant' })`. */
  resolve(schema: Schema): Schema;
  shapeOf(schema: Schema): ObjectShape;
  /** A validator for a named schema under components/schemas. */
  validatorForComponent(name: string): BodyValidator;
  /**
   * Compiles up to `limit` (all by default) of the validators not compiled yet; how many are left.
   * Each validator is compiled on its first use, and a contract compiled with `schemas: 'later'`
   * (CompileOptions) has all of them still to compile: its server calls this in small batches
   * once it listens. Throws an UnsupportedContractError while any schema it compiled, here or on
   * first use, is one ajv cannot compile (a contract compiled now was refused for it already).
   */
  compileSchemas(limit?: number): number;
}

/** How compileContract reads a document. */
export interface CompileOptions {
  /** The version the file was written in, where it was upgraded to 3.1 on the way (upgrade.ts). */
  readonly writtenIn?: string;
  /**
   * When the schemas' validators are compiled: `now` (the default) before compileContract returns,
   * so that a schema ajv cannot compile refuses the contract with the rest; `later` on first use
   * and by Contract.compileSchemas, which a server calls once it listens - compiling is about two
   * fifths of a large contract's start-up (bench/README.md), and an exact check of a schema is
   * ajv's compiling it.
   */
  readonly schemas?: 'now' | 'later';
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const DOCUMENT_ID = 'urn:plant-store-kit:openapi';
/** The documents of the request and response views (schema-views.ts), where a contract needs them. */
const VIEW_IDS: Readonly<Record<Direction, string>> = { request: `${DOCUMENT_ID}:request`, response: `${DOCUMENT_ID}:response` };

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A contract the kit cannot honour exactly: every unsupported feature, each with where it is. */
export class UnsupportedContractError extends Error {
  readonly unsupported: readonly Unsupported[];

  constructor(file: string, unsupported: readonly Unsupported[]) {
    // Each feature once, with its count of places and the first three (refusal.ts).
    super(`the contract ${file} uses what the kit cannot serve exactly (docs/contracts.md):\n${formatFeatures(unsupported)}`);
    this.name = 'UnsupportedContractError';
    this.unsupported = unsupported;
  }
}

/** What compiling the parts of a document needs: its schemas, validators and the refusal list. */
interface Sources {
  readonly document: Schema;
  readonly resolve: (schema: Schema) => Schema;
  /** The validator of the schema at a pointer; of its request or response view where one is given (schema-views.ts). */
  readonly validatorAt: (pointer: string, direction?: Direction) => BodyValidator;
  readonly pointerOf: (schema: Schema, fallback: string) => string;
  /** Where a response, request body or parameter is: at the end of its $refs, else `fallback`. */
  readonly locate: (object: Schema, fallback: string) => string;
  readonly shapeOf: (schema: Schema) => ObjectShape;
  readonly refuse: (feature: string, pointer: string) => void;
  /** Told each part of a content map served unchecked (a media type no codec serves, …): named among the contract's unchecked features. */
  readonly unchecked: (feature: string, pointer: string) => void;
  /** Compiles up to `limit` of the validators handed out and not compiled yet; how many are left. */
  readonly compilePending: (limit: number) => number;
  /** The schemas ajv could not compile so far, each with where it is. */
  readonly schemaRefusals: readonly Unsupported[];
}

/** A validator compiled on its first use (or when its turn comes in compilePending). */
interface LazyValidator {
  readonly validate: BodyValidator;
  readonly compile: () => void;
}

function lazyValidator(compile: () => BodyValidator): LazyValidator {
  let compiled: BodyValidator | undefined;
  const ready = (): BodyValidator => (compiled ??= compile());
  return { validate: (value) => ready()(value), compile: () => void ready() };
}

function createSources(document: Schema, refuse: Sources['refuse'], note: Sources['refuse']): Sources {
  // validateSchema off: ajv would check the whole OpenAPI document against the JSON Schema
  // meta-schema, where none of its schemas sits at a keyword's place (components/schemas is no
  // keyword), so that check sees nothing of them - and compiling the meta-schema is a fifth of
  // start-up. Each schema's keywords are still checked as it is compiled (a `type: strng` or a
  // `minLength: 'x'` throws), and compileContract compiles every schema an operation uses.
  // No logger and no strict-mode notes: a contract's schemas are the user's, and what the kit
  // cannot check in them is named once in the banner (unknown formats below), never as ajv's
  // console lines.
  // code.optimize off: ajv's pass over the generated code (dropping unused names) is a third of
  // compiling a large contract's validators (bench/README.md, 170 operations), and the
  // validators it would trim check exactly the same.
  const ajv = new Ajv2020({ allErrors: true, strictSchema: false, strictTypes: false, strictTuples: false, strictRequired: false, logger: false, validateFormats: true, validateSchema: false, code: { optimize: false } });
  addFormats(ajv);
  // ajv-formats' int64 only checks for an integer; with projected numbers the range is exact.
  ajv.addFormat('int64', { type: 'number', validate: isInt64Projection });
  // A format ajv does not know is accepted as its type (JSON Schema 2020-12, section 7.2.3:
  // an unknown format is an annotation) and named as unchecked.
  for (const { format, pointer } of unknownFormats(document, (name) => name in ajv.formats)) {
    ajv.addFormat(format, true);
    note(`the format ${format} (accepted as its type: the kit does not check it)`, pointer);
  }
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });

  // The document does not change once loaded: a $ref and a shape are worked out once (the
  // conformance engine asks for them on every exchange).
  const looked = new Map<string, Schema>();
  const lookup = (ref: string): Schema => {
    const known = looked.get(ref);
    if (known) return known;
    if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
    let node: unknown = document;
    // A pointer may go through arrays too (a parameter of another operation: `.../parameters/0`).
    for (const segment of ref.slice(1).split('/').filter(Boolean)) node = Array.isArray(node) ? node[Number(segment)] : asRecord(node)[decodePointerSegment(segment)];
    if (node === undefined) throw new Error(`$ref ${ref} does not resolve`);
    const found = asRecord(node);
    looked.set(ref, found);
    return found;
  };
  const resolve = (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw new Error(`$ref cycle at ${String(schema.$ref)}`);
      current = lookup(current.$ref);
    }
    return current;
  };

  // readOnly is not required in a request, writeOnly not in an answer: a view of the document for
  // each, only where a schema has such a required property (schema-views.ts).
  const views = new Map<Direction, SchemaView>();
  for (const direction of ['request', 'response'] as const) {
    const view = schemaView(document, direction, lookup, DOCUMENT_ID);
    if (view === undefined) continue;
    views.set(direction, view);
    ajv.addSchema({ ...view.document, $id: VIEW_IDS[direction] });
  }

  const validators = new Map<string, LazyValidator>();
  const pending: LazyValidator[] = [];
  const schemaRefusals: Unsupported[] = [];
  // A schema ajv cannot compile (`type: strng`, a 3.0 keyword out of place) is refused with where
  // it is, beside every other refusal, rather than thrown from inside ajv; its validator is never run.
  const compileAt = (id: string, pointer: string): BodyValidator => {
    try {
      const validate = ajv.compile({ $ref: `${id}#${pointer}` });
      return (value) => runValidator(validate, value);
    } catch (error) {
      // A view that ajv cannot compile where the schema as written compiles (a `$id` of its own met
      // twice, say) is no reason to refuse the contract: that schema is checked as written.
      if (id !== DOCUMENT_ID) return compileAt(DOCUMENT_ID, pointer);
      const reason = error instanceof Error ? error.message : String(error);
      schemaRefusals.push({ feature: `a schema ajv cannot compile as JSON Schema 2020-12 (${reason})`, pointer });
      return () => {
        throw new Error(`the schema at ${pointer} cannot be compiled: ${reason}`);
      };
    }
  };
  const validatorAt = (pointer: string, direction?: Direction): BodyValidator => {
    const id = direction !== undefined && views.get(direction)?.needs(pointer) === true ? VIEW_IDS[direction] : DOCUMENT_ID;
    const key = `${id}#${pointer}`;
    let validator = validators.get(key);
    if (!validator) {
      validator = lazyValidator(() => compileAt(id, pointer));
      validators.set(key, validator);
      pending.push(validator);
    }
    return validator.validate;
  };
  const compilePending = (limit: number): number => {
    for (const validator of pending.splice(0, limit)) validator.compile();
    return pending.length;
  };

  const pointerOf = (schema: Schema, fallback: string): string => (typeof schema.$ref === 'string' && schema.$ref.startsWith('#') ? schema.$ref.slice(1) : fallback);
  // A response, request body or parameter reached through $refs (to components, or into another
  // operation) is where the last $ref points: the pointers of its content are taken from there.
  const locate = (object: Schema, fallback: string): string => {
    let pointer = fallback;
    for (let current = object, hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops <= 32; hops++) {
      pointer = current.$ref.slice(1);
      current = lookup(current.$ref);
    }
    return pointer;
  };
  return { document, resolve, validatorAt, pointerOf, locate, shapeOf: shapeReader(resolve), refuse, unchecked: note, compilePending, schemaRefusals };
}

function shapeReader(resolve: (schema: Schema) => Schema): (schema: Schema) => ObjectShape {
  const shapes = new WeakMap<Schema, ObjectShape>();
  return (schema) => {
    const known = shapes.get(schema);
    if (known) return known;
    const properties = new Map<string, Schema>();
    const required = new Set<string>();
    let additionalProperties = true;
    const visit = (node: Schema, depth: number): void => {
      if (depth > 32) throw new Error('allOf/$ref nesting too deep');
      const resolved = resolve(node);
      for (const part of Array.isArray(resolved.allOf) ? resolved.allOf : []) visit(asRecord(part), depth + 1);
      for (const [name, property] of Object.entries(asRecord(resolved.properties))) properties.set(name, asRecord(property));
      for (const name of Array.isArray(resolved.required) ? resolved.required : []) if (typeof name === 'string') required.add(name);
      if (resolved.additionalProperties === false) additionalProperties = false;
    };
    visit(schema, 0);
    const shape = { properties, required, additionalProperties };
    shapes.set(schema, shape);
    return shape;
  };
}

/**
 * The security requirements of an operation: alternatives, each a list of schemes that must all
 * hold. An empty alternative (`security: []`, or `- {}` among them) makes the operation open:
 * the result is then empty. A scheme no type of security/ serves is refused, by name and type.
 */
function compileSecurity(requirements: unknown, at: string, sources: Sources): { security: SecurityScheme[][]; securedBy: SchemeInUse[][] } {
  const schemes = asRecord(asRecord(sources.document.components).securitySchemes);
  const served = SECURITY_SCHEMES.map((type) => type.name).join(', ');
  const securedBy: SchemeInUse[][] = [];
  const security = (Array.isArray(requirements) ? requirements : []).map((requirement, index) => {
    const inUse: SchemeInUse[] = [];
    securedBy.push(inUse);
    const named = asRecord(requirement);
    return Object.keys(named).map((name) => {
      const scheme = sources.resolve(asRecord(schemes[name]));
      const where = name in schemes ? `/components/securitySchemes/${encodePointerSegment(name)}` : `${at}/${index}`;
      const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : undefined;
      const type = name in schemes ? securitySchemeTypeFor(scheme) : undefined;
      if (!(name in schemes)) sources.refuse(`the undeclared security scheme ${name}`, where);
      else if (type === undefined) sources.refuse(`the security scheme ${name} (${String(scheme.type)}${kind === undefined ? '' : ` ${kind}`}; the kit serves ${served} only)`, where);
      else {
        const listed = named[name];
        const scopes = type.scoped === true && Array.isArray(listed) ? listed.filter((scope): scope is string => typeof scope === 'string') : [];
        inUse.push({ name, type, credential: type.credentialIn(scheme), ...(scopes.length > 0 ? { scopes } : {}) });
      }
      return { name, type: String(scheme.type), ...(kind === undefined ? {} : { scheme: kind }) };
    });
  });
  return security.some((alternative) => alternative.length === 0) ? { security: [], securedBy: [] } : { security, securedBy };
}

function compileResponse(status: string, raw: unknown, declaredAt: string, sources: Sources, links: (links: Schema, at: string) => LinkContract[]): ResponseContract {
  const at = sources.locate(asRecord(raw), declaredAt);
  const response = sources.resolve(asRecord(raw));
  const content = asRecord(response.content);
  const variants = compileContent(content, at, sources, 'response');
  // The variant its single-type fields describe: the JSON one (schema or not), else the first checked.
  const served = variants.find((variant) => variant.codec.name === 'json') ?? variants.find((variant) => variant.checked);
  const headers = new Map<string, { required: boolean }>();
  for (const [name, header] of Object.entries(asRecord(response.headers))) headers.set(name.toLowerCase(), { required: sources.resolve(asRecord(header)).required === true });
  return {
    status,
    description: typeof response.description === 'string' ? response.description : '',
    mediaTypes: Object.keys(content),
    codec: served?.codec,
    schema: served?.schema,
    validateBody: served?.validate,
    headers,
    links: links(asRecord(response.links), `${at}/links`),
    example: served?.example,
    variants,
  };
}

function compileRequestBody(raw: unknown, declaredAt: string, sources: Sources): RequestBodyContract | undefined {
  const at = sources.locate(asRecord(raw), declaredAt);
  const body = sources.resolve(asRecord(raw));
  if (Object.keys(body).length === 0) return undefined;
  const content = asRecord(body.content);
  const variants = compileContent(content, at, sources, 'request');
  const served = preferredVariant(variants);
  if (served === undefined) return undefined;
  // A media type whose values cannot be checked: any body of it is let through.
  const schema = served.schema ?? {};
  return {
    required: body.required === true,
    mediaTypes: Object.keys(content),
    codec: served.codec,
    schema,
    validate: served.validate ?? (() => ANY_BODY),
    // The properties of a body of fields, JSON or a form (the reference's store keeps those); another type's are not read.
    shape: requestShape(sources.shapeOf(fieldsOf(served) ? schema : {}), sources.resolve),
    variants,
    objectsOnly: fieldsOf(served) && ofObjects(schema, sources.resolve, 0),
    fields: served.fields,
  };
}

/** A request body's shape: a `readOnly` property is never required in a request (schema-views.ts). */
function requestShape(shape: ObjectShape, resolve: (schema: Schema) => Schema): ObjectShape {
  const hidden = [...shape.required].filter((name) => hiddenIn('request', shape.properties.get(name), resolve));
  if (hidden.length === 0) return shape;
  return { ...shape, required: new Set([...shape.required].filter((name) => !hidden.includes(name))) };
}

/** Whether a variant's values are objects of named fields: JSON, or a codec of fields (a form, multipart). */
function fieldsOf(variant: MediaVariant): boolean {
  return variant.codec.name === 'json' || variant.codec.fields === true;
}

/** Whether a schema admits JSON objects only: `type: object`, or a part of its `allOf` that is. */
function ofObjects(schema: Schema, resolve: (schema: Schema) => Schema, depth: number): boolean {
  const resolved = resolve(schema);
  if (resolved.type === 'object' || (Array.isArray(resolved.type) && resolved.type.length === 1 && resolved.type[0] === 'object')) return true;
  return depth < 32 && Array.isArray(resolved.allOf) && resolved.allOf.some((part) => ofObjects(asRecord(part), resolve, depth + 1));
}

/** Where each operation of the document is: its pointer, method, path and raw object. */
interface Located {
  readonly path: string;
  readonly method: (typeof HTTP_METHODS)[number];
  readonly raw: Schema;
  readonly pointer: string;
  readonly id: string;
}

function locateOperations(document: Schema): Located[] {
  const located: Located[] = [];
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    for (const method of HTTP_METHODS) {
      const raw = asRecord(asRecord(item)[method]);
      if (Object.keys(raw).length === 0) continue;
      const id = typeof raw.operationId === 'string' ? raw.operationId : `${method.toUpperCase()} ${path}`;
      located.push({ path, method, raw, pointer: `/paths/${encodePointerSegment(path)}/${method}`, id });
    }
  }
  return located;
}

function compileOperation(found: Located, sources: Sources, located: readonly Located[]): OperationContract {
  const { path, method, raw: operation, pointer: base } = found;
  const parameters = compileParameters(asRecord(asRecord(sources.document.paths)[path]).parameters, operation.parameters, { path: `/paths/${encodePointerSegment(path)}`, operation: base }, sources);
  const templated = templateParameters(path);
  // Declared, even if refused for another reason: one refusal per fault.
  const declared = [asRecord(asRecord(sources.document.paths)[path]).parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : []).map((raw) => sources.resolve(asRecord(raw))));
  for (const name of templated) if (!declared.some((p) => p.in === 'path' && p.name === name)) sources.refuse(`the path parameter ${name} without a declaration`, base);
  for (const p of parameters) if (p.in === 'path' && !templated.includes(p.name)) sources.refuse(`the path parameter ${p.name}, which is not in the path template`, p.pointer);
  const links = (raw: Schema, at: string): LinkContract[] =>
    compileLinks(raw, at, {
      hasOperation: (id) => located.some((o) => o.id === id),
      operationOf: (ref) => located.find((o) => `#${o.pointer}` === ref)?.id,
      resolve: sources.resolve,
    }, sources.unchecked);
  const responses = Object.entries(asRecord(operation.responses)).map(([status, raw]) => compileResponse(status, raw, `${base}/responses/${status}`, sources, links));
  const declaredStatuses = responses.map((r) => Number(r.status)).filter(Number.isInteger).sort((a, b) => a - b);
  const { security, securedBy } = compileSecurity(operation.security ?? sources.document.security, operation.security === undefined ? '/security' : `${base}/security`, sources);
  return {
    operationId: found.id,
    method: method.toUpperCase(),
    path,
    security,
    securedBy,
    parameters,
    requestBody: compileRequestBody(operation.requestBody, `${base}/requestBody`, sources),
    responses,
    declaredStatuses,
    response: (status) =>
      responses.find((r) => r.status === String(status)) ??
      responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
      responses.find((r) => r.status === 'default'),
    parseParameters: (request) => parseParameters(parameters, request),
  };
}

/** Features of the whole document the kit cannot serve. */
function refuseDocumentFeatures(document: Schema, refuse: Sources['refuse']): void {
  const version = typeof document.openapi === 'string' ? document.openapi : typeof document.swagger === 'string' ? `Swagger ${document.swagger}` : undefined;
  if (version === undefined) return;
  // 3.0 and 2.0 are read by loadContract and openContract, which upgrade them first (upgrade.ts).
  if (/^(?:Swagger 2\.|3\.0\.)/.test(version)) refuse(`${version.startsWith('Swagger') ? version : `OpenAPI ${version}`}, given as it is (openContract upgrades it to 3.1; compileContract reads 3.1 and 3.2)`, version.startsWith('Swagger') ? '/swagger' : '/openapi');
  else if (!/^3\.[12]\./.test(version)) refuse(`OpenAPI ${version} (the kit reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2)`, '/openapi');
}

/**
 * Compiles a parsed OpenAPI 3.1 document; throws an UnsupportedContractError naming every
 * feature the kit cannot serve exactly. Exported for tests that feed modified contracts.
 */
export function compileContract(document: Schema, file = '<memory>', options: CompileOptions = {}): Contract {
  // An empty file, or YAML that is not a mapping: nothing here is an OpenAPI document.
  if (!isRecord(document)) throw new UnsupportedContractError(file, [{ feature: 'a document that is not an OpenAPI object', pointer: '' }]);
  const unsupported: Unsupported[] = [];
  const unchecked: Unsupported[] = [];
  const note = (feature: string, pointer: string): void => void unchecked.push({ feature, pointer });
  const sources = createSources(document, (feature, pointer) => unsupported.push({ feature, pointer }), note);
  refuseDocumentFeatures(document, sources.refuse);
  namedUnchecked(document, note);
  const located = locateOperations(document);
  const operations = located.map((found) => compileOperation(found, sources, located));
  const matchPath = compilePaths([...new Set(operations.map((o) => o.path))], sources.refuse, (path, name) => {
    const parameter = operations.find((o) => o.path === path)?.parameters.find((p) => p.in === 'path' && p.name === name);
    return parameter === undefined ? undefined : sources.resolve(parameter.schema);
  });
  if (options.schemas !== 'later') sources.compilePending(Number.POSITIVE_INFINITY);
  unsupported.push(...sources.schemaRefusals);
  if (unsupported.length > 0) throw new UnsupportedContractError(file, unsupported);

  const byMethodAndPath = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  const byPath = new Map<string, Map<string, OperationContract>>();
  for (const operation of operations) byPath.set(operation.path, (byPath.get(operation.path) ?? new Map<string, OperationContract>()).set(operation.method, operation));

  const heading = headingOf(document, file);
  const writtenIn = options.writtenIn === undefined ? heading.writtenIn : `${options.writtenIn}, read as 3.1`;
  return {
    ...heading,
    ...(writtenIn === undefined ? {} : { writtenIn }),
    document,
    unchecked,
    operations,
    matchPath,
    operationsAt: (template) => byPath.get(template) ?? new Map(),
    findOperation: (method, path) => {
      const template = matchPath(path)?.template;
      return template === undefined ? undefined : byMethodAndPath.get(`${method.toUpperCase()} ${template}`);
    },
    methodsFor: (path) => {
      const template = matchPath(path)?.template;
      return template === undefined ? undefined : [...(byPath.get(template)?.keys() ?? [])];
    },
    operationById: (id) => operations.find((o) => o.operationId === id),
    resolve: sources.resolve,
    shapeOf: sources.shapeOf,
    validatorForComponent: (name) => {
      if (!(name in asRecord(asRecord(document.components).schemas))) throw new Error(`no schema ${name} in the contract`);
      return sources.validatorAt(`/components/schemas/${encodePointerSegment(name)}`);
    },
    compileSchemas: (limit = Number.POSITIVE_INFINITY) => {
      const left = sources.compilePending(limit);
      if (sources.schemaRefusals.length > 0) throw new UnsupportedContractError(file, sources.schemaRefusals);
      return left;
    },
  };
}

/** The heading of a parsed document, as its compiled contract has it. */
export function headingOf(document: Schema, file: string): ContractHeading {
  const info = asRecord(asRecord(document).info);
  const openapi = asRecord(document).openapi;
  const swagger = asRecord(document).swagger;
  // Named where it is not the 3.1 the kit reads (docs/contracts.md).
  const writtenIn = typeof swagger === 'string' ? `Swagger ${swagger}, read as 3.1` : typeof openapi === 'string' && !openapi.startsWith('3.1.') ? `OpenAPI ${openapi}${openapi.startsWith('3.0.') ? ', read as 3.1' : ''}` : undefined;
  return { file, title: String(info.title), version: String(info.version), ...(writtenIn === undefined ? {} : { writtenIn }) };
}

function runValidator(validate: ValidateFunction, value: JsonValue): Validation {
  if (validate(validationView(value))) return VALID;
  const errors = validate.errors ?? [];
  const [only] = errors;
  if (only !== undefined && errors.length === 1) return { valid: false, issues: [describeIssue(only)] };
  // A value of the wrong type also fails its format; the type is the one thing worth saying.
  const mistyped = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return { valid: false, issues: errors.filter((e) => e.keyword !== 'format' || !mistyped.has(e.instancePath)).map(describeIssue) };
}

const VALID: Validation = Object.freeze({ valid: true, issues: Object.freeze([]) });
const ANY_BODY = VALID;

function fieldOf(instancePath: string, child?: string): string {
  // A property of the body itself, the usual case: no pointer to take apart.
  if (instancePath === '') return child ?? 'body';
  // One plain segment (`/id`): the property itself.
  if (instancePath.lastIndexOf('/') === 0 && !instancePath.includes('~')) return child === undefined ? instancePath.slice(1) : `${instancePath.slice(1)}.${child}`;
  const segments = instancePath.split('/').slice(1).map(decodePointerSegment);
  if (child !== undefined) segments.push(child);
  return segments.length === 0 ? 'body' : segments.join('.');
}

const INT64_MESSAGE = `must be an int64 integer, from ${INT64_MIN} to ${INT64_MAX}`;
const INT32_MESSAGE = `must be an int32 integer, from ${-(2 ** 31)} to ${2 ** 31 - 1}`;

/** One ajv error as a field and a message a person can act on. */
function describeIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: fieldOf(error.instancePath, String(params.missingProperty)), message: 'is required' };
    case 'type': {
      const type = String(params.type);
      return { field: fieldOf(error.instancePath), message: `must be ${type === 'integer' || type === 'object' || type === 'array' ? 'an' : 'a'} ${type}` };
    }
    case 'format':
      if (params.format === 'int64') return { field: fieldOf(error.instancePath), message: INT64_MESSAGE };
      if (params.format === 'int32') return { field: fieldOf(error.instancePath), message: INT32_MESSAGE };
      return { field: fieldOf(error.instancePath), message: error.message ?? 'has the wrong format' };
    default:
      return { field: fieldOf(error.instancePath), message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Issues as one line: `id: is required; tag: must be a string`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const [only] = issues;
  if (only !== undefined && issues.length === 1) return `${only.field}: ${only.message}`;
  return [...new Map(issues.map((i) => [`${i.field}: ${i.message}`, true])).keys()].join('; ');
}
