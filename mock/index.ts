/** The Prism mock of openapi.yaml behind the kit's request pipeline (`plant-store mock`). */
export * from './mock.js';
export * from './prism.js';
