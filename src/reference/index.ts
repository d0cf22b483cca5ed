/**
 * The reference implementation: its store and its answer (app.ts: the store behind the shared
 * pipeline). The socket layer and the exchange types live in src/http; they are re-exported here
 * for the tests and tools that start the reference. portable.ts is the face without them and
 * without reading the contract's file (default-app.ts), for msw/.
 */
export * from './portable.js';
export * from './default-app.js';
// Node only: the shared store (ioredis is imported when one is asked for, never at start-up).
export * from './redis-store.js';
export * from './shared-app.js';
export { batchedLog, listen, reportDefect, type AppRequest, type AppResponse, type ListenOptions, type RunningServer } from '../http/index.js';
