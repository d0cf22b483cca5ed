/**
 * What a request kind is. Every kind is one file in this folder, registered by one line in
 * index.ts. A kind gives the random phase a generator (a fast-check arbitrary, shrinking towards
 * small, plain requests) and the coverage phase a list of deterministic requests - every variant
 * it knows, once, whatever the seed. Each request says what it is (`content`, `credentials`,
 * `lenient`), and the checks derive what a conforming target must answer from that alone, so a
 * new kind needs no change to any check.
 */
import type fc from 'fast-check';
import type { RequestCase } from '../../../oracle/index.js';
import type { VariantTable } from '../variants.js';
import type { KindContext } from '../tables/context.js';
import type { OperationContext } from '../tables/operation-context.js';

/**
 * A request kind. `C` is what it builds its requests from: an operation with a JSON request body
 * (KindContext, tables/context.ts), or, for a kind that sends every operation of the contract with
 * or without a body, the operation's parameters (OperationContext, tables/operation-context.ts).
 */
export interface RequestKind<N extends string = string, C = KindContext> {
  readonly name: N;
  /** One line, for the docs: what the kind sends. */
  readonly description: string;
  /** Its share of the random phase (relative to the other kinds' weights); 0 for coverage only. */
  readonly weight: number;
  /** The random phase's generator, or undefined when the kind has nothing to send for this operation or profile. */
  random(context: C): fc.Arbitrary<RequestCase> | undefined;
  /** The coverage phase's requests: the same list for every seed. */
  coverage(context: C): readonly RequestCase[];
  /**
   * The tables its random generator picks from, each entry as likely as its siblings; the requests
   * carry the tags of the entries they were drawn from (variants.ts). A sample of `random` reaches
   * every entry (test/fuzz/variants.test.ts).
   */
  variants?(context: C): readonly VariantTable[];
}

/** Keeps a kind's name a literal type, so the registry's names are a union. */
export function requestKind<const N extends string>(kind: RequestKind<N>): RequestKind<N> {
  return kind;
}

/** A kind built from the operation's parameters, for every operation (the name a literal type, as requestKind keeps it). */
export function operationKind<const N extends string>(kind: RequestKind<N, OperationContext>): RequestKind<N, OperationContext> {
  return kind;
}
