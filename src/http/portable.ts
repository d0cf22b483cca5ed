/**
 * The HTTP layer's runtime-neutral face: all of index.ts but the socket layer (listen.ts,
 * linger.ts) and the command line's request log, for what runs in a browser too (msw/).
 */
export * from './admin.js';
export * from './base-url.js';
export * from './cors.js';
export * from './credentials.js';
export * from './errors.js';
export * from './exchange.js';
export * from './find-requests.js';
export * from './hop-by-hop.js';
export * from './journal.js';
export * from './negotiation.js';
export * from './pipeline.js';
export * from './refusals.js';
export * from './rules.js';
export * from './secrets.js';
