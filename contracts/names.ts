/**
 * The names the consumer contract and the provider verification share, in a module that loads
 * nothing of Pact.
 */
export const CONSUMER = 'plant-store-client';
export const PROVIDER = 'plant-store';

/**
 * The token a pact shows. The real one never appears in a pact: the consumer's request is
 * matched by a regex, and the verifier's request filter puts the provider's token in its place.
 */
export const EXAMPLE_TOKEN = 'example-token';

/** The provider state of the replace interaction: a plant with the state's parameters is already stored. */
export const PLANT_STORED = 'a plant is stored';

/** The provider state of the read of a missing item: nothing is stored under the key in the state's parameters. */
export const PLANT_ABSENT = 'no plant is stored under the key';
