/**
 * `media-bodies`: request bodies in every declared media type other than application/json (issue
 * 29) - a form, multipart with a file part, text, bytes, a `+json` type - each written by the
 * kit's codec of that type, valid and invalid against the variant's schema (every schema probe:
 * a field out of its range, a required part missing), and each valid one sent under a media type
 * the operation does not declare. Each request is judged as the contract reads it
 * (tables/media-bodies.ts), so the checks need nothing new: a valid one must be accepted
 * (`accepts-valid`) and echoed (`echo`), an invalid one refused with a declared 4xx
 * (`rejects-invalid`). An operation with only JSON bodies gets none of these requests.
 */
import fc from 'fast-check';
import type { RequestCase } from '../../../oracle/index.js';
import { mediaArbitrary, mediaCoverage, otherMediaVariants, type MediaBody } from '../tables/media-bodies.js';
import type { OperationContext } from '../tables/operation-context.js';
import { operationKind } from './kind.js';

function caseOf(context: OperationContext, body: MediaBody, values = context.plainParameters(0)): RequestCase {
  return context.make({ kind: 'media-bodies', variant: body.variant, content: body.valid ? 'valid' : 'invalid', auth: context.validAuth, values, body: { contentType: body.contentType, bytes: body.bytes }, tags: body.tags });
}

export const mediaBodies = operationKind({
  name: 'media-bodies',
  description: 'bodies in every declared media type but application/json (a form, multipart with a file part, text, bytes, +json), valid and invalid against their schemas, and each under an undeclared Content-Type',
  weight: 20,
  random: (context) => {
    const variants = otherMediaVariants(context.operation);
    if (variants.length === 0) return undefined;
    return fc.tuple(fc.oneof(...variants.map((variant) => mediaArbitrary(context.schemas, context.operation, variant))), context.parameters).map(([body, values]) => caseOf(context, body, values));
  },
  coverage: (context) => otherMediaVariants(context.operation).flatMap((variant) => mediaCoverage(context.contract, context.schemas, context.operation, variant).map((body) => caseOf(context, body))),
});
