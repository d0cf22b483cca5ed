/** The Prism mock of openapi.yaml behind the kit's request gate (`plant-store mock`). */
export * from './cors.js';
export * from './front.js';
export * from './prism.js';
