/**
 * A Plant Store written as a Hono team writes one, on @hono/node-server: Hono's own
 * `bearerAuth` middleware, the route, `notFound` and `onError`. What it keeps of Hono's defaults,
 * because the contract allows them: bearerAuth as it is - its pattern (`Bearer`, any case, spaces,
 * a b64token, trailing spaces), its constant-time compare, its challenges (`Bearer realm=""`,
 * `error="invalid_token"`), and its 400 `invalid_request` for an Authorization field it cannot
 * read, another scheme included (RFC 6750, section 3.1 answers that with 401: the engine warns);
 * the body read with `c.req.text()` (UTF-8, invalid bytes as U+FFFD, a byte order mark dropped);
 * no body limit; `Content-Type: application/json` without a charset; the node server's 5 s
 * keep-alive. What it changes, because the contract demands it: bearerAuth's text answers become
 * the contract's Errors (its message options take JSON), the body is parsed with lossless-json
 * so an int64 id stays exact (`c.req.json()` is JSON.parse), and Hono's text 404 and 500 become
 * Errors.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { Hono, type Context } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import type { MiddlewareHandler } from 'hono/types';
import { CONTRACT_RULES, errorJson, InvalidPlant, parseLossless, plantJson, PlantStore, readNewPlant, type PlantRules } from './plants.js';
import { listening, type RunningStore } from '../support/listening.js';

export interface HonoStoreOptions {
  readonly token: string;
  /** The authentication middleware (default: Hono's bearerAuth with Error answers). */
  readonly authenticate?: (token: string) => MiddlewareHandler;
  /** Whether a request's Content-Type is JSON (default: its media type is application/json). */
  readonly isJson?: (contentType: string | undefined) => boolean;
  readonly rules?: PlantRules;
}

/** Hono's bearerAuth, answering the contract's Errors. */
export function honoBearerAuth(token: string): MiddlewareHandler {
  return bearerAuth({
    token,
    noAuthenticationHeader: { message: { error: 401, message: 'authorization: missing bearer credentials' } },
    invalidAuthenticationHeader: { message: { error: 400, message: 'authorization: malformed bearer credentials' } },
    invalidToken: { message: { error: 401, message: 'authorization: bearer token not accepted' } },
  });
}

/** The media type, without parameters, is application/json (RFC 9110, section 8.3.1: case-insensitive). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

function errorAnswer(c: Context, status: 400 | 404 | 500, message: string): Response {
  return c.body(errorJson(status, message), status, { 'content-type': 'application/json' });
}

export async function startHonoStore(options: HonoStoreOptions): Promise<RunningStore> {
  const store = new PlantStore();
  const rules = options.rules ?? CONTRACT_RULES;
  const isJson = options.isJson ?? isJsonMediaType;
  const app = new Hono();
  app.use('/plants', (options.authenticate ?? honoBearerAuth)(options.token));
  app.post('/plants', async (c) => {
    if (!isJson(c.req.header('content-type'))) throw new InvalidPlant('content-type: must be application/json');
    const plant = readNewPlant(parseLossless(await c.req.text()), rules);
    store.save(plant);
    return c.body(plantJson(plant), 200, { 'content-type': 'application/json' });
  });
  app.notFound((c) => errorAnswer(c, 404, 'not found'));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    if (error instanceof InvalidPlant || error instanceof SyntaxError) return errorAnswer(c, 400, error.message);
    return errorAnswer(c, 500, 'internal error');
  });
  return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
}
