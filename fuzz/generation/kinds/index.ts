/**
 * The registry of request kinds, and the requests of a run built from it: `requestArbitrary` for
 * the random phase (each kind by its weight), `coverageCases` for the coverage phase (every kind's
 * list, in registry order). Adding a kind is one file in this folder and one line here.
 */
import fc from 'fast-check';
import { loadContract, type Contract, type OperationContract } from '../../../src/openapi/index.js';
import type { JsonModel } from '../json-text.js';
import { SchemaArbitraries } from '../schema-arbitraries.js';
import type { Profile, RequestCase } from '../../types.js';
import { badAuth } from './bad-auth.js';
import { badMediaType } from './bad-media-type.js';
import { kindContext, type KindContext } from '../tables/context.js';
import { doubleFault } from './double-fault.js';
import { invalidBody } from './invalid-body.js';
import type { RequestKind } from './kind.js';
import { malformedJson } from './malformed-json.js';
import { valid } from './valid.js';
import { openTexts } from './open-texts.js';
import { framing } from './framing.js';

export const KINDS = [
  valid,
  invalidBody,
  malformedJson,
  badMediaType,
  badAuth,
  doubleFault,
  openTexts,
  framing,
] as const satisfies readonly RequestKind[];

export type KindName = (typeof KINDS)[number]['name'];
export const KIND_NAMES: readonly KindName[] = KINDS.map((kind) => kind.name);

export interface GeneratorOptions {
  /** The bearer token the target accepts. Under the `mock` profile any well-formed token will do. */
  readonly token: string;
  readonly profile?: Profile;
  /** Only these kinds of request (all by default). */
  readonly kinds?: readonly string[];
  /** Relative frequency of each kind in the random phase; defaults to each kind's weight. */
  readonly weights?: Readonly<Record<string, number>>;
  /** The operation to target; by default every operation of the contract that takes a JSON body. */
  readonly operation?: OperationContract;
}

function operationsOf(contract: Contract, options: GeneratorOptions): OperationContract[] {
  const operations = options.operation ? [options.operation] : contract.operations.filter((o) => o.requestBody !== undefined && !o.path.includes('{')); // path parameters: the stateful phase's (sequences.ts) until the kinds send them
  if (operations.length === 0) throw new Error('the contract declares no operation with a JSON request body');
  return operations;
}

function selected(options: GeneratorOptions): RequestKind[] {
  const unknown = options.kinds?.filter((name) => !(KIND_NAMES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) throw new RangeError(`unknown request kind ${unknown.join(', ')}; the kinds are ${KIND_NAMES.join(', ')}`);
  return KINDS.filter((kind) => options.kinds === undefined || options.kinds.includes(kind.name));
}

function contexts(contract: Contract, options: GeneratorOptions): KindContext[] {
  return operationsOf(contract, options).map((operation) => kindContext(contract, operation, { token: options.token, ...(options.profile === undefined ? {} : { profile: options.profile }) }));
}

/**
 * Requests for the contract's operations, each kind by its weight (the default mix, out of 104:
 * 40 valid, 30 schema violations, 8 malformed JSON, 8 wrong media types, 14 bad credentials, 4
 * double faults). Shrinks
 * towards small, plain, valid-looking requests.
 */
export function requestArbitrary(contract: Contract = loadContract(), options: GeneratorOptions): fc.Arbitrary<RequestCase> {
  const kinds = selected(options);
  const arbitraries = contexts(contract, options).map((context) => {
    const choices = kinds.flatMap((kind) => {
      const weight = options.weights?.[kind.name] ?? kind.weight;
      const arbitrary = weight > 0 ? kind.random(context) : undefined;
      return arbitrary === undefined ? [] : [{ weight, arbitrary }];
    });
    if (choices.length === 0) throw new Error(`${context.operation.operationId}: none of the kinds ${kinds.map((k) => k.name).join(', ')} can be generated`);
    return fc.oneof(...choices);
  });
  return arbitraries.length === 1 ? (arbitraries[0] as fc.Arbitrary<RequestCase>) : fc.oneof(...arbitraries);
}

/** The coverage phase's requests: every kind's deterministic list, the same for every seed. */
export function coverageCases(contract: Contract = loadContract(), options: GeneratorOptions): RequestCase[] {
  const kinds = selected(options);
  return contexts(contract, options).flatMap((context) => kinds.flatMap((kind) => kind.coverage(context)));
}

/** Valid request bodies (as JSON models) for an operation: what `valid` requests carry. */
export function validBodyArbitrary(contract: Contract, operation: OperationContract): fc.Arbitrary<JsonModel> {
  if (!operation.requestBody) throw new Error(`${operation.operationId} takes no body`);
  return new SchemaArbitraries(contract).valid(operation.requestBody.schema);
}

export { caseSpellings, mediaTypeSpellings, type CaseSpec, type KindContext } from '../tables/context.js';
export type { AuthSpelling } from '../tables/credential-spellings.js';
export { REQUEST_EXTRAS, type RequestExtras } from '../tables/extras.js';
export { requestKind, type RequestKind } from './kind.js';
