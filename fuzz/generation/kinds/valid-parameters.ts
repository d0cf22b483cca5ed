/**
 * `valid-parameters`: requests of every operation with valid parameters - path, query and header
 * values drawn from their schemas, int64 digit for digit - valid credentials, and a plain valid
 * body only where the operation declares one. The random phase sends the operations without a
 * body (`valid` sends those with one); the coverage phase every operation's plain request, every
 * parameter probe the contract accepts, and every other spelling of a valid value (`1.0`, `+1`),
 * which the server may read or refuse (tables/parameter-probes.ts, oracle/parameter-spellings.ts).
 */
import type { RequestCase } from '../../../oracle/index.js';
import { parameterProbes } from '../tables/parameter-probes.js';
import { operationKind } from './kind.js';

export const validParameters = operationKind({
  name: 'valid-parameters',
  description: 'requests of every operation with valid path, query and header parameters drawn from their schemas (int64 digit for digit), a body only where one is declared',
  weight: 20,
  random: (context) => {
    if (context.operation.requestBody !== undefined) return undefined;
    return context.parameters.map((values) => context.make({ kind: 'valid-parameters', variant: `valid parameters of ${context.operation.operationId}`, content: 'valid', auth: context.validAuth, values }));
  },
  coverage: (context) => {
    // An operation with a body and no parameter is `valid`'s to cover.
    if (context.operation.requestBody !== undefined && context.operation.parameters.length === 0) return [];
    const base = { kind: 'valid-parameters', content: 'valid' as const, auth: context.validAuth };
    const cases: RequestCase[] = [context.make({ ...base, variant: `plain parameters of ${context.operation.operationId}`, values: context.plainParameters(0) })];
    for (const probe of parameterProbes(context).filter((p) => p.valid || p.open !== undefined)) {
      cases.push(context.make({ ...base, variant: probe.variant, values: probe.values, tags: [probe.tag], ...(probe.open === undefined ? {} : { open: probe.open }) }));
    }
    return cases;
  },
});

