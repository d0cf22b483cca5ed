/**
 * The checking proxy (`plant-store proxy`): it forwards every request to a real implementation of
 * the contract - the upstream - and hands the answer back, and judges each exchange with the
 * oracle's exchange checks (oracle/registry.ts, the ones conform runs; never copies of them) on
 * the way. What an observed request is comes from the contract (oracle/classify.ts); bodies are read
 * losslessly, so int64 ids are compared exactly.
 *
 * - **Unchanged both ways**: the method, the request target, the end-to-end header fields and the
 *   body bytes go up; the status, the end-to-end header fields and the body bytes come back. Only
 *   what RFC 9110, section 7.6 asks of an intermediary changes: hop-by-hop fields (section 7.6.1)
 *   are not forwarded, `Host` names the upstream (section 7.2), `Via` is added to the request
 *   (section 7.6.3), and the answer is framed anew (its bytes are held whole to judge them).
 * - **Findings on the answer**: `Plant-Store-Violations` names the checks that failed,
 *   `Plant-Store-Warnings` those that only warned (each absent when none); with `errors` a
 *   violating answer is replaced by a 502 Error describing the violations.
 * - **Linked reads**: what it passed on along the contract's links (a create, a replace, a delete)
 *   is remembered per credentials and session (oracle/observed-links.ts), so that a later
 *   read of the same resource is judged by the stateful checks, as the engine's sequences are.
 * - **One seam**: every exchange - request (credentials masked), answer, classification,
 *   findings - is handed to `onExchange`; the command line's log and summary listen there.
 * - **A journal** (the kit's, src/http/journal.ts, which masks credentials as it keeps them): each
 *   exchange with the upstream's answer and the proxy's verdict (`ProxyVerdict`: the findings),
 *   read at the reserved admin path `/__plant-store/` as on the mock - the proxy's own resources,
 *   never forwarded, judged or counted, unless `admin` is false: then that path is forwarded too.
 * - **The servers' layers, not copies**: src/http's socket layer (`listenOn`,
 *   `answerClientErrors`), admin router (`adminRouter`) and masking (secrets.ts).
 */
import { request as httpRequest, Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse, type ClientRequest } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadContract, type Contract } from '../src/openapi/index.js';
import { adminRouter, adminRoutes, answerClientErrors, answerWith, blot, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, endToEnd, errorBodyText, listenOn, maskRequestHeaders, maskTarget, parseBaseUrl, readCredentials, secretNamesOf, type SecretNames, type ServedExchange, type Hidden, type Journal, type ProxyVerdict } from '../src/http/index.js';
// The engine's parts the proxy needs, room by room: never fuzz/index.ts, which reaches the runner (test/proxy/imports.test.ts).
import { acceptsCoding, classifyRequest, codingList, createLinkMemory, DECODABLE_CODINGS, decodeCodings, DEFAULT_MAX_REMEMBERED, DEFAULT_MAX_RESPONSE_BYTES, judgeObserved, type Finding, type Framing, type HttpOutcome, type HttpRequest, type LinkMemory, type LinkTicket, type NeighbourRequest, type TransportFailure, type WireFacts } from '../oracle/index.js';
import { checksWith, type ProxiedExchange } from './exchange.js';
import { createTally, type ProxySummary } from './summary.js';

/** The proxy's answer headers: the checks that failed, and those that only warned. */
export const VIOLATIONS_HEADER = 'plant-store-violations';
export const WARNINGS_HEADER = 'plant-store-warnings';

/** Default time the upstream has for one answer: generous, since a real backend may be slow; a timeout is a finding of `no-server-error`. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * How much of a request body is kept to judge it: the kit's own body limit. A longer body is
 * forwarded whole all the same, and judged as open (the contract sets no limit).
 */
export const JUDGED_BODY_BYTES = DEFAULT_MAX_BODY_BYTES;

/** A request body declared this small or smaller is sent up with the head in one write (it is kept to judge it anyway). */
const HELD_BODY_BYTES = 64 * 1024;

export interface ProxyOptions {
  /** The implementation checked, e.g. `http://127.0.0.1:3000`; a path prefix is kept (`http://host/api`). */
  readonly upstream: string;
  /** Bearer tokens the upstream accepts: with one of them a 401 is a finding (rule 1). Other tokens are read from the answer. */
  readonly tokens?: readonly string[];
  /**
   * Credentials the upstream accepts per security scheme of the contract, by name (`--auth`): a
   * token, basic `user:password`, an API key. They judge the operations of other schemes than one
   * bearer scheme; a credential not known is read from the answer, as an unknown token is.
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Replace an answer that breaks the contract with a 502 Error describing the violations. */
  readonly errors?: boolean;
  /** How long the upstream has for one answer (ms); default 30 s. */
  readonly timeoutMs?: number;
  readonly contract?: Contract;
  /** Told every exchange once it is answered: the seam for logs and summaries. */
  readonly onExchange?: (exchange: ProxiedExchange) => void;
  /** Where every exchange is kept, with the proxy's verdict (src/http/journal.ts); default none. */
  readonly journal?: Journal<ProxyVerdict> | undefined;
  /** Serve the admin path /__plant-store/ (the journal as JSON, its page) instead of forwarding it; default true. */
  readonly admin?: boolean | undefined;
  /** Judge a read along the contract's links by what the proxy saw created, replaced or deleted before it (docs/proxy.md, "Linked reads"); default true. */
  readonly linkedReads?: boolean | undefined;
}

export interface RunningProxy {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Per check: exchanges judged, failures, warnings and the first example of each, so far. */
  summary(): ProxySummary;
  /** Stops accepting connections; exchanges in flight finish. Idempotent. */
  close(): Promise<void>;
}

/**
 * What the proxy writes itself, so never forwards (beside the hop-by-hop fields, src/http/hop-by-hop.ts):
 * it frames what it sends (Content-Length), and sends no trailer section (Trailer).
 */
const REFRAMED = ['content-length', 'trailer'];

/** Header pairs as `rawHeaders` gives them, less the hop-by-hop ones and those the proxy frames itself. */
function forwardable(raw: readonly string[]): [name: string, value: string][] {
  return endToEnd(raw, REFRAMED);
}

/**
 * The request as the checks read it: lower-case names, repeated fields joined (RFC 9110, section
 * 5.3) - except Authorization, which is no list: a second field is a line of its own, as the
 * engine sends it (`extraLines`), so that two sets of credentials read as two.
 */
function observedRequest(method: string, target: string, pairs: readonly (readonly [string, string])[], body: Uint8Array): HttpRequest {
  const headers: Record<string, string> = {};
  const extraLines: [string, string][] = [];
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    if (name === 'host') continue;
    if (name === 'authorization' && headers[name] !== undefined) extraLines.push([name, value]);
    else headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { method, path: target, headers, body, ...(extraLines.length === 0 ? {} : { extraLines }) };
}

/** Lower-case names, repeated fields joined: how the checks read an answer's headers. */
function joined(pairs: readonly (readonly [string, string])[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/** An absolute-form target (`http://host/plants`) as the origin-form the upstream is sent (RFC 9112, section 3.2.2: the proxy is the target's authority now). */
function originForm(target: string): string {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}

/** Why the upstream gave no answer, as the engine names it. */
function failureOf(error: NodeJS.ErrnoException): TransportFailure {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || error.message === 'socket hang up') return 'reset';
  if (code.startsWith('HPE_')) return 'malformed-response';
  return 'error';
}

/** What the proxy says when the upstream could not be reached at all: no answer to judge. */
function upstreamUnreachable(outcome: HttpOutcome): boolean {
  return outcome.kind === 'failure' && (outcome.failure === 'connection-refused' || outcome.failure === 'error');
}

/** An answer as the proxy writes it: status, end-to-end fields in order, body bytes. */
interface ProxyResponse {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

/** The upstream's answer, with what the proxy learnt reading it. */
interface UpstreamResponse extends ProxyResponse {
  /** The upstream's Content-Length, kept on an answer without a body (to HEAD, a 304), where it describes the body a GET would get. */
  readonly declaredLength?: string;
  /** Set when the body is in a coding the client accepted and the proxy cannot undo: why it is passed through unjudged. */
  readonly unreadable?: string;
}

/** A request through the proxy as the checks read it, and its neighbours: the requests in flight beside it. */
interface Observed {
  readonly request: HttpRequest;
  readonly others: NeighbourRequest[];
  /** The upstream connection it went on (0 until it has one). */
  connection: number;
}

/** Neighbours kept per exchange at most, as the engine's client keeps them. */
const MAX_NEIGHBOURS = 8;

/**
 * What the proxy saw of an answer on the wire, as the engine's client reports it (WireFacts), so
 * that the checks reading it judge the upstream's answers here too: the framing, the declared and
 * received lengths, the content codings - undone for the checks (oracle/codings.ts), the bytes
 * passed on untouched - and the requests it could have been for. Node's HTTP parser keeps the
 * rest to itself: bytes after an answer, a Content-Length next to Transfer-Encoding (it refuses
 * that answer: a malformed response), transfer codings other than chunked.
 */
function wireFacts(method: string, answer: IncomingMessage, fields: Readonly<Record<string, string>>, body: Buffer, where: Pick<WireFacts, 'connection' | 'exchangesBefore' | 'others'>): { wire: WireFacts; readable: Buffer } {
  const status = answer.statusCode ?? 0;
  const declared = answer.headers['content-length'];
  const framing: Framing =
    method === 'HEAD' || status === 204 || status === 304 || status < 200 ? 'none' : answer.headers['transfer-encoding'] !== undefined ? 'chunked' : declared !== undefined ? 'content-length' : 'close';
  const contentCodings = codingList(fields['content-encoding']).filter((coding) => coding !== 'identity');
  const decoded = decodeCodings(contentCodings, body, DEFAULT_MAX_RESPONSE_BYTES);
  const wire: WireFacts = {
    ...where,
    framing,
    ...(declared === undefined ? {} : { contentLength: Number(declared) }),
    receivedLength: body.length,
    contentCodings,
    transferCodings: [],
    ...('error' in decoded ? { undecodable: decoded.error } : decoded.rawDeflate ? { rawDeflate: true } : {}),
  };
  return { wire, readable: 'error' in decoded ? body : decoded.body };
}

/** The Error the client gets instead of a violating answer (`errors`), or when there is no answer to pass on. */
function errorAnswer(status: number, message: string): ProxyResponse {
  const body = Buffer.from(errorBodyText(status, message));
  return { status, headers: [['content-type', 'application/json']], body };
}

/**
 * CORS fields of the upstream's answer, kept on a 502 that replaces it, so a page still reads
 * the Error; and the proxy's own fields added to `Access-Control-Expose-Headers` where the
 * upstream let the page read its answer at all (Fetch, "CORS protocol"): otherwise a script
 * cannot see them.
 */
function corsOf(pairs: readonly (readonly [string, string])[]): [string, string][] {
  return pairs.filter(([name]) => name.toLowerCase().startsWith('access-control-') || name.toLowerCase() === 'vary').map(([n, v]) => [n, v]);
}

function exposeOwn(pairs: [string, string][], own: readonly string[]): [string, string][] {
  if (own.length === 0 || !pairs.some(([name]) => name.toLowerCase() === 'access-control-allow-origin')) return pairs;
  const index = pairs.findIndex(([name]) => name.toLowerCase() === 'access-control-expose-headers');
  const existing = index < 0 ? undefined : pairs[index];
  if (existing?.[1].trim() === '*') return pairs;
  const exposed: [string, string] = ['Access-Control-Expose-Headers', [existing?.[1], ...own].filter((v) => v !== undefined && v.trim() !== '').join(', ')];
  return index < 0 ? [...pairs, exposed] : pairs.map((pair, i) => (i === index ? exposed : pair));
}

/** The fields sent up: the end-to-end ones but Host, which names the upstream (RFC 9110, section 7.2), and Via, to which the proxy adds itself (section 7.6.3). */
function upstreamFields(raw: readonly string[], host: string, declared: string | undefined): [string, string][] {
  const pairs = forwardable(raw);
  const via = pairs.filter(([name]) => name.toLowerCase() === 'via').map(([, value]) => value);
  const kept = pairs.filter(([name]) => name.toLowerCase() !== 'host' && name.toLowerCase() !== 'via');
  return [['Host', host], ...kept, ['Via', [...via, '1.1 plant-store-proxy'].join(', ')], ...(declared === undefined ? [] : [['Content-Length', declared] as [string, string]])];
}

/** A request body as it streams through: the first JUDGED_BODY_BYTES kept to judge it, the whole length counted. */
function keepRequestBody(req: IncomingMessage): { bytes(): Buffer; received(): number; whole(): boolean } {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (keptBytes >= JUDGED_BODY_BYTES) return;
    const part = chunk.length <= JUDGED_BODY_BYTES - keptBytes ? chunk : chunk.subarray(0, JUDGED_BODY_BYTES - keptBytes);
    kept.push(part);
    keptBytes += part.length;
  });
  return {
    bytes: () => (kept.length === 1 ? (kept[0] as Buffer) : Buffer.concat(kept, keptBytes)),
    received: () => received,
    whole: () => received === keptBytes,
  };
}

/** The upstream's answer collected whole, up to the engine's limit: an answer larger is a finding of its own (no-server-error), never held whole. */
function collect(answer: IncomingMessage, fail: (failure: TransportFailure, message: string) => void, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DEFAULT_MAX_RESPONSE_BYTES) {
      answer.destroy();
      fail('oversized-response', `the answer is larger than ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
      return;
    }
    chunks.push(chunk);
  });
  answer.on('error', (error: NodeJS.ErrnoException) => {
    fail(failureOf(error), error.message);
  });
  answer.on('end', () => {
    if (size <= DEFAULT_MAX_RESPONSE_BYTES) done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
  });
}

/** What the client is given: the upstream's answer; a 502 Error describing the violations instead (`errors`); a 502 or 504 Error when no answer came. */
function givenFor(outcome: HttpOutcome, answer: UpstreamResponse | undefined, findings: readonly Finding[], errors: boolean): ProxyResponse {
  if (answer === undefined) return errorAnswer(outcome.kind === 'failure' && outcome.failure === 'timeout' ? 504 : 502, `upstream: no answer (${outcome.kind === 'failure' ? `${outcome.failure}: ${outcome.message}` : 'none'})`);
  const described = findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);
  if (!errors || described.length === 0) return answer;
  const given = errorAnswer(502, `upstream: the answer (${answer.status}) broke the contract; ${described.join('; ')}`);
  given.headers.push(...corsOf(answer.headers));
  return given;
}

/**
 * An exchange as the proxy's journal is given it: the request as the client sent it (the journal
 * masks credentials itself, and blots what it hid out of the rest), and the upstream's answer as it
 * sent it (a gzip body stays gzip) or, when none came, the proxy's Error.
 */
function journalExchange(req: IncomingMessage, exchange: ProxiedExchange, verdict: ProxyVerdict, response: ProxyResponse): ServedExchange<ProxyVerdict> {
  return {
    request: { method: exchange.request.method, url: req.url ?? '/', headers: lookupOf(req.rawHeaders) },
    body: exchange.request.body,
    bodyBytes: exchange.request.bodyBytes,
    verdict,
    response: { status: response.status, headers: lookupOf(response.headers.flat()), body: response.body },
    delayMs: 0,
    durationMs: exchange.durationMs,
  };
}

/** What judging and telling an exchange needs of the proxy. */
interface ProxyJudging {
  readonly contract: Contract;
  readonly tokens: readonly string[];
  /** The credentials per scheme the upstream accepts, as compared (readCredentials). */
  readonly credentials: Readonly<Record<string, string>>;
  /** The names of the contract's API keys, masked whatever they look like. */
  readonly secretNames: SecretNames;
  readonly errors: boolean;
  readonly tally: { record(exchange: ProxiedExchange): void };
  readonly onExchange: ((exchange: ProxiedExchange) => void) | undefined;
  readonly journal: Journal<ProxyVerdict> | undefined;
  /** What the proxy saw done along the contract's links: a later read of the same resource is judged by it. */
  readonly links: LinkMemory;
}

/** One exchange as it arrived, for its conclusion. */
interface Arrival {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly id: number;
  readonly startedAt: Date;
  /** performance.now() at arrival. */
  readonly started: number;
  /** In origin form. */
  readonly target: string;
  /** The end-to-end fields as the client sent them, Host aside. */
  readonly forwarded: readonly [string, string][];
  readonly kept: { received(): number; whole(): boolean };
  /** Its arrival as the link memory noted it. */
  readonly ticket: LinkTicket;
}

/** The exchange is over: judge it, answer the client, tell the seam, the tally and the journal. `answer` is the upstream's, undefined when none came. */
function conclude(judge: ProxyJudging, arrival: Arrival, request: HttpRequest, outcome: HttpOutcome, answer: UpstreamResponse | undefined): void {
  const { req, res, target } = arrival;
  const classification = classifyRequest(judge.contract, request, { tokens: judge.tokens, credentials: judge.credentials, complete: arrival.kept.whole() && req.complete, maxDepth: DEFAULT_MAX_DEPTH });
  const notJudged = upstreamUnreachable(outcome) ? `the upstream could not be reached (${outcome.kind === 'failure' ? outcome.message : ''})` : answer?.unreadable;
  const link = judge.links.settle(arrival.ticket, request, classification, outcome);
  const judged = notJudged === undefined ? judgeObserved(judge.contract, request, classification, outcome, {}, link) : undefined;
  // Masked by the kit's one policy (src/http/secrets.ts); a message quotes bodies, which may
  // quote a credential or a configured token: blotted out, so none leaves the proxy in what it says.
  const hidden: Hidden = [...judge.tokens, ...Object.values(judge.credentials)];
  const told = { target: maskTarget(target, hidden, judge.secretNames), headers: maskRequestHeaders(lookupOf(arrival.forwarded.flat()), hidden, judge.secretNames) };
  const findings = (judged?.findings ?? []).map((finding) => ({ ...finding, message: blot(finding.message, hidden) }));
  const failed = checksWith(findings, 'failure');
  const warned = checksWith(findings, 'warning').filter((name) => !failed.includes(name));
  const given = givenFor(outcome, answer, findings, judge.errors);
  const own: [string, string][] = [...(failed.length > 0 ? [['Plant-Store-Violations', failed.join(', ')] as [string, string]] : []), ...(warned.length > 0 ? [['Plant-Store-Warnings', warned.join(', ')] as [string, string]] : [])];
  write(res, request.method, given, [...exposeOwn(given.headers, own.map(([name]) => name)), ...own], given === answer ? answer.declaredLength : undefined);
  const exchange: ProxiedExchange = {
    id: arrival.id,
    startedAt: arrival.startedAt.toISOString(),
    durationMs: performance.now() - arrival.started,
    request: { method: request.method, ...told, body: request.body, bodyBytes: arrival.kept.received() },
    outcome,
    answered: given.status,
    classification,
    ...(notJudged === undefined ? {} : { notJudged }),
    judgedBy: judged?.judgedBy ?? [],
    findings,
  };
  judge.tally.record(exchange);
  judge.onExchange?.(exchange);
  judge.journal?.add(journalExchange(req, exchange, proxyVerdict(findings, failed, warned, exchange.judgedBy, notJudged, outcome, answer === undefined || given === answer ? undefined : given.status), answer ?? given));
}

/** The upstream's whole answer as the checks read it (its wire facts, its body decoded) and as the client gets it. */
function readAnswer(request: HttpRequest, answer: IncomingMessage, body: Buffer, where: Pick<WireFacts, 'connection' | 'exchangesBefore' | 'others'>, durationMs: number): { outcome: HttpOutcome; answer: UpstreamResponse } {
  const answerPairs = forwardable(answer.rawHeaders);
  const status = answer.statusCode ?? 502;
  const fields = joined(answerPairs);
  const { wire, readable } = wireFacts(request.method, answer, fields, body, where);
  const outcome: HttpOutcome = { kind: 'response', status, headers: fields, body: readable, durationMs, wire };
  // A coding the client accepted that the proxy cannot undo (zstd, say): the client can read the answer, the proxy cannot judge it.
  const unknown = wire.contentCodings.filter((coding) => !DECODABLE_CODINGS.includes(coding));
  const unreadable = unknown.length > 0 && unknown.every((coding) => acceptsCoding(request.headers['accept-encoding'], coding)) ? `the answer is in a content coding the proxy cannot undo (${unknown.join(', ')})` : undefined;
  return {
    outcome,
    answer: {
      status,
      headers: answerPairs,
      body,
      ...(answer.headers['content-length'] === undefined ? {} : { declaredLength: answer.headers['content-length'] }),
      ...(unreadable === undefined ? {} : { unreadable }),
    },
  };
}

/**
 * What the engine's client knows of its connections, kept for the proxy's to the upstream, for
 * the checks that read the wire: each connection's number (from 1, as first used), the request it
 * carried last, and the exchanges in flight - each other's neighbours, as in the engine's client.
 */
function upstreamConnections(): {
  number(socket: Socket): number;
  begin(observed: Observed): void;
  end(observed: Observed): void;
  answered(socket: Socket | undefined, observed: Observed): Pick<WireFacts, 'connection' | 'exchangesBefore' | 'others'>;
} {
  const ids = new WeakMap<Socket, number>();
  let next = 1;
  const lastOn = new WeakMap<Socket, { readonly request: HttpRequest; readonly exchanges: number }>();
  const active = new Set<Observed>();
  return {
    number(socket) {
      const id = ids.get(socket) ?? next++;
      ids.set(socket, id);
      return id;
    },
    begin(observed) {
      for (const other of active) {
        if (observed.others.length < MAX_NEIGHBOURS) observed.others.push({ request: other.request, relation: 'concurrent', connection: other.connection });
        if (other.others.length < MAX_NEIGHBOURS) other.others.push({ request: observed.request, relation: 'concurrent', connection: observed.connection });
      }
      active.add(observed);
    },
    end(observed) {
      active.delete(observed);
    },
    answered(socket, observed) {
      const previous = socket === undefined ? undefined : lastOn.get(socket);
      if (socket !== undefined) lastOn.set(socket, { request: observed.request, exchanges: (previous?.exchanges ?? 0) + 1 });
      const before: NeighbourRequest[] = previous === undefined ? [] : [{ request: previous.request, relation: 'previous', connection: observed.connection }];
      return { connection: observed.connection, exchangesBefore: previous?.exchanges ?? 0, others: [...before, ...observed.others] };
    },
  };
}

/** How the proxy reaches its upstream, and what it judges and tells with. */
interface Forwarding {
  readonly upstream: URL;
  /** The upstream's path prefix, without a trailing slash. */
  readonly prefix: string;
  readonly send: typeof httpRequest;
  readonly agent: HttpAgent;
  readonly timeoutMs: number;
  readonly judge: ProxyJudging;
  readonly connections: ReturnType<typeof upstreamConnections>;
}

/** One request forwarded: sent up as it comes, its answer collected, judged and handed back (`conclude`). */
function forward(forwarder: Forwarding, id: number, req: IncomingMessage, res: ServerResponse): void {
  const { upstream } = forwarder;
  const startedAt = new Date();
  const started = performance.now();
  const method = req.method ?? 'GET';
  const target = originForm(req.url ?? '/');
  const forwarded = forwardable(req.rawHeaders).filter(([name]) => name.toLowerCase() !== 'host');
  const declared = req.headers['content-length'];
  const headers = upstreamFields(req.rawHeaders, upstream.host, declared);
  const kept = keepRequestBody(req);
  const ticket = forwarder.judge.links.arrive(observedRequest(method, target, forwarded, Buffer.alloc(0)), id);
  /** The request as the checks read it, made once its body is in (or when the exchange ends first). */
  let observed: Observed | undefined;
  const observe = (): Observed => {
    if (observed !== undefined) return observed;
    observed = { request: observedRequest(method, target, forwarded, kept.bytes()), others: [], connection: connection ?? 0 };
    forwarder.connections.begin(observed);
    if (req.complete && kept.whole()) forwarder.judge.links.whole(ticket, observed.request);
    return observed;
  };
  req.once('end', observe);
  /** The upstream connection the request went on, numbered from 1 as the proxy first used it. */
  let connection: number | undefined;
  let upstreamSocket: Socket | undefined;

  let settled = false;
  /** The exchange is over: judge it, answer the client, tell the seam. `answer` is the upstream's, undefined when none came. */
  const settle = (outcome: HttpOutcome, answer?: UpstreamResponse): void => {
    if (settled) return;
    settled = true;
    const seen = observe();
    forwarder.connections.end(seen);
    conclude(forwarder.judge, { req, res, id, startedAt, started, target, forwarded, kept, ticket }, seen.request, outcome, answer);
  };

  const up: ClientRequest = forwarder.send({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method, path: forwarder.prefix + target, headers: headers.flat(), agent: forwarder.agent, setHost: false });
  up.once('socket', (socket: Socket) => {
    upstreamSocket = socket;
    connection = forwarder.connections.number(socket);
    if (observed !== undefined) observed.connection = connection;
  });
  up.setTimeout(forwarder.timeoutMs, () => {
    up.destroy(Object.assign(new Error(`no answer within ${forwarder.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
  });
  up.on('error', (error: NodeJS.ErrnoException) => {
    const failure: TransportFailure = error.code === 'ETIMEDOUT' ? 'timeout' : failureOf(error);
    settle({ kind: 'failure', failure, message: error.message, durationMs: performance.now() - started });
  });
  up.on('response', (answer: IncomingMessage) => {
    collect(answer, (failure, message) => {
      settle({ kind: 'failure', failure, message, durationMs: performance.now() - started });
    }, (body) => {
      const seen = observe();
      const read = readAnswer(seen.request, answer, body, forwarder.connections.answered(upstreamSocket, seen), performance.now() - started);
      settle(read.outcome, read.answer);
    });
  });
  // A small body declared up front goes up with the head in one write; any other is streamed as it comes.
  if (declared !== undefined && Number(declared) <= HELD_BODY_BYTES) {
    req.once('end', () => {
      up.end(kept.bytes());
    });
  } else req.pipe(up);
  // A client that goes away before its request is whole: the upstream's request is cut too; nothing is judged.
  req.once('close', () => {
    if (req.complete) return;
    if (!settled) forwarder.judge.links.abandon(ticket);
    settled = true;
    if (observed !== undefined) forwarder.connections.end(observed);
    up.destroy();
  });
}

/** Creates the proxy's node:http server (not listening). */
export function createProxyServer(options: ProxyOptions): { server: Server; summary: () => ProxySummary; dispose: () => void } {
  const contract = options.contract ?? loadContract();
  const upstream = parseBaseUrl(options.upstream);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  // Connections to the upstream are kept and reused: what the proxy adds to each exchange is measured in bench/.
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const tokens = options.tokens ?? [];
  const tally = createTally({ upstream: options.upstream, contract });
  const { journal } = options;
  const credentials = readCredentials(contract, options.credentials ?? {});
  const judge: ProxyJudging = { contract, tokens, credentials, secretNames: secretNamesOf(contract), errors: options.errors === true, tally, onExchange: options.onExchange, journal, links: createLinkMemory(contract, options.linkedReads === false ? 0 : DEFAULT_MAX_REMEMBERED) };
  const admin = options.admin === false ? undefined : adminRouter(contract, adminRoutes(journal, 'this proxy was started with journal: false'));
  let nextId = 1;
  const forwarder: Forwarding = { upstream, prefix, send, agent, timeoutMs, judge, connections: upstreamConnections() };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const own = admin?.(req);
    if (own === undefined) forward(forwarder, nextId++, req, res);
    else answerWith(req, res, own);
  };

  const server = createServer({ keepAliveTimeout: 5_000, joinDuplicateHeaders: true }, handle);
  answerClientErrors(server);
  return {
    server,
    summary: () => tally.summary(),
    dispose: () => {
      agent.destroy();
    },
  };
}

/** Header pairs, flat as `rawHeaders` has them, as a journal reads them: lower-case names, a repeated field's values in an array. */
function lookupOf(raw: readonly string[]): Record<string, string | string[]> {
  const lookup: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const held = lookup[name];
    lookup[name] = held === undefined ? value : typeof held === 'string' ? [held, value] : [...held, value];
  }
  return lookup;
}

/** The proxy's verdict on an exchange, as its journal keeps it: the findings, and what they make of it. */
function proxyVerdict(findings: readonly Finding[], failed: readonly string[], warned: readonly string[], judgedBy: readonly string[], notJudged: string | undefined, outcome: HttpOutcome, answered: number | undefined): ProxyVerdict {
  return {
    outcome: notJudged !== undefined ? 'not-judged' : failed.length > 0 ? 'violated' : warned.length > 0 ? 'warned' : 'passed',
    findings: findings.map(({ check, severity, message }) => ({ check, severity, message })),
    judgedBy,
    ...(notJudged === undefined ? {} : { reason: notJudged }),
    ...(outcome.kind === 'failure' ? { failure: outcome.failure } : {}),
    ...(answered === undefined ? {} : { answered }),
  };
}

/** Writes an answer: the status, its fields and the proxy's own, and the body framed by Content-Length (none where HTTP forbids a body). */
function write(res: ServerResponse, method: string, answer: ProxyResponse, headers: readonly (readonly [string, string])[], declaredLength: string | undefined): void {
  if (res.headersSent || res.destroyed) return;
  const fields: string[] = headers.flatMap(([name, value]) => [name, value]);
  // RFC 9110, sections 8.6 and 9.3.2: no body to HEAD, in a 204 or a 304; their Content-Length, if any, is the upstream's.
  const bodiless = method === 'HEAD' || answer.status === 204 || answer.status === 304 || answer.status < 200;
  if (!bodiless) fields.push('Content-Length', String(answer.body.length));
  else if (declaredLength !== undefined && answer.status !== 204) fields.push('Content-Length', declaredLength);
  res.writeHead(answer.status, fields);
  res.end(bodiless ? undefined : answer.body);
}

/** Starts the proxy on a socket (src/http's socket layer); resolves once it listens. Port 0 picks a free port. */
export async function listenProxy(options: ProxyOptions & { readonly port?: number; readonly host?: string }): Promise<RunningProxy> {
  const { server, summary, dispose } = createProxyServer(options);
  const running = await listenOn(server, { port: options.port ?? 4020, host: options.host });
  let closing: Promise<void> | undefined;
  return {
    url: running.url,
    port: running.port,
    server,
    summary,
    close: () => (closing ??= running.close().then(dispose)),
  };
}
