/**
 * Reads openapi.yaml once and derives everything the rest of the kit needs from it: the
 * operations, their declared statuses, validators for request and response bodies, the shapes
 * of object schemas. Nothing here restates a schema of the contract.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { INT64_MAX, INT64_MIN, isInt64Projection, validationView, type JsonValue } from './json.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type Schema = Record<string, unknown>;

export interface ValidationIssue {
  /** The field, as a dotted path (`id`, `tags.0`), or `body` for the whole value. */
  readonly field: string;
  readonly message: string;
}

export interface Validation {
  readonly valid: boolean;
  readonly issues: readonly ValidationIssue[];
}

export type BodyValidator = (value: JsonValue) => Validation;

export interface SecurityScheme {
  readonly name: string;
  readonly type: string;
  readonly scheme?: string;
}

export interface ResponseContract {
  /** An HTTP status, or a range such as `4XX`, or `default`. */
  readonly status: string;
  readonly description: string;
  readonly mediaTypes: readonly string[];
  /** Validates an application/json body; undefined when the response declares no JSON body. */
  readonly validateBody: BodyValidator | undefined;
  readonly schema: Schema | undefined;
  /** Declared headers, by lower-case name. */
  readonly headers: ReadonlyMap<string, { readonly required: boolean }>;
}

export interface RequestBodyContract {
  readonly required: boolean;
  readonly mediaTypes: readonly string[];
  readonly schema: Schema;
  readonly validate: BodyValidator;
  readonly shape: ObjectShape;
}

export interface OperationContract {
  readonly operationId: string;
  /** Upper case. */
  readonly method: string;
  readonly path: string;
  /** Alternatives, each a list of schemes that must all hold (OpenAPI's security requirement). */
  readonly security: readonly (readonly SecurityScheme[])[];
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

export interface Contract {
  readonly file: string;
  readonly document: Schema;
  readonly title: string;
  readonly version: string;
  readonly operations: readonly OperationContract[];
  /** The operation for a method and a concrete path, if one is declared. */
  findOperation(method: string, path: string): OperationContract | undefined;
  /** The methods declared for a concrete path (upper case), or undefined when no path matches. */
  methodsFor(path: string): readonly string[] | undefined;
  /** A schema with `$ref`s followed, e.g. `resolve({ $ref: '#/components/schemas/Plant' })`. */
  resolve(schema: Schema): Schema;
  shapeOf(schema: Schema): ObjectShape;
  /** A validator for a named schema under components/schemas. */
  validatorForComponent(name: string): BodyValidator;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const DOCUMENT_ID = 'urn:plant-store-kit:openapi';

function asRecord(value: unknown): Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

function decodePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

function encodePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Compiles a parsed OpenAPI 3.1 document. Exported for tests that feed modified contracts. */
export function compileContract(document: Schema, file = '<memory>'): Contract {
  const ajv = new Ajv2020({ allErrors: true, strictSchema: false, validateFormats: true });
  addFormats(ajv);
  // ajv-formats' int64 only checks for an integer; with projected numbers the range is exact.
  ajv.addFormat('int64', { type: 'number', validate: isInt64Projection });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });

  const compiled = new Map<string, BodyValidator>();
  const validatorAt = (pointer: string): BodyValidator => {
    let validator = compiled.get(pointer);
    if (!validator) {
      const validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validator = (value) => runValidator(validate, value);
      compiled.set(pointer, validator);
    }
    return validator;
  };

  // The document does not change once loaded: a $ref and a shape are worked out once (the
  // conformance engine asks for them on every exchange).
  const looked = new Map<string, Schema>();
  const lookup = (ref: string): Schema => {
    const known = looked.get(ref);
    if (known) return known;
    if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
    let node: unknown = document;
    for (const segment of ref.slice(1).split('/').filter(Boolean)) node = asRecord(node)[decodePointerSegment(segment)];
    if (node === undefined) throw new Error(`$ref ${ref} does not resolve`);
    const found = asRecord(node);
    looked.set(ref, found);
    return found;
  };
  const resolveSchema = (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw new Error(`$ref cycle at ${String(schema.$ref)}`);
      current = lookup(current.$ref);
    }
    return current;
  };
  const pointerOf = (schema: Schema, fallback: string): string => (typeof schema.$ref === 'string' && schema.$ref.startsWith('#') ? schema.$ref.slice(1) : fallback);

  const shapes = new WeakMap<Schema, ObjectShape>();
  const shapeOf = (schema: Schema): ObjectShape => {
    const known = shapes.get(schema);
    if (known) return known;
    const properties = new Map<string, Schema>();
    const required = new Set<string>();
    let additionalProperties = true;
    const visit = (node: Schema, depth: number): void => {
      if (depth > 32) throw new Error('allOf/$ref nesting too deep');
      const resolved = resolveSchema(node);
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

  const schemes = asRecord(asRecord(document.components).securitySchemes);
  const securityOf = (requirements: unknown): SecurityScheme[][] =>
    (Array.isArray(requirements) ? requirements : []).map((requirement) =>
      Object.keys(asRecord(requirement)).map((name) => {
        const scheme = asRecord(schemes[name]);
        return { name, type: String(scheme.type), ...(typeof scheme.scheme === 'string' ? { scheme: scheme.scheme.toLowerCase() } : {}) };
      }),
    );

  const operations: OperationContract[] = [];
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    for (const method of HTTP_METHODS) {
      const operation = asRecord(asRecord(item)[method]);
      if (Object.keys(operation).length === 0) continue;
      const base = `/paths/${encodePointerSegment(path)}/${method}`;
      const body = asRecord(resolveSchema(asRecord(operation.requestBody)));
      const bodyContent = asRecord(body.content);
      const jsonBody = asRecord(bodyContent['application/json']);
      let requestBody: RequestBodyContract | undefined;
      if (Object.keys(body).length > 0 && jsonBody.schema !== undefined) {
        const schema = asRecord(jsonBody.schema);
        requestBody = {
          required: body.required === true,
          mediaTypes: Object.keys(bodyContent),
          schema,
          validate: validatorAt(pointerOf(schema, `${base}/requestBody/content/application~1json/schema`)),
          shape: shapeOf(schema),
        };
      }
      const responses: ResponseContract[] = Object.entries(asRecord(operation.responses)).map(([status, raw]) => {
        const response = resolveSchema(asRecord(raw));
        const content = asRecord(response.content);
        const json = asRecord(content['application/json']);
        const schema = json.schema === undefined ? undefined : asRecord(json.schema);
        const headers = new Map<string, { required: boolean }>();
        for (const [name, header] of Object.entries(asRecord(response.headers))) headers.set(name.toLowerCase(), { required: resolveSchema(asRecord(header)).required === true });
        return {
          status,
          description: typeof response.description === 'string' ? response.description : '',
          mediaTypes: Object.keys(content),
          schema,
          validateBody: schema && validatorAt(pointerOf(schema, `${base}/responses/${status}/content/application~1json/schema`)),
          headers,
        };
      });
      const declaredStatuses = responses.map((r) => Number(r.status)).filter(Number.isInteger).sort((a, b) => a - b);
      operations.push({
        operationId: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        security: securityOf(operation.security ?? document.security),
        requestBody,
        responses,
        declaredStatuses,
        response: (status) =>
          responses.find((r) => r.status === String(status)) ??
          responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
          responses.find((r) => r.status === 'default'),
      });
    }
  }

  const templates = [...new Set(operations.map((o) => o.path))].map((path) => ({
    path,
    pattern: new RegExp('^' + path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+') + '$'),
  }));
  // A path without parameters is found by a lookup: the one operation of the Plant Store on every request.
  const literal = new Map(templates.filter((t) => !t.path.includes('{')).map((t) => [t.path, t.path]));
  const matchPath = (path: string): string | undefined => literal.get(path) ?? templates.find((t) => t.pattern.test(path))?.path;
  const byMethodAndPath = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  const info = asRecord(document.info);

  return {
    file,
    document,
    title: String(info.title),
    version: String(info.version),
    operations,
    findOperation: (method, path) => {
      const template = matchPath(path);
      return template === undefined ? undefined : byMethodAndPath.get(`${method.toUpperCase()} ${template}`);
    },
    methodsFor: (path) => {
      const template = matchPath(path);
      return template === undefined ? undefined : operations.filter((o) => o.path === template).map((o) => o.method);
    },
    resolve: resolveSchema,
    shapeOf,
    validatorForComponent: (name) => {
      if (!(name in asRecord(asRecord(document.components).schemas))) throw new Error(`no schema ${name} in the contract`);
      return validatorAt(`/components/schemas/${encodePointerSegment(name)}`);
    },
  };
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
