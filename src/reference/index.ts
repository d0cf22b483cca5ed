/** The reference implementation: the app (no socket), its store, and the socket layer. */
export * from './app.js';
export * from './listen.js';
export * from './store.js';
