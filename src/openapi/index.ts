/**
 * The contract layer: everything the kit knows about the interface comes from openapi.yaml
 * through here. Depends on nothing else of the kit. Only load.ts (reading a file) needs Node:
 * portable.ts is the face without it.
 */
export * from './portable.js';
export * from './load.js';
