/**
 * `other-method`: on every path of the contract, each common method the path does not declare
 * (a target answers 405 with an Allow header listing the declared ones, RFC 9110, section
 * 15.5.6), and HEAD where GET is declared (answered as GET without content, section 9.3.2), with
 * valid credentials and the plain values of the path's parameters. Sent once a path, from its first
 * operation; `method-semantics` judges the answers.
 */
import fc from 'fast-check';
import { METHOD_TAG_PREFIX, type RequestCase } from '../../../oracle/index.js';
import type { OperationContext } from '../tables/operation-context.js';
import { operationKind } from './kind.js';

/**
 * Methods a client may send to any resource (RFC 9110, section 9.3; PATCH, RFC 5789). OPTIONS,
 * TRACE and CONNECT are left out: a server may answer OPTIONS for any resource (CORS), and the
 * others are not about the resource.
 */
export const COMMON_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];

function cases(context: OperationContext): RequestCase[] {
  const declared = [...context.contract.operationsAt(context.operation.path).keys()];
  // Once a path: from its first operation.
  if (declared[0] !== context.operation.method) return [];
  const values = context.plainParameters(0);
  const make = (method: string, variant: string): RequestCase => context.make({ kind: 'other-method', variant, content: 'valid', auth: context.validAuth, values, method, tags: [`${METHOD_TAG_PREFIX}${method}`] });
  return COMMON_METHODS.filter((method) => !declared.includes(method)).map((method) =>
    method === 'HEAD' ? (declared.includes('GET') ? make(method, `HEAD where GET is declared (${declared.join(', ')})`) : undefined) : make(method, `${method}, which the path does not declare (${declared.join(', ')})`),
  ).filter((c): c is RequestCase => c !== undefined);
}

export const otherMethod = operationKind({
  name: 'other-method',
  description: 'every common method a path does not declare (405 with Allow expected), and HEAD where GET is declared (GET without content expected)',
  // Coverage only: the same few requests whatever the seed, and the random phase's mix stays the body's and the parameters'.
  weight: 0,
  random: (context) => {
    const all = cases(context);
    return all.length === 0 ? undefined : fc.constantFrom(...all);
  },
  coverage: cases,
});
