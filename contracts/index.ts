/**
 * The Pact side of the kit - its face: the typed client of the contract's operations (client.ts,
 * with the generated openapi-types.ts), what `plant-store verify` decides before it asks a target
 * (verifier-options.ts, reachability.ts), and the rooms that load pact-js, loaded only when a run
 * needs them: pact-js must not load before PACT_DO_NOT_TRACK is set, nor for a usage mistake.
 */
export { callOperation, createClient, createPlant, createPlantOperation, decode, operationUrl, readResponse, toNewPlant, UnexpectedResponseError, type AnyResult, type ClientOptions, type CreatePlantResult, type CreatePlantStatus, type ErrorBody, type NewPlant, type OperationClient, type OperationInput, type OperationRequest, type OperationResult, type Plant } from './client.js';
export type { components, operations, paths } from './openapi-types.js';
export { whyUnreachable } from './reachability.js';
export { DEFAULT_VERIFY_TIMEOUT_MS, pactSource, VerifyConfigurationError, verifierOptions, type Environment, type PactSource, type VerifyFlags } from './verifier-options.js';

/** The consumer contract's data (it reads the contract only; no pact-js). */
export const loadConsumerData = (): Promise<typeof import('./consumer-data.js')> => import('./consumer-data.js');
/** Verifying an implementation against pacts: loads pact-js. */
export const loadVerification = (): Promise<typeof import('./verification.js')> => import('./verification.js');
/** Recording the consumer contract's pacts: loads pact-js. */
export const loadConsumerContract = (): Promise<typeof import('./consumer-contract.js')> => import('./consumer-contract.js');
/** Linting pact files against the contract. */
export const loadPactLint = (): Promise<typeof import('./pact-lint.js')> => import('./pact-lint.js');
