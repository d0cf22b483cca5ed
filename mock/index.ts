/** The Prism mock of openapi.yaml behind the kit's request pipeline (`plant-store mock`). */
export * from './keep-contract.js';
export * from './mock.js';
export { MAX_DELAY_MS } from './prefer.js';
export * from './prism.js';
