/**
 * Plant Stores written in the frameworks people use - Express, Fastify, Hono (on
 * @hono/node-server), Python's standard library and plain node:http - the way their teams write
 * them, not the kit's reference with a transform:
 *
 * - FRAMEWORK_STORES keep the contract, each keeping its framework's defaults wherever the
 *   contract allows them. A default run must pass, warning by exactly the checks listed (each a
 *   default of the framework the contract allows, with the reason).
 * - FAULTY_FRAMEWORK_STORES each have one defect, written as the framework's users write it: a
 *   line of authentication, a middleware mounted in the wrong order, a range check, a media type
 *   test, a limit left in. A default run must catch each by its check (as a failure, or as a
 *   warning where the contract allows the behaviour) and by no check its defect does not touch.
 */
import type { CheckName, Severity } from '../../fuzz/index.js';
import { TEST_TOKEN } from '../support/servers.js';
import { bearerAuthentication, deny, startExpressStore } from './express-store.js';
import { startFastifyStore, type FastifyAuthentication } from './fastify-store.js';
import { startHonoStore } from './hono-store.js';
import { startNodeHttpStore, type TokenCheck } from './node-http-store.js';
import { CONTRACT_RULES, errorJson, INT64_MAX, INT64_MIN, type PlantRules } from './plants.js';
import { startPythonStore, type PythonDefect } from './python-store.js';
import type { RunningStore } from '../support/listening.js';

export type Framework = 'Express' | 'Fastify' | 'Hono' | 'Python http.server' | 'node:http';

export interface FrameworkStore {
  readonly name: string;
  readonly framework: Framework;
  /** The checks a default run warns by, each a default of the framework that the contract allows, with why. */
  readonly warns: Partial<Record<CheckName, string>>;
  /** Checks a default run cannot exercise against it, each with why. */
  readonly skips?: Partial<Record<CheckName, string>>;
  start(): Promise<RunningStore>;
}

export interface FaultyFrameworkStore {
  readonly name: string;
  readonly framework: Framework;
  /** The defect, as a bug report would put it. */
  readonly defect: string;
  readonly caughtBy: CheckName;
  readonly caughtAs?: Severity;
  /** The other checks the defect breaks; the run must break no other. */
  readonly touches: readonly CheckName[];
  /**
   * `suite` for a store that stops answering altogether: its runs use the suite's short timeout
   * (what catches it does not depend on it). The others run with the engine's default timeout,
   * as `plant-store conform` does.
   */
  readonly timeout?: 'suite';
  /** Set (to the reason) for a defect the suite's budget does not show: `npm test` gives it a default run (test/conformance/common.ts). */
  readonly defaultRun?: string;
  start(): Promise<RunningStore>;
}

const token = TEST_TOKEN;

const LENIENT_UTF8 = 'bytes that are not UTF-8 inside a string are decoded to U+FFFD and the plant stored (RFC 8259, section 9 lets a parser accept them)';

const ROUTER_404 = 'its router knows paths, not methods: a method the path does not declare gets 404, where RFC 9110, section 15.5.6 answers 405 with Allow';

const ABSOLUTE_FORM_REFUSED = 'an absolute-form target (POST http://host/plants) gets 404, where RFC 9112, section 3.2.2 has a server accept it (a warning: no HTTP/1.1 client sends it to an origin server)';

/** A spelling of the path RFC 3986 makes equivalent, refused by a router that matches the raw path (a warning: no client sends it). */
const EQUIVALENT_REFUSED = '/%70lants gets 404, where RFC 3986, section 6.2.2 makes it /plants (a warning: no client sends it)';

const ABSOLUTE_404 = `its router matches the raw request target: ${ABSOLUTE_FORM_REFUSED}`;

/** node:http answers a request it cannot parse itself (a space before a colon, a NUL in a value): 400, without Date. */
const NODE_BARE_400 = "node:http's own 400 to a request it cannot parse carries no Date (RFC 9110, section 6.6.1 asks an origin server with a clock for one; a client loses nothing)";

export const FRAMEWORK_STORES: readonly FrameworkStore[] = [
  { name: 'express', framework: 'Express', warns: { 'accepts-valid': `its router matches the raw path: ${EQUIVALENT_REFUSED}`, 'rejects-invalid': `body-parser's decoder: ${LENIENT_UTF8}`, 'method-semantics': ROUTER_404, 'message-framing': NODE_BARE_400 }, start: () => startExpressStore({ token }) },
  {
    name: 'fastify',
    framework: 'Fastify',
    warns: {
      'accepts-valid': `secure-json-parse refuses a body with a __proto__ key, or a constructor holding prototype, with 400 (prototype poisoning); ${ABSOLUTE_404}`,
      'rejects-invalid': `parseAs: 'string': ${LENIENT_UTF8}`,
      'method-semantics': ROUTER_404,
      'message-framing': `Fastify's clientError handler: ${NODE_BARE_400}`,
    },
    start: () => startFastifyStore({ token }),
  },
  {
    name: 'hono',
    framework: 'Hono',
    warns: {
      'requires-auth': "bearerAuth answers an Authorization field of another scheme (Basic, Token, Bearer<token>) with 400 invalid_request, where RFC 6750, section 3.1 answers 401",
      'rejects-invalid': `c.req.text(): ${LENIENT_UTF8}`,
      'method-semantics': ROUTER_404,
      'message-framing': `@hono/node-server: ${NODE_BARE_400}`,
    },
    start: () => startHonoStore({ token }),
  },
  {
    name: 'python',
    framework: 'Python http.server',
    warns: {
      'accepts-valid': `its handler compares self.path with /plants: ${ABSOLUTE_FORM_REFUSED}; ${EQUIVALENT_REFUSED}`,
      'rejects-invalid': "json.loads decodes bytes with 'surrogatepass': an encoded surrogate (ED A0 80, CESU-8) inside a string becomes a lone surrogate and the plant is stored",
    },
    skips: {
      degradation:
        'its listen backlog of 5 drops a connection now and then and the client sends it again a second later; each canary reading waits for the requests in flight, so a default run takes too few readings (fewer than 12) to judge a trend',
    },
    start: () => startPythonStore({ token }),
  },
  { name: 'node-http', framework: 'node:http', warns: { 'accepts-valid': `${ABSOLUTE_404}; ${EQUIVALENT_REFUSED}`, 'method-semantics': ROUTER_404, 'message-framing': NODE_BARE_400 }, start: () => startNodeHttpStore({ token }) },
];

// --- the faulty ones' single lines ---

/** `const [scheme, token] = header.split(' ')`: whatever follows the second word is never looked at. */
const secondWord = (expected: string) =>
  ((req, res, next) => {
    const [scheme, presented] = (req.get('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || presented !== expected) {
      deny(res, 401, 'authorization: bearer token not accepted');
      return;
    }
    next();
  }) satisfies ReturnType<typeof bearerAuthentication>;

/** "The scheme is case-insensitive": the whole field is lower-cased before the compare, the token with it. */
const lowerCasedField: FastifyAuthentication = (request, expected) =>
  request.headers.authorization?.toLowerCase() === `bearer ${expected}`.toLowerCase() ? undefined : { status: 401, message: 'authorization: bearer token not accepted', challenge: 'Bearer realm="plants"' };

/** Several tokens may be sent while one is rotated: any of a comma-separated list passes. */
const anyOfAList: TokenCheck = (authorization, expected) =>
  /^bearer +/i.test(authorization ?? '') &&
  (authorization ?? '')
    .replace(/^bearer +/i, '')
    .split(',')
    .some((presented) => presented.trim() === expected);

/** `header.replace('Bearer', '').trim()`: the scheme need not be followed by a space, or be there at all - and must be spelled Bearer. */
const schemeReplaced: TokenCheck = (authorization, expected) => (authorization ?? '').replace('Bearer', '').trim() === expected;

/** The property names lower-cased "so that clients may send Name or name". */
const keysFolded: PlantRules = { ...CONTRACT_RULES, properties: (body) => Object.fromEntries(Object.entries(body).map(([key, value]) => [key.toLowerCase(), value])) };

function python(name: string, defect: PythonDefect, description: string, caughtBy: CheckName, more: Partial<FaultyFrameworkStore> = {}): FaultyFrameworkStore {
  return { name, framework: 'Python http.server', defect: description, caughtBy, touches: [], ...more, start: () => startPythonStore({ token, defect }) };
}

export const FAULTY_FRAMEWORK_STORES: readonly FaultyFrameworkStore[] = [
  // --- authentication near-misses ---
  {
    name: 'express-split-on-space',
    framework: 'Express',
    defect: "the token is header.split(' ')[1], so `Bearer <token> anything` passes (and two spaces do not)",
    caughtBy: 'requires-auth',
    touches: [],
    start: () => startExpressStore({ token, authenticate: secondWord }),
  },
  {
    name: 'fastify-case-insensitive-token',
    framework: 'Fastify',
    defect: 'the Authorization field is lower-cased to compare the scheme case-insensitively, and the token with it: the token in any case passes',
    caughtBy: 'requires-auth',
    touches: [],
    start: () => startFastifyStore({ token, authenticate: lowerCasedField }),
  },
  {
    name: 'node-http-comma-separated-tokens',
    framework: 'node:http',
    defect: 'the credentials are read as a comma-separated list of tokens, any of which may match (Bearer wrong,<token>)',
    caughtBy: 'requires-auth',
    touches: [],
    start: () => startNodeHttpStore({ token, checkToken: anyOfAList }),
  },
  {
    name: 'node-http-scheme-replaced',
    framework: 'node:http',
    defect: "the token is header.replace('Bearer', '').trim(): Bearer<token> and the bare token pass, bearer <token> does not",
    caughtBy: 'requires-auth',
    touches: ['accepts-valid'],
    start: () => startNodeHttpStore({ token, checkToken: schemeReplaced }),
  },
  python('python-token-prefix', 'token-prefix', 'the token is compared with TOKEN.startswith(presented): any prefix of it passes', 'requires-auth'),

  // --- the body before the credentials ---
  {
    name: 'express-json-before-auth',
    framework: 'Express',
    defect: 'app.use(express.json()) is mounted before the authentication middleware, so a request without credentials and with malformed JSON gets 400',
    caughtBy: 'credentials-first',
    caughtAs: 'warning',
    touches: [],
    start: () => startExpressStore({ token, bodyParserFirst: true }),
  },

  // --- hygiene of answers ---
  python('python-byte-order-mark', 'byte-order-mark', "answers are encoded with 'utf-8-sig', which puts a byte order mark before every JSON text", 'no-byte-order-mark'),
  {
    name: 'fastify-406-unless-exactly-json',
    framework: 'Fastify',
    defect: "an onRequest hook answers 406 unless Accept is exactly 'application/json' (curl sends */*, browsers a list, some clients none)",
    caughtBy: 'status-declared',
    touches: ['accepts-valid'],
    start: () =>
      startFastifyStore({
        token,
        preCheck: (request, reply) => (request.headers.accept === 'application/json' ? undefined : reply.code(406).type('application/json; charset=utf-8').send(errorJson(406, 'only application/json is served'))),
      }),
  },

  python(
    'python-keep-alive-unread-body',
    'keep-alive-unread-body',
    "protocol_version = 'HTTP/1.1' is set for keep-alive, but a refused request's body is never read: it stays on the connection, is read as the next request's start, and that request gets the error about it",
    'one-answer-per-request',
    // As an HTTP/1.1 server it is held to Host (RFC 9112, section 3.2), which http.server never asks for: rejects-invalid.
    // And http.server keeps the trailing OWS of a value, so `Connection: close ` is not `close`: the connection stays open (message-framing).
    { touches: ['status-declared', 'accepts-valid', 'requires-auth', 'no-server-error', 'rejects-invalid', 'message-framing'] },
  ),

  // --- time and capacity ---
  python('python-backtracking-name', 'backtracking-name', "names are checked with re.fullmatch(r'(\\w+\\s?)*', name): on a long word ending in '!' it backtracks for ever, and holds the GIL, so the whole server stops answering", 'no-server-error', { timeout: 'suite' }),
  {
    name: 'fastify-full-at-1000-plants',
    framework: 'Fastify',
    defaultRun: "MAX_PLANTS is 1,000: the suite's fill of 300 never reaches it",
    defect: 'MAX_PLANTS=1000, a setting of the demo, was left in: a new plant beyond it throws, and the error handler answers 500',
    caughtBy: 'no-server-error',
    // A 500 is also a status the contract does not declare.
    touches: ['status-declared'],
    start: () =>
      startFastifyStore({
        token,
        beforeStore: (store, id) => {
          if (store.size >= 1000 && !store.has(id)) throw new Error('plant store is full (MAX_PLANTS=1000)');
        },
      }),
  },

  // --- validation ---
  {
    name: 'hono-starts-with-application-json',
    framework: 'Hono',
    defect: "the media type is tested with contentType.toLowerCase().startsWith('application/json'): application/json-seq and application/jsonx pass",
    caughtBy: 'rejects-invalid',
    touches: [],
    start: () => startHonoStore({ token, isJson: (type) => type?.toLowerCase().startsWith('application/json') === true }),
  },
  {
    name: 'fastify-case-insensitive-keys',
    framework: 'Fastify',
    defect: 'property names are lower-cased so that clients may send Name or ID: a body without name passes, and of name and Name the last one is stored',
    caughtBy: 'rejects-invalid',
    touches: ['echo'],
    start: () => startFastifyStore({ token, rules: keysFolded }),
  },
  {
    name: 'hono-int64-lower-bound-off-by-one',
    framework: 'Hono',
    defect: 'the lower bound of the id is written -(2n ** 63n) - 1n, so -2^63-1 is accepted',
    caughtBy: 'rejects-invalid',
    touches: [],
    start: () => startHonoStore({ token, rules: { ...CONTRACT_RULES, idInRange: (id) => id >= INT64_MIN - 1n && id <= INT64_MAX } }),
  },
  // int(id) comes before the check, so an id of 1e1000000000 builds a billion-digit integer and stalls the process (the engine's huge-exponent probe): no-server-error too.
  python('python-int64-bit-length', 'int64-bit-length', 'the id is checked with int(id).bit_length() > 63, which refuses -2^63 (its bit length is 64), and makes 1e1000000000 a billion-digit integer first', 'accepts-valid', { touches: ['no-server-error'] }),
];
