/**
 * The overlap phase's requests (run/overlap.ts): distinct small valid plants, built from the
 * contract like the capacity phase's (capacity.ts), numbered clear of every other phase's, so that
 * none of them writes a resource another request is about; and writes of one resource meant to be
 * in flight together (`sameResourceCases`).
 */
import type { Contract } from '../../src/openapi/index.js';
import { validCase, withKeysOf } from './kinds/valid.js';
import { readAfterWrites, walksOf } from './sequences.js';
import { kindContext, operationAuth } from './tables/context.js';
import { asSent, declaresJson, otherMediaVariants, writeBody } from './tables/media-bodies.js';
import { operationContext } from './tables/operation-context.js';
import { reachableOperations, type EngineCredentials } from './tables/scheme-credentials.js';
import { NO_EXTRAS } from './tables/extras.js';
import type { Profile, RequestCase } from '../../oracle/index.js';

/** `plainBody(n)` numbers of the phase: above the capacity phase's fill and replacements (capacity.ts). */
const OVERLAP_BASE = 500_000;

/**
 * `plainBody(n)` numbers of the writes of one resource: above the distinct plants', and apart for
 * each seed (RESOURCES_APART), so that a second run against the same store creates its resource
 * again (a store keeps what earlier runs wrote; a resource that exists shows no create race).
 */
const SAME_RESOURCE_BASE = OVERLAP_BASE + 10_000;
const RESOURCES_APART = 100_000;
const NUMBERS_PER_RESOURCE = 16;

type OverlapOptions = { readonly token: string; readonly profile?: Profile; readonly credentials?: EngineCredentials | undefined };

/** The context of the contract's first operation with a JSON request body, and its plain spellings. */
function plainOf(contract: Contract, options: OverlapOptions) {
  // The overlap phase writes JSON bodies: an operation whose body is only a form or multipart is the other phases' (media-bodies).
  const operation = reachableOperations(contract, options).find(declaresJson);
  if (!operation) return undefined;
  const context = kindContext(contract, operation, { token: options.token, ...(options.profile === undefined ? {} : { profile: options.profile }), ...(options.credentials === undefined ? {} : { credentials: options.credentials }) });
  return { context, plain: { layout: 'compact' as const, mediaType: context.jsonTypes[0] ?? 'application/json', auth: context.validAuth, extras: NO_EXTRAS } };
}

/** `count` distinct valid requests of the contract's first operation with a JSON request body. */
export function overlapCases(contract: Contract, options: OverlapOptions, count: number): RequestCase[] {
  const made = plainOf(contract, options);
  if (made === undefined) return mediaOverlapCases(contract, options, count);
  const { context, plain } = made;
  return Array.from({ length: count }, (_, i) => validCase(context, { ...plain, model: context.plainBody(OVERLAP_BASE + i), what: `overlap: plant ${i + 1} of ${count}, sent while others are in flight` }));
}

/**
 * `count` distinct valid requests of the contract's first operation whose body is another media
 * type (a form, a multipart upload), each written by its codec: where no operation takes JSON.
 */
function mediaOverlapCases(contract: Contract, options: OverlapOptions, count: number): RequestCase[] {
  const operation = reachableOperations(contract, options).find((o) => otherMediaVariants(o).length > 0);
  const variant = operation === undefined ? undefined : otherMediaVariants(operation)[0];
  if (operation === undefined || variant === undefined) return [];
  const base = { token: options.token, profile: options.profile ?? 'reference', ...(options.credentials === undefined ? {} : { credentials: options.credentials }) };
  const context = operationContext(contract, operation, { ...base, ...operationAuth(operation, base) });
  return Array.from({ length: count }, (_, i) => {
    const n = OVERLAP_BASE + i;
    const what = `overlap: plant ${i + 1} of ${count} (${variant.mediaType}), sent while others are in flight`;
    const body = asSent(operation, writeBody(variant, context.schemas.plain(variant.schema ?? {}, n), n, what));
    return context.make({ kind: 'media-bodies', variant: what, content: body.valid ? 'valid' : 'invalid', auth: context.validAuth, values: context.plainParameters(0), body });
  });
}

/**
 * `groups` groups of `size` valid writes of one resource (the same integer properties, other names
 * and tags), for the groups to be sent one after the other, each all in flight at once: the first
 * creates the resource (a check-then-insert race shows), the others replace it. Each write names
 * its group's others as `rivals`. None where the body has no integer property to share. The
 * resource depends on the seed (a replay with the seed writes it again).
 */
export function sameResourceCases(contract: Contract, options: OverlapOptions & { readonly seed: number }, groups: number, size: number): RequestCase[] {
  const made = plainOf(contract, options);
  if (made === undefined || made.context.integerKeys.length === 0 || groups * size >= NUMBERS_PER_RESOURCE) return [];
  const { context, plain } = made;
  const base = SAME_RESOURCE_BASE + (Math.abs(options.seed) % RESOURCES_APART) * NUMBERS_PER_RESOURCE;
  const key = context.plainBody(base);
  return Array.from({ length: groups }, (_, g) => {
    const writes = Array.from({ length: size }, (_, i) => {
      const what = `overlap: write ${i + 1} of ${size} of one ${context.integerKeys.join(', ')}, in flight together (${g === 0 ? 'creating it' : 'replacing it'})`;
      return validCase(context, { ...plain, model: withKeysOf(context.plainBody(base + 1 + g * size + i), key, context.integerKeys), what });
    });
    return writes.map((write) => ({ ...write, rivals: writes.filter((other) => other !== write).map((other) => other.body) }));
  }).flat();
}

/**
 * A read of the resource `sameResourceCases` wrote, through the contract's link (or its
 * collection/item pattern) from the operation, to send after the last group: it must answer one of
 * that group's writes. None where there is no such read, or for a mock (it stores nothing).
 */
export function readAfterCase(contract: Contract, options: OverlapOptions, lastGroup: readonly RequestCase[]): RequestCase | undefined {
  const operation = reachableOperations(contract, options).find(declaresJson);
  const walk = walksOf(contract).find((w) => w.create.method === operation?.method && w.create.path === operation.path && w.read !== undefined);
  if (walk === undefined || options.profile === 'mock') return undefined;
  return readAfterWrites(contract, walk, lastGroup.map((write) => Buffer.from(write.body).toString('utf8')), { token: options.token, profile: options.profile ?? 'reference', ...(options.credentials === undefined ? {} : { credentials: options.credentials }) });
}
