/** The reference's runtime-neutral face: its store and its answer, for what runs in a browser too (msw/). */
export * from './answers.js';
export * from './app.js';
export * from './store.js';
export * from './generated.js';
