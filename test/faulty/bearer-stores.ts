/**
 * Plant Stores written the way small node:http services are: authentication of their own in
 * front, reading the Authorization field (and the query) as the code of real services does, and
 * the reference's handling of the body behind it - what such a service gets from its framework
 * and its model. Each authentication below is a few lines of ordinary code; the faulty ones
 * (used by faults.ts) differ from a careful one where real code goes wrong, and the unusual ones
 * (test/conformance/credentials.test.ts) are correct in ways a checker must not flag.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { answerClientErrors } from '../../src/http/listen.js';
import { createApp } from '../../src/reference/index.js';
import { listening } from '../support/listening.js';
import { TEST_TOKEN } from '../support/servers.js';

/** Why a request is refused: RFC 6750, section 3.1's error codes (none when no credentials were presented). */
export interface Denial {
  readonly status: 400 | 401;
  readonly message: string;
  readonly error?: 'invalid_request' | 'invalid_token';
}

/** A service's authentication: undefined lets the request through. */
export type Authentication = (request: IncomingMessage, url: URL) => Denial | undefined;

export interface BearerStoreOptions {
  readonly authenticate: Authentication;
  /**
   * The body is parsed (and refused with 400 when it is not JSON) before authentication, as in
   * an app whose JSON body parser is mounted before its authentication middleware.
   */
  readonly parseBodyFirst?: boolean;
  /** The WWW-Authenticate field of a refusal, from its Bearer challenge: one line, or several. */
  readonly challenges?: (bearer: string) => string | string[];
}

export const SECRET = TEST_TOKEN;

export const noCredentials = (message = 'authorization: missing bearer credentials'): Denial => ({ status: 401, message });
export const invalidToken = (message = 'authorization: bearer token not accepted'): Denial => ({ status: 401, message, error: 'invalid_token' });

/** A service on 127.0.0.1, port 0. */
export async function startBearerStore(options: BearerStoreOptions): Promise<{ readonly url: string; close(): Promise<void> }> {
  const app = createApp({ tokens: [SECRET] });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const send = (status: number, headers: Record<string, string | string[]>, text: string): void => {
        res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      const error = (status: number, message: string, headers: Record<string, string | string[]> = {}): void => {
        send(status, { 'content-type': 'application/json', ...headers }, JSON.stringify({ error: status, message }));
      };
      if (options.parseBodyFirst === true && /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        try {
          JSON.parse(body.toString('utf8'));
        } catch (cause) {
          error(400, `malformed JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
          return;
        }
      }
      const denial = options.authenticate(req, new URL(req.url ?? '/', 'http://plant-store.test'));
      if (denial !== undefined) {
        const bearer = `Bearer realm="plant-store"${denial.error === undefined ? '' : `, error="${denial.error}"`}`;
        error(denial.status, denial.message, { 'www-authenticate': options.challenges?.(bearer) ?? bearer });
        return;
      }
      // Authenticated: the model judges and stores the plant.
      const answer = app.request({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers, authorization: `Bearer ${SECRET}` }, body });
      send(answer.status, answer.headers, answer.body);
    });
  });
  // A request node:http cannot parse gets the kit's Error, Date included: the service's defect is in its authentication.
  answerClientErrors(server);
  return listening(server.listen(0, '127.0.0.1'));
}

/** The token of `Authorization: Bearer <token>`, the scheme in any case, spaces between (RFC 6750, section 2.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** A careful service: one field, Bearer, a b64token, compared whole. */
export const carefulAuthentication: Authentication = (req) => {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return noCredentials();
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) return invalidToken('authorization: malformed bearer credentials');
  return token === SECRET ? undefined : invalidToken();
};

/**
 * A careful service that tells malformed credentials from wrong ones, as RFC 6750, section 3.1
 * allows: 400 invalid_request for a Bearer field it cannot read, 401 for none, for another scheme
 * (no error code) and for a wrong token.
 */
export const malformedGets400: Authentication = (req) => {
  const authorization = req.headers.authorization;
  if (authorization === undefined || authorization === '') return noCredentials();
  const space = authorization.indexOf(' ');
  const scheme = space < 0 ? authorization : authorization.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return noCredentials(`authorization: the ${scheme.slice(0, 20)} scheme is not supported`);
  const token = space < 0 ? '' : authorization.slice(space + 1).replace(/^ +/, '');
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) return { status: 400, message: 'authorization: malformed bearer credentials', error: 'invalid_request' };
  return token === SECRET ? undefined : invalidToken();
};

// --- faulty authentications: each the careful one with one line real code gets wrong ---

/** strncmp(presented, secret, strlen(presented)): the comparison stops where what was sent ends. */
export const prefixOfSecret: Authentication = (req) => {
  const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (presented === undefined) return noCredentials();
  for (let i = 0; i < presented.length; i++) if (presented.charCodeAt(i) !== SECRET.charCodeAt(i)) return invalidToken();
  return undefined;
};

/** Tokens compared without regard to case. */
export const caseInsensitiveToken: Authentication = (req) => {
  const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (presented === undefined) return noCredentials();
  return presented.toLowerCase() === SECRET.toLowerCase() ? undefined : invalidToken();
};

/** The scheme stripped with an optional separator: `Bearer<token>` (and the bare token) pass. */
export const schemeStrippedLoosely: Authentication = (req) => {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return noCredentials();
  return authorization.replace(/^Bearer\s*/i, '') === SECRET ? undefined : invalidToken();
};

/** `const [scheme, token] = header.split(' ')`: whatever follows the second word is ignored. */
export const secondWord: Authentication = (req) => {
  const [scheme, token] = (req.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer') return noCredentials();
  return token === SECRET ? undefined : invalidToken();
};

/** The credentials read as a comma-separated list of tokens, any of which may match. */
export const anyTokenOfAList: Authentication = (req) => {
  const authorization = req.headers.authorization ?? '';
  if (!/^bearer +/i.test(authorization)) return noCredentials();
  const tokens = authorization.replace(/^bearer +/i, '').split(',');
  return tokens.some((token) => token.trim() === SECRET) ? undefined : invalidToken();
};

/** A token in the access_token query parameter (RFC 6750, section 2.3) taken before the header. */
export const queryTokenFirst: Authentication = (req, url) => {
  const token = url.searchParams.get('access_token') ?? BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined) return noCredentials();
  return token === SECRET ? undefined : invalidToken();
};

/** Tokens compared as the bytes they decode to in base64, the way stored token hashes are sometimes compared. */
export const decodedBytesCompared: Authentication = (req) => {
  const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (presented === undefined) return noCredentials();
  return Buffer.from(presented, 'base64').equals(Buffer.from(SECRET, 'base64')) ? undefined : invalidToken();
};

/** Headers collected from the raw lines into a map, so of two Authorization fields the last one counts. */
export const lastFieldWins: Authentication = (req) => {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers[(req.rawHeaders[i] ?? '').toLowerCase()] = req.rawHeaders[i + 1] ?? '';
  const token = BEARER.exec(headers.authorization ?? '')?.[1];
  if (token === undefined) return noCredentials();
  return token === SECRET ? undefined : invalidToken();
};

/** `header.trim().split(/\s+/)`: JavaScript's whitespace, tabs and U+00A0 among it, separates and surrounds the token. */
export const anyWhitespace: Authentication = (req) => {
  const [scheme, token, ...rest] = (req.headers.authorization ?? '').trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'bearer') return noCredentials();
  return rest.length === 0 && token === SECRET ? undefined : invalidToken();
};
