/**
 * Faulty implementations of methods and request targets (issue 30; the rows of
 * oracle/requirements/targets.ts): each a bug real servers have - a decoder whose URIError nobody
 * catches, a dispatcher with no handler for a method, a router that matches the raw target, a
 * HEAD that writes the body where it found something. node:http reads the requests where it can;
 * where it refuses the request before any handler (a method outside its table, a lower-case one, a
 * space in the target) or cannot write the defect, the store is on raw sockets (raw-store.ts).
 *
 * Each names the check that catches it, the other checks its defect touches, and the request kinds
 * of the focused run that proves it (test/conformance/map-targets.test.ts).
 */
import type { Server, ServerResponse } from 'node:http';
import type { App, AppRequest, AppResponse } from '../../src/reference/index.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { compileContract, loadContract, type Contract } from '../../src/openapi/index.js';
import { FULL_STORE_FILE, fullStore } from '../support/contracts.js';
import { errorResponse } from './helpers.js';
import type { HygieneFault } from './hygiene.js';
import { CAREFUL_LAYER, startRawStore } from './raw-store.js';

export interface TargetFault extends HygieneFault {
  /** The request kinds of the focused run that proves it. */
  readonly kinds: readonly string[];
  /** The contract of its runs; the bundled openapi.yaml where absent. */
  readonly contract?: Contract;
}

const full = fullStore();

/**
 * The example full store without its list (GET /plants): a read by id, where the only HEAD is of
 * an item - unstored, until the engine stored one first.
 */
function readByIdStore(): Contract {
  const document = parseYaml(readFileSync(FULL_STORE_FILE, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  delete document.paths['/plants']?.get;
  return compileContract(document, '<full store without its list>');
}
const readById = readByIdStore();

/** The raw path prefixes an authentication middleware is mounted on: the bundled contract's first segments. */
const GUARDED = [...new Set(loadContract().operations.map((operation) => `/${operation.path.split('/')[1] ?? ''}`))];

/** The methods a hand-written dispatcher has handlers for. */
const HANDLED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']);

const crash = (message: string): AppResponse => errorResponse(500, message);

/** A node:http store that dies on a request `kills` (its server stops and drops every connection, as a process gone does). */
async function dyingOn(kills: (request: AppRequest) => boolean): Promise<{ readonly url: string; close(): Promise<void> }> {
  let listening: Server | undefined;
  return startFaulty(
    (request, correct) => {
      if (!kills(request)) return correct();
      listening?.close();
      listening?.closeAllConnections();
      return 'reset';
    },
    {},
    (server) => {
      listening = server;
    },
  );
}

function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

/** The templated segments of a request's path under the full store's contract, as its router reads them. */
function templatedSegments(request: AppRequest): string[] {
  const path = request.url.split('?', 1)[0] ?? request.url;
  return Object.values(full.matchPath(path)?.values ?? {});
}

/** HEAD answered by the GET handler, body and all, where the GET found something (Python's `do_HEAD = do_GET`: its `send_error` leaves a 404 bare). */
const headBodyWhereFound: Fault = (request, correct, app) => {
  if (request.method !== 'HEAD') return correct();
  const answer = app.request({ ...request, method: 'GET' });
  if (answer.status !== 200) return correct();
  // Written by hand: node:http leaves a HEAD answer's body out.
  return (res: ServerResponse) => {
    const head = [`HTTP/1.1 200 OK`, 'content-type: application/json', `content-length: ${Buffer.byteLength(answer.body)}`, 'connection: close', '', ''].join('\r\n');
    res.socket?.end(head + answer.body);
  };
};

/** A raw-socket store (node:http refuses the requests that show the defect) answering as `answer` says, else as the reference. */
function rawStore(answer: (request: AppRequest, line: string, app: App) => AppResponse | 'die' | undefined): () => Promise<{ readonly url: string; close(): Promise<void> }> {
  return () => startRawStore({ ...CAREFUL_LAYER, answer: (request, line, app) => answer(request, line, app) ?? app.request(request) });
}

export const MAP_TARGET_FAULTS: readonly TargetFault[] = [
  {
    name: 'dies-on-bad-escape-in-path',
    caughtBy: 'no-server-error',
    touches: [],
    kinds: ['target-spellings'],
    defect: "the router decodes the path (not the query) with decodeURIComponent before matching it, and nobody catches its URIError: the process dies on /plants%zz, and every later request is refused",
    start: () => dyingOn((request) => throws(() => decodeURIComponent(request.url.split('?', 1)[0] ?? ''))),
  },
  {
    name: 'param-decoder-500',
    caughtBy: 'no-server-error',
    touches: ['status-declared'],
    kinds: ['target-spellings'],
    contract: full,
    defect: "the route matches, then its handler decodes the path parameter with decodeURIComponent: a URIError on /plants/%zz becomes a 500",
    start: () => startFaulty((request, correct) => (templatedSegments(request).some((value) => throws(() => decodeURIComponent(value))) ? crash('URIError: URI malformed') : correct()), { contract: full }),
  },
  {
    name: 'empty-query-500',
    caughtBy: 'no-server-error',
    touches: ['status-declared'],
    kinds: ['target-spellings'],
    defect: "the query is read as url.split('?')[1].split('&').map(pair => pair.split('=')) and each value's length taken: an empty query (/plants?) has a pair without a value, a TypeError, a 500",
    start: () => startFaulty((request, correct) => (request.url.endsWith('?') ? crash("TypeError: Cannot read properties of undefined (reading 'length')") : correct())),
  },
  {
    name: 'raw-target-router',
    caughtBy: 'accepts-valid',
    caughtAs: 'warning',
    touches: [],
    kinds: ['target-spellings', 'framing'],
    defect: 'the router compares the raw target with its paths: /%70lants, /plants? and the absolute-form are 404 (RFC 3986, section 6.2.2 makes them /plants, RFC 9112, section 3.2.2 has a server accept the absolute-form; warnings, as Express and node:http handlers do it)',
    start: () => startFaulty((request, correct) => (request.url.endsWith('?') || !request.url.startsWith('/') || (request.url.split('?', 1)[0] ?? '').includes('%') ? errorResponse(404, `no route for ${request.url}`) : correct())),
  },
  {
    name: 'guard-on-raw-path',
    caughtBy: 'requires-auth',
    touches: [],
    kinds: ['target-spellings'],
    defect: "the authentication middleware is mounted on the raw path (app.use('/plants', auth)) and the router decodes the path before matching: /%70lants reaches the handler without credentials",
    start: () => startFaulty((request, _correct, app) => (GUARDED.some((prefix) => request.url.startsWith(prefix)) ? app.request(request) : app.request({ ...request, headers: { ...request.headers, authorization: `Bearer ${TEST_TOKEN}` } }))),
  },
  {
    name: 'request-line-dies',
    caughtBy: 'no-server-error',
    touches: [],
    kinds: ['target-spellings'],
    defect: 'a hand-written HTTP layer throws on a request line that is not three words of visible ASCII (a space or a control character in the target), and nothing catches it: the process dies',
    start: rawStore((_request, line) => (line.split(' ').length !== 3 || /[^\x20-\x7e]/.test(line) ? 'die' : undefined)),
  },
  {
    name: 'head-body-where-found',
    caughtBy: 'method-semantics',
    // The content written after the head is bytes no framing accounts for (RFC 9110, section 9.3.2).
    touches: ['one-answer-per-request'],
    kinds: ['other-method'],
    contract: readById,
    defect: "HEAD runs the GET handler (Python's do_HEAD = do_GET), which writes the body where it found the item; send_error leaves a 404 bare, so only HEAD of a stored item shows it",
    start: () => startFaulty(headBodyWhereFound, { contract: readById }),
  },
  {
    name: 'head-405',
    caughtBy: 'method-semantics',
    touches: [],
    kinds: ['other-method'],
    contract: full,
    defect: 'HEAD is routed as any undeclared method: 405, though the path declares GET (RFC 9110, section 9.1: a server that supports GET supports HEAD)',
    start: () => startFaulty((request, correct) => (request.method === 'HEAD' ? errorResponse(405, 'method: HEAD is not allowed', { allow: (full.methodsFor(request.url.split('?', 1)[0] ?? '') ?? []).join(', ') }) : correct()), { contract: full }),
  },
  {
    name: 'no-handler-500',
    caughtBy: 'no-server-error',
    touches: [],
    kinds: ['other-method'],
    defect: "the dispatcher calls handlers[method](req) with handlers for GET, HEAD, POST, PUT, DELETE and PATCH only: OPTIONS, TRACE, CONNECT and an unknown method are a TypeError, a 500",
    start: rawStore((request) => (HANDLED.has(request.method) ? undefined : crash(`TypeError: handlers[${request.method}] is not a function`))),
  },
  {
    name: 'unknown-method-404',
    caughtBy: 'method-semantics',
    caughtAs: 'warning',
    touches: [],
    kinds: ['other-method'],
    defect: 'a method the dispatcher has no table entry for falls through to the 404 handler, where RFC 9110, section 9.1 asks for 501 (a warning)',
    start: rawStore((request) => (HANDLED.has(request.method) ? undefined : errorResponse(404, `no route for ${request.method} ${request.url}`))),
  },
  {
    name: 'router-404-for-methods',
    caughtBy: 'method-semantics',
    caughtAs: 'warning',
    touches: [],
    kinds: ['other-method'],
    defect: 'the router knows paths, not methods: a method the path does not declare falls through to the 404 handler, where RFC 9110, section 15.5.6 answers 405 with Allow (a warning: Express, Fastify and Hono do it)',
    start: () => startFaulty((_request, correct) => {
      const answer = correct();
      return answer.status === 405 ? errorResponse(404, 'not found') : answer;
    }),
  },
  {
    name: 'case-insensitive-methods',
    caughtBy: 'method-semantics',
    touches: [],
    kinds: ['other-method'],
    defect: 'the dispatcher upper-cases the method before looking it up: post is taken for POST and the plant stored (methods are case-sensitive, RFC 9110, section 9.1)',
    start: rawStore((request, _line, app) => app.request({ ...request, method: request.method.toUpperCase() })),
  },
  {
    name: 'options-without-allow',
    caughtBy: 'method-semantics',
    caughtAs: 'warning',
    touches: [],
    kinds: ['other-method'],
    defect: 'a CORS middleware answers every OPTIONS with 204 and no Allow (RFC 9110, section 9.3.7: a server SHOULD say what the resource supports; a warning)',
    start: () => startFaulty((request, correct) => (request.method === 'OPTIONS' ? { status: 204, headers: {}, body: '' } : correct())),
  },
  {
    name: 'router-assumes-origin-form',
    caughtBy: 'no-server-error',
    touches: [],
    kinds: ['other-method'],
    defect: "the router reads the collection as url.match(/^\\/([^/?]+)/)[1]: a target that does not start with / (OPTIONS *, the absolute-form) is a TypeError, a 500",
    start: () => startFaulty((request, correct) => (request.url.startsWith('/') ? correct() : crash("TypeError: Cannot read properties of null (reading '1')"))),
  },
  {
    name: 'host-optional',
    caughtBy: 'rejects-invalid',
    touches: [],
    kinds: ['framing'],
    defect: 'a hand-written HTTP layer never looks for Host: an HTTP/1.1 request without it is served (RFC 9112, section 3.2: a server MUST answer it 400)',
    start: () => startRawStore({ ...CAREFUL_LAYER, host: 'ignored' }),
  },
];
