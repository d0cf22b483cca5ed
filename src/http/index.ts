/**
 * The HTTP side the kit's servers share: the request pipeline (pipeline.ts) and its rules
 * (rules.ts), the Error catalogue (errors.ts), CORS (cors.ts), the admin path's router
 * (admin.ts), the request journal and its routes (journal.ts, with journal-page.ts), the
 * socket layer that serves any pipeline (listen.ts, with linger.ts), and the request log of the
 * command line (request-log.ts). portable.ts is the face without the Node parts (the socket layer
 * and the request log).
 */
export * from './portable.js';
export * from './linger.js';
export * from './listen.js';
export * from './request-log.js';
