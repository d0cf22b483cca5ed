/**
 * A Plant Store written as a Fastify 5 team writes one: an `onRequest` hook for the bearer
 * token, the route, an error handler and a not-found handler. What it keeps of Fastify's
 * defaults, because the contract allows them: its JSON parser (secure-json-parse: a body with a
 * `__proto__` key, or a `constructor` holding `prototype`, is refused with 400; an empty body is
 * refused; a byte order mark skipped; invalid UTF-8 decoded to U+FFFD), its 1 MiB body limit, its
 * media type matching, `application/json; charset=utf-8`, Node's 72 s keep-alive (Fastify's
 * default). What it changes, because the contract demands it: only JSON is parsed (the default
 * text/plain parser is removed, so a text body is refused), Fastify's error format
 * `{statusCode, code, error: "Bad Request", message}` and its 413/415 become the contract's 400
 * Error, and the body parsed by the default parser is read a second time with lossless-json so
 * an int64 id stays exact.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { CONTRACT_RULES, errorJson, InvalidPlant, parseLossless, plantJson, PlantStore, readNewPlant, type PlantRules } from './plants.js';
import type { RunningStore } from '../support/listening.js';

/** A refusal of the authentication hook. */
export interface Denial {
  readonly status: 400 | 401;
  readonly message: string;
  readonly challenge: string;
}

export type FastifyAuthentication = (request: FastifyRequest, token: string) => Denial | undefined;

export interface FastifyStoreOptions {
  readonly token: string;
  readonly authenticate?: FastifyAuthentication;
  readonly rules?: PlantRules;
  /** A hook run before authentication (a faulty one judges the Accept header). */
  readonly preCheck?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
  /** Code run for each plant before it is stored; it may throw. */
  readonly beforeStore?: (store: PlantStore, id: bigint) => void;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** RFC 6750, section 2.1: `Bearer` (any case), spaces, one b64token, compared whole in constant time. */
export const bearerHook: FastifyAuthentication = (request, token) => {
  const authorization = request.headers.authorization;
  if (authorization === undefined) return { status: 401, message: 'authorization: missing bearer credentials', challenge: 'Bearer realm="plants"' };
  const presented = BEARER.exec(authorization)?.[1];
  if (presented === undefined || !timingSafeEqual(digest(presented), digest(token))) {
    return { status: 401, message: 'authorization: bearer token not accepted', challenge: 'Bearer realm="plants", error="invalid_token"' };
  }
  return undefined;
};

function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' ? status : undefined;
}

export async function startFastifyStore(options: FastifyStoreOptions): Promise<RunningStore> {
  const store = new PlantStore();
  const rules = options.rules ?? CONTRACT_RULES;
  const authenticate = options.authenticate ?? bearerHook;
  const app = Fastify();

  // Only JSON bodies: the default JSON parser judges the text (syntax, prototype poisoning), then
  // lossless-json reads it again for exact numbers.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = typeof raw === 'string' ? raw : raw.toString('utf8');
    void defaultJson(request, body, (error: Error | null) => {
      if (error) {
        done(error, undefined);
        return;
      }
      try {
        // secure-json-parse drops a leading byte order mark; so does this second reading.
        done(null, parseLossless(body.replace(/^\ufeff/, '')));
      } catch (cause) {
        done(cause instanceof Error ? cause : new Error(String(cause)), undefined);
      }
    });
  });

  const refuse = (reply: FastifyReply, status: number, message: string): FastifyReply => reply.code(status).type('application/json; charset=utf-8').send(errorJson(status, message));

  app.addHook('onRequest', async (request, reply) => {
    if (options.preCheck?.(request, reply) !== undefined) return reply;
    const denial = authenticate(request, options.token);
    if (denial !== undefined) return refuse(reply.header('www-authenticate', denial.challenge), denial.status, denial.message);
    return undefined;
  });

  app.post('/plants', async (request, reply) => {
    const plant = readNewPlant(request.body as Parameters<typeof readNewPlant>[0], rules);
    options.beforeStore?.(store, plant.id);
    store.save(plant);
    return reply.type('application/json; charset=utf-8').send(plantJson(plant));
  });

  app.setNotFoundHandler((_request, reply) => refuse(reply, 404, 'not found'));
  // Fastify's own errors carry their status (400 bad JSON, 413 too large, 415 media type): the
  // contract declares 400 for every request it cannot accept.
  app.setErrorHandler((error, _request, reply) => {
    const status = statusOf(error);
    const client = error instanceof InvalidPlant || error instanceof SyntaxError || (status !== undefined && status >= 400 && status < 500);
    return refuse(reply, client ? 400 : 500, client && error instanceof Error ? error.message : 'internal error');
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
