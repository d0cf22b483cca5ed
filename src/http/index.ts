/**
 * The HTTP side the kit's servers share: the request pipeline (pipeline.ts) and its rules
 * (rules.ts), the Error catalogue (errors.ts), CORS (cors.ts), the admin path's router
 * (admin.ts), the request journal and its routes (journal.ts, with journal-page.ts), the
 * socket layer that serves any pipeline (listen.ts, with linger.ts), and the request log of the
 * command line (request-log.ts).
 */
export * from './admin.js';
export * from './cors.js';
export * from './credentials.js';
export * from './errors.js';
export * from './exchange.js';
export * from './find-requests.js';
export * from './journal.js';
export * from './linger.js';
export * from './listen.js';
export * from './pipeline.js';
export * from './request-log.js';
export * from './rules.js';
export * from './secrets.js';
