/**
 * The stateful phase's plan: sequences along the contract's links (generation/sequences.ts), drawn
 * by fast-check from the run's seed - any one made again from its index, as the random phase's
 * cases are - at most STATEFUL_SEQUENCES of them and for STATEFUL_BUDGET_MS at most. A contract
 * with no link and no read (the bundled 1.0.0) gives no walk: the run has no stateful phase.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type { Contract, OperationContract } from '../../src/openapi/index.js';
import { resourceWalksOf, type CheckName, type Phase, type Profile, type RequestCase, type ResourceWalk } from '../../oracle/index.js';
import { resourceSequenceArbitrary, resourceShapesOf, type ResourceShape } from '../generation/resource-sequences.js';
import { reachableOperations } from '../generation/tables/scheme-credentials.js';
import { sequenceArbitrary, shapesOf, walksOf, type SequenceOptions, type SequenceShape, type Walk } from '../generation/sequences.js';
import type { PhasePlan, PlanItem } from './plan.js';

/** Sequences a run sends at most. */
export const STATEFUL_SEQUENCES = 60;
/** How long the phase starts new sequences for, at most. */
export const STATEFUL_BUDGET_MS = 15_000;

/**
 * Whether a run has the phase: by default where the contract has links (or a collection/item
 * pattern with a read) to walk and the target stores what it is sent (not a mock), so that a run
 * of the bundled 1.0.0 contract is as it was; always where the phases were asked for by name (it
 * then reports 0 requests).
 */
export function statefulRuns(contract: Contract, profile: Profile, asked: readonly Phase[] | undefined): boolean {
  return asked !== undefined || (profile !== 'mock' && (walksOf(contract).length > 0 || resourceChoices(contract).length > 0));
}

/**
 * The sequences of the resource patterns (oracle/resource-walks.ts) beyond what the links' walks
 * make: a server-assigned key, a nested collection, an update, a list. A pattern whose create is
 * walked along links already adds only its update and its list.
 */
export function resourceChoices(contract: Contract): { readonly walk: ResourceWalk; readonly shape: ResourceShape }[] {
  const walked = new Set(walksOf(contract).map((walk) => walk.create));
  return resourceWalksOf(contract).flatMap((walk) => {
    const create = walk.pattern.operations.get('create');
    return resourceShapesOf(walk, create !== undefined && walked.has(create)).map((shape) => ({ walk, shape }));
  });
}

/** The check that judges the read ending each shape of sequence. */
const CHECK_OF_SHAPE: Readonly<Record<SequenceShape | ResourceShape, CheckName>> = {
  read: 'resource-available',
  'delete-then-read': 'deleted-stays-deleted',
  'replace-then-read': 'replacement-visible',
  'update-then-read': 'update-visible',
  'list-after-create': 'listed-after-create',
  'create-with-key': 'server-assigns-key',
};

/** The operation a shape of sequence along links needs after its create, for people. */
const NEEDS: Readonly<Record<SequenceShape, string>> = { read: 'read', 'delete-then-read': 'delete', 'replace-then-read': 'replace (with a request body)' };

/** Why the resource patterns make no sequence of a shape only they make. */
const NO_PATTERN: Readonly<Record<Exclude<ResourceShape, SequenceShape>, string>> = {
  'update-then-read': 'no collection/item pattern has an update (PATCH with a JSON body) and a read',
  'list-after-create': 'no collection/item pattern has a list (GET of the collection)',
  'create-with-key': 'no collection/item pattern has a key the server assigns that a create may validly send (readOnly, or undeclared where other properties are allowed)',
};

const NO_WALK = 'the contract declares no read linked from a create, nor a collection/item pattern with a create and a read';

/**
 * The stateful checks the contract gives nothing to judge, each with why: no walk at all (no read
 * linked from a create, no collection/item pattern with one), or walks that make none of the
 * sequences the check ends. The target cannot change this; a check the walks allow but the run
 * did not reach is another matter (not exercised).
 */
export function statefulNotApplicable(contract: Contract): Partial<Record<CheckName, string>> {
  const walks = walksOf(contract);
  const resources = resourceChoices(contract);
  const made = new Set<SequenceShape | ResourceShape>([...walks.flatMap(shapesOf), ...resources.map((choice) => choice.shape)]);
  const reasons: Partial<Record<CheckName, string>> = {};
  for (const [shape, check] of Object.entries(CHECK_OF_SHAPE) as [SequenceShape | ResourceShape, CheckName][]) {
    if (made.has(shape)) continue;
    if (walks.length === 0 && resources.length === 0) reasons[check] = NO_WALK;
    else reasons[check] = shape in NEEDS ? `${whereWalked(walks)} no ${NEEDS[shape as SequenceShape]}` : NO_PATTERN[shape as Exclude<ResourceShape, SequenceShape>];
  }
  return reasons;
}

/** Where the walks come from, for a reason: the links, or the collection/item pattern. */
function whereWalked(walks: readonly Walk[]): string {
  return walks.some((walk) => !walk.inferred) ? "the create's links lead to" : 'the collection/item pattern (the contract declares no link) has';
}

/** The walks with only the steps the run has credentials for: a walk whose create it cannot send is dropped. */
function reachableWalks(walks: readonly Walk[], reachable: readonly OperationContract[]): Walk[] {
  const can = (target: { operation: OperationContract } | undefined): boolean => target === undefined || reachable.includes(target.operation);
  return walks
    .filter((walk) => reachable.includes(walk.create) && can(walk.read))
    .map((walk) => ({ ...walk, replace: can(walk.replace) ? walk.replace : undefined, remove: can(walk.remove) ? walk.remove : undefined }));
}

export function statefulPlan(contract: Contract, seed: number, options: SequenceOptions, budgetMs = STATEFUL_BUDGET_MS): PhasePlan {
  const reachable = reachableOperations(contract, options);
  const walks = reachableWalks(walksOf(contract), reachable);
  // A pattern whose create the run has no credentials for is not walked (the report lists it as not tested).
  const resources = resourceChoices(contract).filter(({ walk }) => [...walk.pattern.operations.values()].every((operation) => reachable.includes(operation)));
  const linked = walks.length === 0 ? undefined : sequenceArbitrary(contract, walks, options);
  const patterned = resources.length === 0 ? undefined : resourceSequenceArbitrary(contract, resources, options);
  // The links' sequences alone where the patterns add nothing: those runs draw what they drew before.
  const arbitrary: fc.Arbitrary<RequestCase> | undefined = linked !== undefined && patterned !== undefined ? fc.oneof(linked, patterned) : (linked ?? patterned);
  const total = arbitrary === undefined ? 0 : STATEFUL_SEQUENCES;
  const caseAt = (index: number): PlanItem | undefined => {
    if (arbitrary === undefined || index < 0 || index >= total) return undefined;
    // fast-check's `path` starts a sample at a run index: the same seed and index give the same sequence.
    const request = fc.sample(arbitrary, { seed, path: String(index), numRuns: 1 })[0];
    return request === undefined ? undefined : { index, request, fresh: false };
  };
  let at = 0;
  let deadline: number | undefined;
  return {
    phase: 'stateful',
    total: () => total,
    next: () => {
      deadline ??= performance.now() + budgetMs;
      return performance.now() < deadline ? caseAt(at++) : undefined;
    },
    caseAt,
  };
}
