/**
 * The overlap phase's requests (run/overlap.ts): distinct small valid plants, built from the
 * contract like the capacity phase's (capacity.ts), numbered clear of every other phase's, so that
 * none of them writes a resource another request is about.
 */
import type { Contract } from '../../src/openapi/index.js';
import { validCase } from './kinds/valid.js';
import { kindContext } from './tables/context.js';
import { NO_EXTRAS } from './tables/extras.js';
import type { Profile, RequestCase } from '../types.js';

/** `plainBody(n)` numbers of the phase: above the capacity phase's fill and replacements (capacity.ts). */
const OVERLAP_BASE = 500_000;

/** `count` distinct valid requests of the contract's first operation with a JSON request body. */
export function overlapCases(contract: Contract, options: { readonly token: string; readonly profile?: Profile }, count: number): RequestCase[] {
  const operation = contract.operations.find((o) => o.requestBody !== undefined);
  if (!operation) return [];
  const context = kindContext(contract, operation, { token: options.token, ...(options.profile === undefined ? {} : { profile: options.profile }) });
  const plain = { layout: 'compact' as const, mediaType: context.jsonTypes[0] ?? 'application/json', auth: context.validAuth, extras: NO_EXTRAS };
  return Array.from({ length: count }, (_, i) => validCase(context, { ...plain, model: context.plainBody(OVERLAP_BASE + i), what: `overlap: plant ${i + 1} of ${count}, sent while others are in flight` }));
}
