/**
 * A Plant Store written as an Express 5 team writes one: a bearer middleware of its own, then
 * `express.json()` (body-parser) for the body, a route, and an error handler that answers the
 * contract's Error. What it keeps of Express's defaults, because the contract allows them:
 * body-parser's JSON (strict: only objects and arrays; an empty body is `{}`; invalid UTF-8
 * inside a string decoded to U+FFFD; a byte order mark skipped; a 100 kB limit), `X-Powered-By:
 * Express`, a weak `ETag` on every answer, `application/json; charset=utf-8`, Node's 5 s
 * keep-alive. What it changes, because the contract demands it: every 4xx body-parser raises
 * (413 too large, 415 unsupported charset) is answered 400 with an Error, and ids are read a
 * second time with lossless-json from the bytes body-parser saw (`verify`), so an int64 id stays
 * exact.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { CONTRACT_RULES, errorJson, InvalidPlant, parseLossless, plantJson, PlantStore, readNewPlant, type Plant, type PlantRules } from './plants.js';
import { listening, type RunningStore } from '../support/listening.js';

export interface ExpressStoreOptions {
  readonly token: string;
  /** The authentication middleware (default: `bearerAuthentication`). */
  readonly authenticate?: (token: string) => RequestHandler;
  /** `app.use(express.json())` before the authentication middleware, as most tutorials mount it. */
  readonly bodyParserFirst?: boolean;
  readonly rules?: PlantRules;
  /** Code run for each stored plant before it is answered (a faulty one leaks something here). */
  readonly onStored?: (plant: Plant) => void;
}

/** The raw body body-parser read, decoded as it decodes it (UTF-8, lenient, a BOM dropped). */
const rawBodies = new WeakMap<IncomingMessage, string>();
const decoder = new TextDecoder('utf-8');

export function deny(res: Response, status: 400 | 401, message: string, challenge = 'Bearer realm="plants"'): void {
  res.status(status).set('WWW-Authenticate', challenge).type('json').send(errorJson(status, message));
}

function sameToken(presented: string, token: string): boolean {
  // Hashes have one length, so timingSafeEqual compares them in constant time whatever was sent.
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** RFC 6750, section 2.1: `Bearer` (any case), one or more spaces, one b64token, compared whole. */
export function bearerAuthentication(token: string): RequestHandler {
  return (req, res, next) => {
    const authorization = req.get('authorization');
    if (authorization === undefined) {
      deny(res, 401, 'authorization: missing bearer credentials');
      return;
    }
    const presented = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization)?.[1];
    if (presented === undefined || !sameToken(presented, token)) {
      deny(res, 401, 'authorization: bearer token not accepted', 'Bearer realm="plants", error="invalid_token"');
      return;
    }
    next();
  };
}

export async function startExpressStore(options: ExpressStoreOptions): Promise<RunningStore> {
  const store = new PlantStore();
  const rules = options.rules ?? CONTRACT_RULES;
  const app = express();
  const authenticate = (options.authenticate ?? bearerAuthentication)(options.token);
  const json = express.json({
    verify: (req, _res, buffer) => {
      rawBodies.set(req, decoder.decode(buffer));
    },
  });
  if (options.bodyParserFirst === true) app.use(json, authenticate);
  else app.use(authenticate, json);

  app.post('/plants', (req, res) => {
    if (req.is('application/json') === false) throw new InvalidPlant('content-type: must be application/json');
    const plant = readNewPlant(parseLossless(rawBodies.get(req) ?? ''), rules);
    store.save(plant);
    options.onStored?.(plant);
    res.type('json').send(plantJson(plant));
  });

  app.use((_req, res) => {
    res.status(404).type('json').send(errorJson(404, 'not found'));
  });
  // body-parser's errors carry their status (400 malformed, 413 too large, 415 charset): the
  // contract declares 400 for every request it cannot accept.
  const errors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    // Express's advice: an answer already started is left to its default handler, which closes it.
    if (res.headersSent) {
      next(error);
      return;
    }
    const status = error instanceof InvalidPlant || error instanceof SyntaxError || clientError(error) ? 400 : 500;
    res
      .status(status)
      .type('json')
      .send(errorJson(status, status === 400 && error instanceof Error ? error.message : 'internal error'));
  };
  app.use(errors);
  return listening(app.listen(0, '127.0.0.1'));
}

function clientError(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}
