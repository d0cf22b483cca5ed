/**
 * What a valid request may carry besides its body, credentials and media type, and still be the
 * same valid request: headers such as Accept and Accept-Encoding, a query string. A conforming
 * target answers it like any valid request (rule 1). Each extra is listed once here: the random
 * phase draws from the list and the coverage phase sends each one.
 */
import fc from 'fast-check';

export interface RequestExtras {
  /** Lower-case names; null takes a default header away. */
  readonly headers: Readonly<Record<string, string | null>>;
  /** Without `?`. */
  readonly query?: string;
  /** What is special, for people (`Accept: application/xml`); empty for none. */
  readonly note: string;
  /** Set when the contract lets a target refuse a request with this extra: the reason (see RequestCase.lenient). */
  readonly lenient?: string;
}

export const NO_EXTRAS: RequestExtras = { headers: {}, note: '' };

/** Every extra, each a variant of a valid request the coverage phase sends once. */
export const REQUEST_EXTRAS: readonly RequestExtras[] = [];

export function extrasArbitrary(): fc.Arbitrary<RequestExtras> {
  if (REQUEST_EXTRAS.length === 0) return fc.constant(NO_EXTRAS);
  return fc.oneof({ withCrossShrink: true }, { weight: 4, arbitrary: fc.constant(NO_EXTRAS) }, { weight: 1, arbitrary: fc.constantFrom(...REQUEST_EXTRAS) });
}
