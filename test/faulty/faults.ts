/**
 * Faulty Plant Store implementations: each is the reference with one realistic defect, the kind
 * found in real services, or a small service with authentication of its own in front of the
 * reference (bearer-stores.ts) with one line of it wrong, and names the check that must catch it
 * (as a failure, or as a warning where the contract allows the behaviour). Together they cover every
 * check: authentication, validation gaps, int64, Unicode and long strings, error bodies, media
 * types, repeated ids, an intermittent fault, hostile keys, transport-level misbehaviour, time
 * and capacity.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { exactInteger, isLosslessNumber, LosslessNumber, type JsonObject } from '../../src/openapi/index.js';
import type { AppRequest, AppResponse } from '../../src/reference/index.js';
import type { CheckName, Severity } from '../../fuzz/index.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';
import * as bearer from './bearer-stores.js';
import { COVERAGE_FAULTS } from './coverage-faults.js';
import { bodyOf, errorResponse, forward, header, objectBodyOf, responseObject, withBody } from './helpers.js';
import { HYGIENE_FAULTS } from './hygiene.js';
import { OVERLAP_FAULTS } from './overlap-faults.js';
import { JSON_TEXT_FAULTS } from './json-texts.js';
import { WIRE_FAULTS } from './wire-faults.js';
import { sendEndlessBody, sendGarbage } from './hostile.js';
import { answerAfter, regexPool } from './resources.js';

export interface FaultyImplementation {
  readonly name: string;
  /** The defect, as a bug report would put it. */
  readonly defect: string;
  /** The check that must name it. */
  readonly caughtBy: CheckName;
  /** `warning` where the contract allows the behaviour (a hazard): the run passes and warns. Default `failure`. */
  readonly caughtAs?: Severity;
  /** Where given: the other checks the defect also breaks; the run must break no other. */
  readonly touches?: readonly CheckName[];
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
  /**
   * Set (to the reason) for a defect that shows in time: the suite runs it in a process of its
   * own (test/conformance/faulty-alone.test.ts), where no other implementation's load blurs its
   * times or feels its own.
   */
  readonly alone?: string;
  /** Set (to the reason) for a defect the suite's budget does not show: `npm test` gives it a default run (test/conformance/common.ts). */
  readonly defaultRun?: string;
}

/** A service of bearer-stores.ts: its own authentication in front of the reference's handling of the body. */
function service(name: string, caughtBy: CheckName, defect: string, options: bearer.BearerStoreOptions, caughtAs: Severity = 'failure'): FaultyImplementation {
  return { name, caughtBy, defect, ...(caughtAs === 'warning' ? { caughtAs } : {}), start: () => bearer.startBearerStore(options) };
}

const TWO_53 = 2n ** 53n;
const TWO_63 = 2n ** 63n;

function fault(name: string, caughtBy: CheckName, defect: string, behaviour: Fault): FaultyImplementation {
  return { name, caughtBy, defect, start: () => startFaulty(behaviour) };
}

/** A fault with memory (seen ids, a request counter): a fresh one for every server started. */
function statefulFault(name: string, caughtBy: CheckName, defect: string, behaviour: () => Fault): FaultyImplementation {
  return { name, caughtBy, defect, start: () => startFaulty(behaviour()) };
}

/** Changes a 200's plant; other answers pass through. */
function onSuccess(change: (plant: JsonObject) => JsonObject): Fault {
  return (_request, correct) => {
    const answer = correct();
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    return plant ? withBody(answer, change(plant)) : answer;
  };
}

/** Changes every answer that is not a 200. */
function onError(change: (answer: AppResponse) => AppResponse): Fault {
  return (_request, correct) => {
    const answer = correct();
    return answer.status === 200 ? answer : change(answer);
  };
}

function idOf(body: JsonObject | undefined): bigint | undefined {
  const id = body?.id;
  return isLosslessNumber(id) ? exactInteger(id) : undefined;
}

function stringField(body: JsonObject | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' ? value : undefined;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;

export const FAULTY_IMPLEMENTATIONS: readonly FaultyImplementation[] = [
  // --- authentication (RFC 6750) ---
  fault('accepts-missing-token', 'requires-auth', 'a request without an Authorization header skips authentication', (request, correct, app) =>
    header(request, 'authorization') === undefined ? forward(app, request, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }) : correct(),
  ),
  fault('accepts-any-scheme', 'requires-auth', 'the token is taken from after any scheme word (Token, OAuth...), not only Bearer', (request, correct, app) => {
    const token = /^\S+ (\S+)$/.exec(header(request, 'authorization') ?? '')?.[1];
    return token === TEST_TOKEN ? forward(app, request, { headers: { authorization: `Bearer ${token}` } }) : correct();
  }),
  fault('accepts-token-prefix', 'requires-auth', 'tokens are compared with startsWith, so the token with anything appended is accepted', (request, correct, app) => {
    const token = /^Bearer (\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];
    return token?.startsWith(TEST_TOKEN) === true ? forward(app, request, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }) : correct();
  }),
  fault('no-www-authenticate', 'requires-auth', 'a 401 without the WWW-Authenticate challenge', onError((answer) => {
    if (answer.status !== 401) return answer;
    const headers = { ...answer.headers };
    delete headers['www-authenticate'];
    return { ...answer, headers };
  })),
  fault('case-sensitive-scheme', 'accepts-valid', 'the scheme word must be spelled "Bearer" exactly; "bearer" gets 401 (RFC 9110 makes it case-insensitive)', (request, correct, app) => {
    const authorization = header(request, 'authorization') ?? '';
    return /^bearer /i.test(authorization) && !authorization.startsWith('Bearer ') ? forward(app, request, { headers: { authorization: undefined } }) : correct();
  }),
  fault('forbidden-for-wrong-token', 'requires-auth', 'a wrong token gets 403 instead of 401', (request, correct) => {
    const answer = correct();
    return answer.status === 401 && /^Bearer \S+$/i.test(header(request, 'authorization') ?? '') ? errorResponse(403, 'forbidden') : answer;
  }),
  // Services with authentication of their own (bearer-stores.ts), one line of it wrong.
  service('strncmp-token-prefix', 'requires-auth', 'the token is compared up to the length sent (strncmp), so any prefix of it is accepted', { authenticate: bearer.prefixOfSecret }),
  service('case-insensitive-token', 'requires-auth', 'tokens are compared without regard to case', { authenticate: bearer.caseInsensitiveToken }),
  service('bearer-without-space', 'requires-auth', 'the scheme is stripped with /^Bearer\\s*/i, so Bearer<token> and the bare token pass', { authenticate: bearer.schemeStrippedLoosely }),
  service('split-on-space', 'requires-auth', "the token is header.split(' ')[1], so anything after it is ignored (Bearer <token> extra)", { authenticate: bearer.secondWord }),
  service('comma-separated-tokens', 'requires-auth', 'the credentials are read as a comma-separated list, any of which may match (Bearer wrong,<token>)', { authenticate: bearer.anyTokenOfAList }),
  service('base64-decoded-compare', 'requires-auth', 'tokens are compared as the bytes they decode to in base64: padding, the other alphabet and dropped bits pass', { authenticate: bearer.decodedBytesCompared }),
  service('token-from-query', 'requires-auth', 'the access_token query parameter is read before the header, so the token travels in URLs (and logs)', { authenticate: bearer.queryTokenFirst }, 'warning'),
  service('last-authorization-field', 'requires-auth', 'of two Authorization fields the last one counts (headers collected into a map)', { authenticate: bearer.lastFieldWins }, 'warning'),
  service('any-whitespace-separator', 'requires-auth', 'the field is split on JavaScript whitespace, so a tab or U+00A0 passes for a space', { authenticate: bearer.anyWhitespace }, 'warning'),
  service('body-before-credentials', 'credentials-first', 'the JSON body parser runs before authentication, so a request without credentials and with malformed JSON gets 400', { authenticate: bearer.carefulAuthentication, parseBodyFirst: true }, 'warning'),

  // --- validation gaps ---
  fault('accepts-missing-name', 'rejects-invalid', 'a NewPlant without a name is stored under a default name', (request, correct, app) => {
    const body = objectBodyOf(request);
    return body && !Object.hasOwn(body, 'name') ? forward(app, request, { body: { ...body, name: 'unnamed' } }) : correct();
  }),
  fault('accepts-null-tag', 'rejects-invalid', 'tag: null is treated as no tag', (request, correct, app) => {
    const body = objectBodyOf(request);
    if (body?.tag !== null) return correct();
    return forward(app, request, { body: Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'tag')) });
  }),
  fault('coerces-string-id', 'rejects-invalid', 'an id sent as a string of digits is converted to a number', (request, correct, app) => {
    const body = objectBodyOf(request);
    return typeof body?.id === 'string' && /^-?\d+$/.test(body.id) ? forward(app, request, { body: { ...body, id: new LosslessNumber(body.id) } }) : correct();
  }),
  fault('truncates-fractional-id', 'rejects-invalid', 'a fractional id is truncated to an integer (1.5 becomes 1)', (request, correct, app) => {
    const body = objectBodyOf(request);
    const id = body?.id;
    if (!body || !isLosslessNumber(id) || exactInteger(id) !== undefined || !/^-?\d+\.\d+$/.test(id.value)) return correct();
    return forward(app, request, { body: { ...body, id: new LosslessNumber(id.value.split('.')[0] ?? '0') } });
  }),
  fault('unwraps-arrays', 'rejects-invalid', 'a body that is an array is taken as its first element', (request, correct, app) => {
    const body = bodyOf(request);
    return Array.isArray(body) && body.length > 0 && body[0] !== undefined ? forward(app, request, { body: body[0] }) : correct();
  }),

  // --- int64 ---
  fault('rounds-ids-through-a-double', 'echo', 'the plant is written back with JSON.stringify, so ids beyond 2^53 come back rounded', onSuccess((plant) => {
    const id = plant.id;
    return isLosslessNumber(id) ? { ...plant, id: new LosslessNumber(String(Number(id.value))) } : plant;
  })),
  fault('rejects-ids-beyond-2^53', 'accepts-valid', 'ids outside ±2^53 are refused as "unsafe integers"', (request, correct) => {
    const id = idOf(objectBodyOf(request));
    return id !== undefined && (id > TWO_53 || id < -TWO_53) && correct().status === 200 ? errorResponse(400, 'id: must be a safe integer') : correct();
  }),
  fault('accepts-uint64-ids', 'rejects-invalid', 'ids are checked against the unsigned 64-bit range, so 2^63 to 2^64-1 are accepted', (request, correct, app) => {
    const body = objectBodyOf(request);
    const id = idOf(body);
    if (!body || id === undefined || id < TWO_63 || id >= 2n * TWO_63) return correct();
    const answer = forward(app, request, { body: { ...body, id: new LosslessNumber('0') } });
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    return plant ? withBody(answer, { ...plant, id: new LosslessNumber(id.toString()) }) : answer;
  }),
  fault('rejects-exponent-ids', 'accepts-valid', 'ids written as 1.0 or 1e2 are refused: only plain digits are taken as integers', (request, correct) => {
    const id = objectBodyOf(request)?.id;
    return isLosslessNumber(id) && /[.eE]/.test(id.value) && correct().status === 200 ? errorResponse(400, 'id: must be an integer') : correct();
  }),

  // --- Unicode and long strings ---
  fault('mangles-astral-characters', 'echo', 'characters outside the Basic Multilingual Plane come back as U+FFFD (a utf8mb3 column)', onSuccess((plant) => ({
    ...plant,
    ...(typeof plant.name === 'string' ? { name: plant.name.replace(ASTRAL, '\ufffd') } : {}),
    ...(typeof plant.tag === 'string' ? { tag: plant.tag.replace(ASTRAL, '\ufffd') } : {}),
  }))),
  fault('truncates-long-names', 'echo', 'names are stored in a VARCHAR(255) and come back cut off', onSuccess((plant) => (typeof plant.name === 'string' ? { ...plant, name: plant.name.slice(0, 255) } : plant))),
  fault('trims-names', 'echo', 'names are trimmed before they are stored', onSuccess((plant) => (typeof plant.name === 'string' ? { ...plant, name: plant.name.trim() } : plant))),
  fault('rejects-empty-name', 'accepts-valid', 'an empty name is refused as if the contract had minLength: 1', (request, correct) =>
    stringField(objectBodyOf(request), 'name') === '' && correct().status === 200 ? errorResponse(400, 'name: must not be empty') : correct(),
  ),
  fault('server-error-on-nul', 'no-server-error', 'a NUL character in a name or tag makes the database insert fail with a 500', (request, correct) => {
    const body = objectBodyOf(request);
    const nul = [stringField(body, 'name'), stringField(body, 'tag')].some((s) => s?.includes('\u0000') === true);
    return nul && correct().status === 200 ? errorResponse(500, 'invalid byte sequence for encoding "UTF8": 0x00') : correct();
  }),

  // --- error bodies ---
  fault('error-as-string', 'response-shape', 'errors carry the reason phrase in "error" instead of a number', onError((answer) => ({ ...answer, body: JSON.stringify({ error: 'Bad Request', message: 'invalid request' }) }))),
  fault('plain-text-errors', 'response-shape', 'a 400 is plain text, as a framework default', onError((answer) => (answer.status === 400 ? { ...answer, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad Request' } : answer))),
  fault('problem-json-errors', 'response-shape', 'errors are RFC 9457 problem details, not the contract\'s Error', onError((answer) => ({
    ...answer,
    headers: { ...answer.headers, 'content-type': 'application/problem+json' },
    body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: answer.status, detail: 'invalid request' }),
  }))),
  fault('error-code-beyond-int32', 'response-shape', 'the "error" field carries a millisecond timestamp, beyond int32', onError((answer) => ({ ...answer, body: JSON.stringify({ error: 1_700_000_000_000, message: 'invalid request' }) }))),
  fault('unprocessable-entity', 'status-declared', 'schema violations get 422, which the contract does not declare', onError((answer) => (answer.code === 'invalid_body' ? errorResponse(422, 'unprocessable entity') : answer))),

  // --- media types ---
  fault('ignores-media-type', 'rejects-invalid', 'the body is parsed as JSON whatever the Content-Type says', (request, _correct, app) => forward(app, request, { headers: { 'content-type': 'application/json' } })),
  fault('rejects-charset-parameter', 'accepts-valid', 'the Content-Type must be exactly "application/json"; "application/json; charset=utf-8" is refused', (request, correct) => {
    const type = header(request, 'content-type');
    return correct().status === 200 && type !== 'application/json' ? errorResponse(400, 'content-type: must be application/json') : correct();
  }),
  fault('unsupported-media-type-415', 'status-declared', 'a wrong media type gets 415, which the contract does not declare', onError((answer) => (answer.code === 'unsupported_media_type' ? errorResponse(415, 'unsupported media type') : answer))),

  // --- repeated ids ---
  statefulFault('conflict-on-repeated-id', 'accepts-valid', 'an id posted before gets 409 Conflict instead of replacing the plant', () => {
    const seen = new Set<bigint>();
    return (request, correct) => {
      const answer = correct();
      const id = idOf(objectBodyOf(request));
      if (answer.status !== 200 || id === undefined) return answer;
      if (seen.has(id)) return errorResponse(409, 'id: already exists');
      seen.add(id);
      return answer;
    };
  }),
  statefulFault('keeps-first-plant', 'echo', 'a repeated id answers with the plant stored first (INSERT ... ON CONFLICT DO NOTHING)', () => {
    const first = new Map<bigint, string>();
    return (request, correct) => {
      const answer = correct();
      const id = idOf(objectBodyOf(request));
      if (answer.status !== 200 || id === undefined) return answer;
      const stored = first.get(id);
      if (stored !== undefined) return { ...answer, body: stored };
      first.set(id, answer.body);
      return answer;
    };
  }),

  // --- intermittent ---
  statefulFault('intermittent-server-error', 'no-server-error', 'one request in 40 gets a 500 (a connection pool that runs dry)', () => {
    let count = 0;
    return (_request, correct) => (++count % 40 === 0 ? errorResponse(500, 'internal: no database connection available') : correct());
  }),

  // --- hostile keys ---
  fault('server-error-on-proto-key', 'no-server-error', 'a "__proto__" or "constructor" key crashes the object merge with a 500', (request, correct) => {
    const body = objectBodyOf(request);
    return body && (Object.hasOwn(body, '__proto__') || Object.hasOwn(body, 'constructor')) ? errorResponse(500, 'internal: cannot convert object to primitive value') : correct();
  }),

  // --- success answers ---
  fault('created-instead-of-ok', 'accepts-valid', 'a new plant gets 201 Created, which the contract does not declare', (_request, correct) => {
    const answer = correct();
    return answer.status === 200 ? { ...answer, status: 201 } : answer;
  }),
  fault('lowercases-tag', 'echo', 'tags are lower-cased before they are stored', onSuccess((plant) => (typeof plant.tag === 'string' ? { ...plant, tag: plant.tag.toLowerCase() } : plant))),
  fault('html-content-type', 'response-shape', 'the plant is sent with res.send(string), so its Content-Type is text/html', (_request, correct) => {
    const answer = correct();
    return answer.status === 200 ? { ...answer, headers: { 'content-type': 'text/html; charset=utf-8' } } : answer;
  }),
  fault('plant-without-name', 'response-shape', 'the answer maps only id and tag back, so the Plant has no name', onSuccess((plant) => Object.fromEntries(Object.entries(plant).filter(([key]) => key !== 'name')))),

  // --- transport ---
  fault('hangs-on-malformed-json', 'no-server-error', 'a body that is not JSON is never answered (the error handler forgets to respond)', (_request, correct) => (correct().code === 'malformed_json' ? 'hang' : correct())),
  fault('resets-large-bodies', 'no-server-error', 'bodies over 16 KiB make the server close the connection without an answer', (request, correct) => {
    const size = typeof request.body === 'string' ? Buffer.byteLength(request.body) : (request.body?.length ?? 0);
    return size > 16 * 1024 ? 'reset' : correct();
  }),
  fault('garbage-for-other-media-types', 'no-server-error', 'a request that is not JSON is passed to a binary protocol handler, which answers with bytes that are not HTTP', (request, correct) =>
    /^application\/json\s*(;|$)/i.test(header(request, 'content-type') ?? '') ? correct() : sendGarbage,
  ),
  // --- time and capacity ---
  {
    name: 'backtracking-name-classifier',
    caughtBy: 'response-time',
    alone: 'its slow answers burn whole cores, and are measured',

    defect: 'names are classified for the search index with /^(\\w+\\s?)*$/ ("words separated by single spaces") on a pool of two threads before the answer: a long word ending in "!" takes seconds (catastrophic backtracking), cut at 1.5 s by a match timeout',
    start: async () => {
      const pool = regexPool(/^(\w+\s?)*$/, 2, 1500);
      const server = await startFaulty((request, correct) => {
        const answer = correct();
        const name = stringField(objectBodyOf(request), 'name');
        return answer.status === 200 && name !== undefined ? answerAfter(pool.test(name), answer) : answer;
      });
      return {
        url: server.url,
        close: async () => {
          await pool.close();
          await server.close();
        },
      };
    },
  },
  {
    ...statefulFault('leaks-a-listener-per-request', 'degradation', "every request subscribes an audit listener to the server's request events (to log what follows in its session) and none is ever removed: each request runs one more listener than the one before", () => {
      const requests = new EventEmitter().setMaxListeners(0);
      const trail: string[] = [];
      return (request, correct) => {
        requests.emit('request', request);
        const session = header(request, 'authorization') ?? '';
        // Meant to be removed when the answer is sent; never is.
        requests.on('request', (next: AppRequest) => {
          const line = `${next.method} ${next.url} ${JSON.stringify(next.headers)}`;
          if (trail.length < 100 && session !== '' && line.includes(session)) trail.push(line);
        });
        return correct();
      };
    }),
    alone: 'its defect is a trend of its times, which another implementation\'s load in the same process would blur',
    defaultRun: 'its trend shows in the canary\'s readings across the capacity floor of 5,000 plants',
  },
  {
    ...statefulFault('full-at-1000-plants', 'no-server-error', 'plants live in a table of 1,000 rows: once it is full a new plant gets 500 (replacing one it holds still works)', () => {
      const rows = new Set<bigint>();
      return (request, correct) => {
        const id = idOf(objectBodyOf(request));
        const answer = correct();
        if (answer.status !== 200 || id === undefined || rows.has(id)) return answer;
        if (rows.size >= 1000) return errorResponse(500, 'internal: the plants table is full (1000 rows)');
        rows.add(id);
        return answer;
      };
    }),
    defaultRun: 'its table fills at 1,000 plants: the suite\'s fill of 300 never reaches it',
  },
  {
    name: 'leaks-a-descriptor-per-connection',
    caughtBy: 'no-server-error',
    defaultRun: "its descriptors run out at 256 connections: the suite's fill of 300 opens 75 fresh ones, the default fill 1,250",
    defect: 'a graceful-shutdown wrapper replaces socket.end() to hold connections open until shutdown, so every connection a client closes stays half-open (CLOSE_WAIT); at 256 descriptors (ulimit -n on many systems) new connections are dropped',
    start: () =>
      startFaulty((_request, correct) => correct(), {}, (server) => {
        server.maxConnections = 256;
        server.on('connection', (socket: Socket) => {
          socket.end = () => socket;
        });
      }),
  },
  fault('endless-body-for-blank-names', 'no-server-error', 'a blank name makes the answer stream the whole store, without end', (request, correct) => {
    const name = stringField(objectBodyOf(request), 'name');
    const answer = correct();
    return name !== undefined && name.trim() === '' && answer.status === 200 ? sendEndlessBody : answer;
  }),

  // --- the coverage phase's families: boundaries, character classes, keys, media types ---
  ...COVERAGE_FAULTS,

  // --- hygiene of answers: byte order marks, charsets, codings, framing, answers per request ---
  ...HYGIENE_FAULTS,
  // --- requests in flight together (the overlap phase) ---
  ...OVERLAP_FAULTS,

  // --- JSON texts (RFC 8259) and the challenge's grammar (RFC 9110, section 11) ---
  ...JSON_TEXT_FAULTS,

  // --- what goes on the wire: framings of requests, answers a sender must not write ---
  ...WIRE_FAULTS,
];

/**
 * Faults of the time family that a default run does not catch every time on a loaded machine, so
 * they are not in the suite (a test that fails one run in some is no test): the oracle's harness
 * (bench/oracle-rates.test.ts) measures how often they are caught. A scan of every row grows with
 * the plants stored, and each canary send is itself a scan, a burst of CPU that an overloaded
 * scheduler stretches at random: with two busy loops it was caught in 27 of 30 runs, every miss at
 * load averages of 10 and more, where 30 s stored under 3,400 plants (bench/README.md).
 */
export const ORACLE_ONLY_FAULTS: readonly FaultyImplementation[] = [
  {
    ...statefulFault('scans-every-row-on-every-write', 'degradation', 'plants are kept as rows of JSON text, and every write recounts the plants per tag for a metrics gauge by parsing every row (no running count): each write costs more than the one before, in proportion to the plants stored', () => {
      const rows = new Map<bigint, string>();
      const plantsPerTag = new Map<string, number>();
      return (request, correct) => {
        const answer = correct();
        const id = answer.status === 200 ? idOf(responseObject(answer)) : undefined;
        if (id === undefined) return answer;
        rows.set(id, answer.body);
        plantsPerTag.clear();
        for (const row of rows.values()) {
          // Only the tag is read: JSON.parse's doubles do not touch it.
          const { tag } = JSON.parse(row) as { tag?: unknown };
          if (typeof tag !== 'string') continue;
          plantsPerTag.set(tag, (plantsPerTag.get(tag) ?? 0) + 1);
        }
        return answer;
      };
    }),
    alone: 'its defect is a trend of its times, which another implementation\'s load in the same process would blur',
  },
];

