/** The reference's runtime-neutral face: its store and its answer, for what runs in a browser too (msw/). */
export * from './answers.js';
export * from './app.js';
export * from './store.js';
// The generator lives in src/openapi (the pipeline's refusal bodies use it too); named here as before.
export { DEFAULT_SEED, generateValue, type GeneratedValue, type GenerateOptions } from '../openapi/portable.js';
