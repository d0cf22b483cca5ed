/**
 * A Plant Store written on plain `node:http`, as a small service without a framework is: the
 * body read whole, the Authorization field checked by a function of its own, the media type by
 * its essence, the body parsed with lossless-json. What it keeps of Node's defaults: its header
 * parsing (whitespace around a value trimmed, the first of two Authorization fields kept), its
 * 5 s keep-alive, answers with a Content-Length and no charset.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorJson, InvalidPlant, parseLossless, plantJson, PlantStore, readNewPlant } from './plants.js';
import { listening, type RunningStore } from '../support/listening.js';

/** Whether the Authorization field (undefined: none) carries the token. */
export type TokenCheck = (authorization: string | undefined, token: string) => boolean;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** RFC 6750, section 2.1: `Bearer` (any case), spaces, one b64token, compared whole in constant time. */
export const exactBearer: TokenCheck = (authorization, token) => {
  const presented = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
};

function send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export async function startNodeHttpStore(options: { readonly token: string; readonly checkToken?: TokenCheck }): Promise<RunningStore> {
  const store = new PlantStore();
  const checkToken = options.checkToken ?? exactBearer;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || req.url?.split('?', 1)[0] !== '/plants') {
      send(res, 404, errorJson(404, 'not found'));
      return;
    }
    const authorization = req.headers.authorization;
    if (!checkToken(authorization, options.token)) {
      const message = authorization === undefined ? 'authorization: missing bearer credentials' : 'authorization: bearer token not accepted';
      send(res, 401, errorJson(401, message), { 'www-authenticate': 'Bearer realm="plants"' });
      return;
    }
    const body = await bodyOf(req);
    try {
      if (req.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') throw new InvalidPlant('content-type: must be application/json');
      const plant = store.save(readNewPlant(parseLossless(new TextDecoder('utf-8', { fatal: true }).decode(body))));
      send(res, 200, plantJson(plant));
    } catch (error) {
      if (error instanceof InvalidPlant || error instanceof SyntaxError || error instanceof TypeError) send(res, 400, errorJson(400, error.message));
      else send(res, 500, errorJson(500, 'internal error'));
    }
  };
  return listening(
    createServer((req, res) => {
      void handle(req, res);
    }).listen(0, '127.0.0.1'),
  );
}
