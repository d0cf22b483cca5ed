/**
 * The registry of request kinds, and the requests of a run built from it: `requestArbitrary` for
 * the random phase (each kind by its weight), `coverageCases` for the coverage phase (every kind's
 * list, in registry order). Adding a kind is one file in this folder and one line here.
 */
import fc from 'fast-check';
import { loadContract, type Contract, type OperationContract } from '../../../src/openapi/index.js';
import type { JsonModel } from '../json-text.js';
import { SchemaArbitraries } from '../schema-arbitraries.js';
import { openPatchResult, operationOf, type Profile, type RequestCase } from '../../../oracle/index.js';
import { badAuth } from './bad-auth.js';
import { badMediaType } from './bad-media-type.js';
import { kindContext, operationAuth, type KindContext } from '../tables/context.js';
import type { EngineCredentials } from '../tables/scheme-credentials.js';
import { doubleFault } from './double-fault.js';
import { invalidBody } from './invalid-body.js';
import type { RequestKind } from './kind.js';
import { badAuthNoBody } from './bad-auth-no-body.js';
import { invalidParameter } from './invalid-parameter.js';
import { otherMethod } from './other-method.js';
import { targetSpellings } from './target-spellings.js';
import { validParameters } from './valid-parameters.js';
import { operationContext, type OperationContext } from '../tables/operation-context.js';
import { malformedJson } from './malformed-json.js';
import { valid } from './valid.js';
import { openTexts } from './open-texts.js';
import { framing } from './framing.js';
import { jsonWhitespace } from './json-whitespace.js';
import { mediaBodies } from './media-bodies.js';
import { declaresJson } from '../tables/media-bodies.js';

export const KINDS = [
  valid,
  invalidBody,
  malformedJson,
  badMediaType,
  badAuth,
  doubleFault,
  openTexts,
  jsonWhitespace,
  framing,
] as const satisfies readonly RequestKind[];

/** Kinds that send every operation, with or without a body, built from its parameters. */
export const OPERATION_KINDS = [
  validParameters,
  invalidParameter,
  badAuthNoBody,
  otherMethod,
  targetSpellings,
  mediaBodies,
] as const satisfies readonly RequestKind<string, OperationContext>[];

export type KindName = (typeof KINDS)[number]['name'] | (typeof OPERATION_KINDS)[number]['name'];
export const KIND_NAMES: readonly KindName[] = [...KINDS.map((kind) => kind.name), ...OPERATION_KINDS.map((kind) => kind.name)];

export interface GeneratorOptions {
  /** The bearer token the target accepts. Under the `mock` profile any well-formed token will do. */
  readonly token: string;
  readonly profile?: Profile;
  /** Only these kinds of request (all by default). */
  readonly kinds?: readonly string[];
  /** Relative frequency of each kind in the random phase; defaults to each kind's weight. */
  readonly weights?: Readonly<Record<string, number>>;
  /** The operation to target; by default every operation of the contract (those with a JSON body for the body's kinds). */
  readonly operation?: OperationContract;
  /** Credentials per scheme and plain header fields (scheme-credentials.ts). */
  readonly credentials?: EngineCredentials;
}

function operationsOf(contract: Contract, options: GeneratorOptions): readonly OperationContract[] {
  return options.operation ? [options.operation] : contract.operations;
}

function selected(options: GeneratorOptions): { body: RequestKind[]; operation: RequestKind<string, OperationContext>[] } {
  const unknown = options.kinds?.filter((name) => !(KIND_NAMES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) throw new RangeError(`unknown request kind ${unknown.join(', ')}; the kinds are ${KIND_NAMES.join(', ')}`);
  const wanted = (kind: { name: string }): boolean => options.kinds === undefined || options.kinds.includes(kind.name);
  return { body: KINDS.filter(wanted), operation: OPERATION_KINDS.filter(wanted) };
}

/** A context for each operation with a JSON body (the body's kinds) and one for every operation (the operation kinds). */
function contexts(contract: Contract, options: GeneratorOptions): { body: KindContext[]; operation: OperationContext[] } {
  const profile = options.profile ?? 'reference';
  const base = { token: options.token, profile, ...(options.credentials === undefined ? {} : { credentials: options.credentials }) };
  // An operation the run has no credentials for is not sent at all: the report lists it as not tested.
  const operations = operationsOf(contract, options).filter((operation) => operationAuth(operation, base).plan.kind !== 'unreachable');
  return {
    // The JSON kinds take the operations that declare application/json; media-bodies the other media types.
    body: operations.filter(declaresJson).map((operation) => kindContext(contract, operation, base)),
    operation: operations.map((operation) => operationContext(contract, operation, { ...base, ...operationAuth(operation, base) })),
  };
}

/**
 * The case, `open` where it is a valid PATCH whose result the engine cannot prove valid by the
 * item schema (openPatchResult: it does not know the stored item), its setup's likewise. Done
 * here, once for every kind, so that no kind demands a 2xx the contract leaves to the server.
 */
export function withPatchOpenness(contract: Contract, request: RequestCase): RequestCase {
  const setup = request.setup.map((step) => withPatchOpenness(contract, step));
  const changed = setup.some((step, index) => step !== request.setup[index]);
  const applies = request.content === 'valid' && request.credentials === 'valid' && request.open === undefined && request.link === undefined;
  const reason = applies ? openPatchResult(contract, operationOf(contract, request), request) : undefined;
  if (reason === undefined) return changed ? { ...request, setup } : request;
  return { ...request, setup, open: { reason, readings: [request.body] } };
}

/** Each kind's generator for a context, by its weight; none where it has nothing to send. */
function weighted<C>(contract: Contract, kinds: readonly RequestKind<string, C>[], context: C, options: GeneratorOptions): fc.WeightedArbitrary<RequestCase>[] {
  return kinds.flatMap((kind) => {
    const weight = options.weights?.[kind.name] ?? kind.weight;
    const arbitrary = weight > 0 ? kind.random(context) : undefined;
    return arbitrary === undefined ? [] : [{ weight, arbitrary: arbitrary.map((request) => withPatchOpenness(contract, request)) }];
  });
}

/**
 * Requests for the contract's operations, each kind by its weight (the default mix, out of 104:
 * 40 valid, 30 schema violations, 8 malformed JSON, 8 wrong media types, 14 bad credentials, 4
 * double faults). Shrinks
 * towards small, plain, valid-looking requests.
 */
export function requestArbitrary(contract: Contract = loadContract(), options: GeneratorOptions): fc.Arbitrary<RequestCase> {
  const kinds = selected(options);
  const all = contexts(contract, options);
  // One choice per operation, each as likely as the others: the random phase mixes operations.
  const byOperation = new Map<OperationContract, fc.WeightedArbitrary<RequestCase>[]>();
  const add = (operation: OperationContract, choices: fc.WeightedArbitrary<RequestCase>[]): void => {
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), ...choices]);
  };
  for (const context of all.body) add(context.operation, weighted(contract, kinds.body, context, options));
  for (const context of all.operation) add(context.operation, weighted(contract, kinds.operation, context, options));
  const arbitraries = [...byOperation.values()].filter((choices) => choices.length > 0).map((choices) => fc.oneof(...choices));
  if (arbitraries.length === 0) throw new Error(`none of the kinds ${[...kinds.body, ...kinds.operation].map((k) => k.name).join(', ')} can be generated for the contract's operations`);
  return arbitraries.length === 1 ? (arbitraries[0] as fc.Arbitrary<RequestCase>) : fc.oneof(...arbitraries);
}

/** The coverage phase's requests: every kind's deterministic list, the same for every seed. */
export function coverageCases(contract: Contract = loadContract(), options: GeneratorOptions): RequestCase[] {
  const kinds = selected(options);
  const all = contexts(contract, options);
  const cases = [...all.body.flatMap((context) => kinds.body.flatMap((kind) => kind.coverage(context))), ...all.operation.flatMap((context) => kinds.operation.flatMap((kind) => kind.coverage(context)))];
  return cases.map((request) => withPatchOpenness(contract, request));
}

/** Valid request bodies (as JSON models) for an operation: what `valid` requests carry. */
export function validBodyArbitrary(contract: Contract, operation: OperationContract): fc.Arbitrary<JsonModel> {
  if (!operation.requestBody) throw new Error(`${operation.operationId} takes no body`);
  return new SchemaArbitraries(contract).valid(operation.requestBody.schema);
}

export { caseSpellings, mediaTypeSpellings, type CaseSpec, type KindContext } from '../tables/context.js';
export type { AuthSpelling } from '../tables/credential-spellings.js';
export { REQUEST_EXTRAS, type RequestExtras } from '../tables/extras.js';
export { operationKind, requestKind, type RequestKind } from './kind.js';
