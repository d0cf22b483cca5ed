/**
 * The contract layer: everything the kit knows about the interface comes from openapi.yaml
 * through here. Depends on nothing else of the kit.
 */
export * from './contract.js';
export * from './json.js';
export * from './resources.js';
