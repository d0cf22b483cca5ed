/**
 * Content negotiation for the kit's servers (RFC 9110, section 12.5.1): where an operation's
 * success response offers a choice of media types (or a type other than application/json), the
 * request's `Accept` picks one, and a request that accepts none of them is refused with 406
 * (section 15.5.7) before its body is read. An operation whose answer is application/json alone
 * answers it whatever Accept says, as the RFC allows ("disregard the header field"): the bundled
 * contract's answers do not change, and they cost no negotiation.
 */
import { negotiate, successStatuses, type Contract, type MediaVariant, type Negotiated, type OperationContract, type ResponseContract } from '../openapi/portable.js';
import { PlantStoreError } from './errors.js';
import { headerValue, type RequestHead } from './exchange.js';

/** How a verdict names the step that refuses a request no variant fits (after the parameters). */
export const NEGOTIATION_RULE = 'negotiation';

/** The success response of an operation (its lowest declared 2xx, else the redirect it declares alone: as the reference answers). */
export function successResponse(operation: OperationContract): ResponseContract | undefined {
  const status = successStatuses(operation).find((s) => operation.declaredStatuses.includes(s));
  return status === undefined ? undefined : operation.response(status);
}

/** Whether the answers of a response are negotiated: it offers several media types, or one other than application/json. */
export function isNegotiated(response: ResponseContract | undefined): boolean {
  const variants = response?.variants ?? [];
  return variants.length > 1 || (variants.length === 1 && variants[0]?.essence !== 'application/json');
}

/** The operations of a contract whose answers are negotiated, each with its success response; empty for the bundled contract. */
export function negotiatedOperations(contract: Contract): ReadonlyMap<OperationContract, ResponseContract> {
  const negotiated = new Map<OperationContract, ResponseContract>();
  for (const operation of contract.operations) {
    const response = successResponse(operation);
    if (response !== undefined && isNegotiated(response)) negotiated.set(operation, response);
  }
  return negotiated;
}

/** The variant of `variants` the Accept field picks, with the concrete media type to send; undefined when none fits. */
export function chooseVariant(variants: readonly MediaVariant[], accept: string | undefined): (Negotiated & { variant: MediaVariant }) | undefined {
  const chosen = negotiate(accept, variants.map((variant) => variant.mediaType));
  const variant = chosen && variants[chosen.index];
  return variant && { ...chosen, variant };
}

/** The 406 for a request whose Accept fits none of the response's media types, or undefined. */
export function notAcceptable(request: RequestHead, response: ResponseContract): PlantStoreError | undefined {
  const accept = headerValue(request.headers, 'accept');
  if (accept === undefined || chooseVariant(response.variants, accept) !== undefined) return undefined;
  const offered = response.variants.map((variant) => variant.mediaType).join(', ');
  return new PlantStoreError('not_acceptable', `accept: ${accept.length > 80 ? `${accept.slice(0, 80)}…` : accept} matches none of the media types this operation answers with (${offered})`);
}
