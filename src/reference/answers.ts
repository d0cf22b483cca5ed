/**
 * What the reference answers to each operation of its contract. The operations of the store's
 * resource patterns (src/openapi/resources.ts) are stateful (resource-answers.ts, lists.ts): the
 * collection's create and list, an item's read, replace, update and delete. Every other operation
 * is answered from the contract's examples, as the mock would; an operation without one with a
 * value generated from its success's schema once, at start-up (generated.ts), the same for a seed.
 * docs/reference-server.md has the conventions.
 */
import { generateValue, negotiate, placeholderBody, resourcePatterns, successStatuses, serialiseBody, stringifyJson, withoutWriteOnly, type Contract, type JsonValue, type MediaVariant, type OperationContract, type ResourcePattern, type ResourceRole } from '../openapi/portable.js';
import { chooseVariant, JSON_HEADERS, PlantStoreError } from '../http/portable.js';
import { listAnswer, listShape } from './lists.js';
import { createAnswer, itemAnswer, parentCheck, replaceAnswer, success, successOf, updateAnswer, type OperationAnswer } from './resource-answers.js';

export type { OperationAnswer, StoreAdmitted } from './resource-answers.js';

/** How the reference answers its contract: each operation's answer, and which come from examples. */
export interface ReferencePlan {
  readonly answers: ReadonlyMap<OperationContract, OperationAnswer>;
  readonly patterns: readonly ResourcePattern[];
  /** Operations whose answer reads the request's Content-Type (an update: merge patch or partial object). */
  readonly readsContentType: ReadonlySet<OperationContract>;
  /** Operations outside the pattern, answered from the contract's examples (named at start-up). */
  readonly fromExamples: readonly OperationContract[];
  /** Operations outside the pattern without an example, answered with a value generated from their schema (named at start-up). */
  readonly generated: readonly OperationContract[];
  /** Those of `generated` whose value the response's validator refuses (a `pattern`, say): answered all the same, and named. */
  readonly invalid: readonly OperationContract[];
  /** Operations whose success's example breaks its own schema: not answered with it (named at start-up). */
  readonly brokenExamples: readonly OperationContract[];
}

export interface PlanOptions {
  /** Seed of the generated answers: the same seed, the same answers (generated.ts's default otherwise). */
  readonly seed?: string | undefined;
}

/** A JSON example as the reference answers it: without the properties its schema marks `writeOnly`. */
function answeredExample(contract: Contract, variant: MediaVariant): JsonValue {
  const example = variant.example ?? null;
  return variant.codec.name === 'json' && variant.schema !== undefined ? withoutWriteOnly(example, variant.schema, (ref) => contract.resolve({ $ref: ref })) : example;
}

/**
 * An operation's first success with an example (or with no content), answered as it is; undefined
 * when it has none. Where the success offers several media types with examples, the request's
 * Accept picks one (RFC 9110, section 12.5.1; the pipeline has refused a request none fits).
 */
function exampleAnswer(contract: Contract, operation: OperationContract): OperationAnswer | undefined {
  for (const status of successStatuses(operation).filter((s) => operation.declaredStatuses.includes(s))) {
    const response = operation.response(status);
    const exemplified = (response?.variants ?? []).filter((variant) => variant.example !== undefined && keepsItsSchema(contract, variant));
    const [only] = exemplified;
    if (only !== undefined && exemplified.length === 1 && only.essence === 'application/json') {
      const text = stringifyJson(answeredExample(contract, only));
      return () => success(status, true, text);
    }
    if (only !== undefined) return negotiatedExample(contract, status, exemplified);
    // A success without content; one whose content has no example is generated (generatedAnswer, labelledAnswer).
    if (response === undefined || response.variants.length === 0) return () => success(status, false, '');
  }
  return undefined;
}

/** Whether a media type's example, as the reference would answer it, is valid against its schema (where the kit checks one). */
function keepsItsSchema(contract: Contract, variant: MediaVariant): boolean {
  return variant.validate === undefined || variant.validate(answeredExample(contract, variant)).valid;
}

/**
 * The operations whose success has an example that breaks its own schema (a JSON array written
 * as a string, say): the contract contradicts itself, and the reference answers with a value
 * generated from the schema instead (named at start-up), so that a conformance run of it judges
 * the schema, which an example only illustrates.
 */
function brokenExamples(contract: Contract, operation: OperationContract): boolean {
  return successStatuses(operation).some((status) => operation.declaredStatuses.includes(status) && (operation.response(status)?.variants ?? []).some((variant) => variant.example !== undefined && !keepsItsSchema(contract, variant)));
}

/** The examples of a success's media types, the one the client accepts answered with its type. */
function negotiatedExample(contract: Contract, status: number, variants: readonly MediaVariant[]): OperationAnswer {
  return ({ accept }) => {
    const chosen = chooseVariant(variants, accept);
    if (chosen === undefined) {
      const offered = variants.map((variant) => variant.mediaType).join(', ');
      return new PlantStoreError('not_acceptable', `accept: ${accept ?? ''} matches none of the media types this operation has examples of (${offered})`);
    }
    const example = answeredExample(contract, chosen.variant);
    // An example of a range (`*` + `/*`) that is JSON goes out as JSON where the client takes it.
    const mediaType = chosen.variant.essence.includes('*') && typeof example !== 'string' && negotiate(accept, ['application/json']) !== undefined ? 'application/json' : chosen.mediaType;
    // A form's example (an object) is written as its codec writes it, with any parameter it adds (a boundary).
    if (chosen.variant.codec.fields === true && typeof example !== 'string') {
      const { contentType, bytes } = serialiseBody(chosen.variant.codec, mediaType, example, chosen.variant.fields);
      return { status, headers: { 'content-type': contentType }, body: new TextDecoder().decode(bytes) };
    }
    const text = typeof example === 'string' && chosen.variant.codec.name !== 'json' ? example : stringifyJson(example);
    // Text is written as UTF-8 (the socket layer's encoding), and says so (RFC 9110, section 8.3.2).
    return { status, headers: { 'content-type': mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType }, body: text };
  };
}

function statefulAnswer(contract: Contract, patterns: readonly ResourcePattern[], pattern: ResourcePattern, role: ResourceRole, operation: OperationContract): OperationAnswer | undefined {
  switch (role) {
    case 'create':
      return createAnswer(contract, pattern, operation, parentCheck(patterns, pattern, operation));
    case 'list': {
      // A list is an array of items, or an envelope holding one; a list shaped otherwise is answered from its examples.
      const shape = listShape(contract, pattern, operation);
      return shape === undefined ? undefined : listAnswer(contract, pattern, operation, shape, parentCheck(patterns, pattern, operation));
    }
    case 'replace':
      return replaceAnswer(contract, pattern, operation, parentCheck(patterns, pattern, operation));
    case 'update':
      // A JSON Patch (RFC 6902, an array of operations) is not an item's members: answered from examples.
      return operation.requestBody?.variants.some((variant) => variant.codec.name === 'json' && variant.essence !== 'application/json-patch+json') === true ? updateAnswer(contract, pattern, operation) : undefined;
    default:
      return itemAnswer(pattern, role, operation);
  }
}

/**
 * The answer of an operation with neither pattern nor example: its lowest declared 2xx, with a
 * body generated from the schema of its JSON media type (its first), once; no body where it
 * declares no JSON content. `valid` is false where the validator refuses the generated value.
 */
function generatedAnswer(contract: Contract, operation: OperationContract, seed: string | undefined): { answer: OperationAnswer; valid: boolean } {
  const { status } = successOf(operation);
  const response = operation.response(status);
  const variant = response?.variants.find((candidate) => candidate.codec.name === 'json');
  if (response !== undefined && variant === undefined) {
    const written = writtenAnswer(contract, operation, response.variants, status, seed);
    if (written !== undefined) return written;
    const labelled = labelledAnswer(contract, response.variants, status);
    if (labelled !== undefined) return { answer: labelled, valid: true };
  }
  if (response === undefined || variant === undefined) return { answer: () => success(status, false, ''), valid: true };
  const validate = variant.validate ?? response.validateBody;
  const { value, valid } = generateValue(variant.schema ?? {}, { resolve: (schema) => contract.resolve(schema), seed: `${seed ?? ''}:${operation.method} ${operation.path}`, validate });
  const text = stringifyJson(value);
  // A range (`application/*`) answers as JSON itself.
  const headers = variant.essence.includes('*') || variant.essence === 'application/json' ? JSON_HEADERS : { 'content-type': variant.mediaType };
  return { answer: () => ({ status, headers, body: text }), valid };
}

/** Media types whose codec writes a value generated from their schema as text: text by its schema, forms, multipart. */
const WRITTEN = new Set(['text', 'form', 'multipart']);

/**
 * The generated answer of an operation whose success offers no JSON: a value of the first media
 * type the kit writes as text (text/plain by its schema, a form), written by its codec; undefined
 * where it offers none (XML, bytes: labelledAnswer).
 */
function writtenAnswer(contract: Contract, operation: OperationContract, variants: readonly MediaVariant[], status: number, seed: string | undefined): { answer: OperationAnswer; valid: boolean } | undefined {
  const variant = variants.find((candidate) => WRITTEN.has(candidate.codec.name) && !candidate.essence.includes('*'));
  if (variant === undefined) return undefined;
  const { value, valid } = generateValue(variant.schema ?? { type: 'string' }, { resolve: (schema) => contract.resolve(schema), seed: `${seed ?? ''}:${operation.method} ${operation.path}`, ...(variant.validate === undefined ? {} : { validate: variant.validate }) });
  const { contentType, bytes } = serialiseBody(variant.codec, variant.mediaType, value, variant.fields);
  const headers = { 'content-type': contentType.startsWith('text/') && !/charset=/i.test(contentType) ? `${contentType}; charset=utf-8` : contentType };
  const body = new TextDecoder().decode(bytes);
  return { answer: () => ({ status, headers, body }), valid };
}

/**
 * The answer of a success whose media types the kit neither checks nor writes from a schema (XML,
 * bytes, an image) and that has no example: the type the client's Accept picks, as its
 * Content-Type (the contract declares content of that type), with no bytes - or, for XML, the
 * smallest well-formed document (an empty root element), since empty text is no XML document.
 */
function labelledAnswer(contract: Contract, variants: readonly MediaVariant[], status: number): OperationAnswer | undefined {
  const concrete = variants.filter((variant) => !variant.essence.includes('*'));
  if (concrete.length === 0) return undefined;
  return ({ accept }) => {
    const chosen = chooseVariant(concrete, accept);
    if (chosen === undefined) return new PlantStoreError('not_acceptable', `accept: ${accept ?? ''} matches none of this operation's media types (${concrete.map((variant) => variant.mediaType).join(', ')})`);
    return { status, headers: { 'content-type': chosen.mediaType }, body: placeholderBody(contract, chosen.variant) };
  };
}

/** Each operation's answer: the store's pattern, else the contract's examples, else a generated value. Never refuses. */
export function planReference(contract: Contract, options: PlanOptions = {}): ReferencePlan {
  const patterns = resourcePatterns(contract);
  const answers = new Map<OperationContract, OperationAnswer>();
  const readsContentType = new Set<OperationContract>();
  for (const pattern of patterns) {
    for (const [role, operation] of pattern.operations) {
      const answer = statefulAnswer(contract, patterns, pattern, role, operation);
      if (answer) answers.set(operation, answer);
      if (answer && role === 'update') readsContentType.add(operation);
    }
  }
  const fromExamples: OperationContract[] = [];
  const generated: OperationContract[] = [];
  const invalid: OperationContract[] = [];
  const broken: OperationContract[] = [];
  for (const operation of contract.operations.filter((candidate) => !answers.has(candidate))) {
    if (brokenExamples(contract, operation)) broken.push(operation);
    const answer = exampleAnswer(contract, operation);
    if (answer) {
      answers.set(operation, answer);
      fromExamples.push(operation);
      continue;
    }
    const made = generatedAnswer(contract, operation, options.seed);
    answers.set(operation, made.answer);
    generated.push(operation);
    if (!made.valid) invalid.push(operation);
  }
  return { answers, patterns, readsContentType, fromExamples, generated, invalid, brokenExamples: broken };
}
