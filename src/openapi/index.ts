/**
 * The contract layer: everything the kit knows about the interface comes from openapi.yaml
 * through here. Depends on nothing else of the kit. Only load.ts (reading a file) needs Node.
 */
export * from './contract.js';
export * from './json.js';
export * from './load.js';
export * from './parameter-styles/index.js';
export * from './media-types/index.js';
export * from './refusal.js';
export * from './resources.js';
export * from './security/index.js';
