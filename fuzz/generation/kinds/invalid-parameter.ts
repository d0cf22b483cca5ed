/**
 * `invalid-parameter`: a request of an operation with one parameter wrong - of another type, out
 * of its bounds or format, a required one missing - and everything else valid (credentials, a
 * plain valid body where one is declared): a correct target refuses it with a declared 4xx. The
 * coverage phase sends every parameter probe the contract refuses (tables/parameter-probes.ts); the
 * random phase draws among them.
 */
import fc from 'fast-check';
import type { RequestCase } from '../../../oracle/index.js';
import type { OperationContext } from '../tables/operation-context.js';
import { parameterProbes } from '../tables/parameter-probes.js';
import { operationKind } from './kind.js';

function cases(context: OperationContext): RequestCase[] {
  return parameterProbes(context)
    .filter((p) => !p.valid && p.open === undefined)
    .map((probe, i) => context.make({ kind: 'invalid-parameter', variant: probe.variant, content: 'invalid', auth: context.validAuth, values: probe.values, n: i, tags: [probe.tag] }));
}

export const invalidParameter = operationKind({
  name: 'invalid-parameter',
  description: 'one path, query or header parameter wrong (another type, out of its bounds or format, a required one missing), everything else valid',
  weight: 10,
  random: (context) => {
    const all = cases(context);
    return all.length === 0 ? undefined : fc.constantFrom(...all);
  },
  coverage: cases,
});
