/**
 * The one request pipeline both kit servers run, the reference implementation and the mock:
 *
 *   [CORS preflight] → route → head rules → parameters → admit ┊ body rules → respond → [CORS] → [latency]
 *                      └──────────── refusal? ────────────┘ ┊ └─ refusal? ─┘   └ defect? → 500, reported
 *
 * Everything before `┊` is judged on the head, before any of the body is read (the socket layer
 * reads the body only for an admitted request); the rules are rules.ts's lists, in order. The
 * part that differs between the servers is the **answer**: `admit` (what the answer needs to
 * know of the head, or a refusal: the mock reads `Prefer` there, before the body) and `respond`
 * (the answer to a request every rule accepted: the reference's store, the mock's Prism;
 * synchronous or not). This is the one place that turns a refusal into its Error answer and a
 * defect - an exception anywhere in the pipeline or the answer, or a refusal coded `internal` -
 * into a 500 Error, told to `onDefect` (stderr by default: never silent).
 *
 * Options, not copies: `cors: true` answers CORS preflights and lets pages read every answer
 * (cors.ts; the mock turns it on, and so may the reference with one line); `delivery` holds an
 * answer back or breaks it on purpose (the mock's `--delay` and `Prefer: delay, fault`; an
 * asynchronous pipeline only); `onExchange` is told every request with its verdict and answer
 * (the request journal's seam, journal.ts); `admin` answers the reserved admin path
 * `/__plant-store/` before anything else (the journal's JSON and page), never told to `onExchange`.
 *
 * To add a rule, see rules.ts: the rule and its place in HEAD_RULES or BODY_RULES there, its
 * error code in errors.ts if it needs a new one, and its test. Nothing here changes.
 */
import { schemePolicies, type GivenCredentials } from './credentials.js';
import { variantFor, type Contract, type JsonValue, type OperationContract, type ParsedParameters } from '../openapi/portable.js';
import { adminRouter, type AdminRoutes } from './admin.js';
import { isPreflight, preflightResponse, withCors } from './cors.js';
import { PlantStoreError } from './errors.js';
import { NEGOTIATION_RULE, negotiatedOperations, notAcceptable } from './negotiation.js';
import type { Journal } from './journal.js';
import { planRefusals, refusalBody } from './refusals.js';
import { headerValue, type AppRequest, type AppResponse, type Delivery, type ServedExchange, type RequestHead, type Verdict } from './exchange.js';
import { BODY_RULES, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, EMPTY_BODY_RULES, HEAD_RULES, isAbsentBody, PARAMETERS_RULE, readParameters, ROUTE_RULE, route, type Body, type RuleSettings, type TokenPolicy } from './rules.js';

/** What an answer gives: the response, or a refusal (one coded `internal` is a defect of the kit). */
export type Reply = AppResponse | PlantStoreError;

/** A response now, or later (an asynchronous answer, simulated latency). */
export type Answered = AppResponse | Promise<AppResponse>;

/** What an answer keeps of a request whose head passed every rule; never shaped like a response (no `status`). */
export interface Admitted {
  readonly operation: OperationContract;
}

/** The part of a server that differs: how it answers a request the rules accepted. */
export interface Answer<A extends Admitted, R extends Reply | Promise<Reply>> {
  /**
   * Called once the head passed every rule, before any of the body is read, with the request's
   * parameters as typed values: what `respond` needs of the head, or a refusal.
   */
  admit(operation: OperationContract, request: RequestHead, parameters: ParsedParameters): A | PlantStoreError;
  /**
   * The answer to a request whose body passed every rule; `body` undefined when the request has
   * none and needs none. A JSON object where the request schema is of objects; otherwise any
   * value its media type's codec reads (JSON of any type, a string of text or bytes).
   */
  respond(admitted: A, body: JsonValue | undefined): R;
  /** How a verdict names a refusal by `admit` or `respond` (the mock's: `prefer`); default `answer`. */
  readonly rule?: string;
}

/** What both kit servers (the reference's createApp, the mock's createMock) take for the pipeline they run. */
export interface ServerSettings {
  /** Credentials accepted per security scheme of the contract, by its name (credentials.ts); the others take the server's tokens. */
  readonly credentials?: GivenCredentials | undefined;
  readonly maxBodyBytes?: number;
  readonly maxDepth?: number;
  readonly contract?: Contract;
  /** Told the exception behind every 500; default: stderr. */
  readonly onDefect?: (cause: unknown) => void;
  /** Where every exchange is kept, with its verdict (journal.ts); default none: the journal holds bodies. */
  readonly journal?: Journal | undefined;
  /** Serve the admin path /__plant-store/ (the journal as JSON, its page); default true. */
  readonly admin?: boolean | undefined;
}

export interface PipelineOptions<A extends Admitted, R extends Reply | Promise<Reply>> {
  readonly contract: Contract;
  /** Which well-formed bearer tokens are accepted: `acceptTokens([...])` or `acceptAnyToken`. */
  readonly accept: TokenPolicy;
  /** Credentials accepted per security scheme, by its name: `{ api_key: 'k1', basicAuth: ['ann:pw'], oauth: 'tok:read,write' }` (credentials.ts). */
  readonly credentials?: GivenCredentials | undefined;
  readonly maxBodyBytes?: number | undefined;
  readonly maxDepth?: number | undefined;
  readonly answer: Answer<A, R>;
  /** Answer CORS preflights and let pages from any origin read every answer (cors.ts). */
  readonly cors?: boolean | undefined;
  /**
   * Told the exception behind every 500 (a defect of the kit; the client gets only an Error that
   * says so). Default: its stack trace on stderr, whether or not requests are logged.
   */
  readonly onDefect?: ((cause: unknown) => void) | undefined;
  /**
   * Told every exchange once its answer is ready: the request, the body as read, the verdict and
   * the answer (the request journal, journal.ts). Not told admin requests. An exception it throws
   * is a defect reported to `onDefect`; the answer still goes out.
   */
  readonly onExchange?: ((exchange: ServedExchange) => void) | undefined;
  /** Answers the admin path `/__plant-store/` (journal.ts: `adminRoutes`); without it those paths are routed like any other. */
  readonly admin?: AdminRoutes | undefined;
}

/** Options of a pipeline whose answers may come later. */
export interface AsyncPipelineOptions<A extends Admitted> extends PipelineOptions<A, Promise<Reply>> {
  /**
   * How the answer to a request goes out: held back by `delayMs`, and broken by a `fault`
   * (exchange.ts). Asked once per request but a CORS preflight or an admin request; undefined
   * for at once and whole.
   */
  readonly delivery?: ((request: RequestHead) => Delivery | undefined) | undefined;
}

/**
 * A pipeline as the socket layer drives it (`head`, then `body` for an admitted request), and as
 * tests call it without a socket (`request`). `R` is `AppResponse` when every answer is
 * synchronous (the reference), `Answered` otherwise. None of its methods throws.
 */
export interface Pipeline<A extends Admitted = Admitted, R extends Answered = Answered> {
  readonly contract: Contract;
  /** The body limit, which the socket layer also enforces while it reads. */
  readonly maxBodyBytes: number;
  /** Each error response whose shape cannot carry a refusal's reason validly, named once (refusals.ts): for the banner. */
  readonly refusalNotes: readonly string[];
  /** The answer to give at once, or the admitted request whose body is to be read. */
  head(request: RequestHead): A | R;
  /** The answer to an admitted request, from its whole body. */
  body(request: RequestHead, admitted: A, bytes: Uint8Array): R;
  /**
   * The answer to a refusal the socket layer makes itself (a body over the limit while it is
   * read: rule `size`; a missing Host: rule `host`).
   */
  refuse(request: RequestHead, refusal: PlantStoreError, rule: string): R;
  /** The whole exchange in one call, no socket. */
  request(request: AppRequest): R;
}

/** Whether `head` gave an answer rather than an admitted request. */
export function isAnswered(value: Admitted | Answered): value is Answered {
  return value instanceof Promise || 'status' in value;
}

/** The default `onDefect`: a defect is never silent, even with `--quiet`. */
export function reportDefect(cause: unknown): void {
  const detail = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
  process.stderr.write(`plant-store: a request was answered 500 because of a defect of the kit: ${detail}\n`);
}

const EMPTY = new Uint8Array(0);
const ACCEPTED: Verdict = Object.freeze({ outcome: 'accepted' });
const PREFLIGHT: Verdict = Object.freeze({ outcome: 'preflight' });

export function createPipeline<A extends Admitted>(options: PipelineOptions<A, Reply>): Pipeline<A, AppResponse>;
export function createPipeline<A extends Admitted>(options: AsyncPipelineOptions<A>): Pipeline<A>;
export function createPipeline<A extends Admitted>(options: PipelineOptions<A, Reply | Promise<Reply>> & Pick<AsyncPipelineOptions<A>, 'delivery'>): Pipeline<A> {
  const { contract, answer, onExchange, admin, delivery } = options;
  const cors = options.cors ?? false;
  const onDefect = options.onDefect ?? reportDefect;
  const answerRule = answer.rule ?? 'answer';
  // Worked out once: a contract whose schemes all take `accept` (the bundled one) gets no map to look in.
  const credentials = schemePolicies(contract, options.accept, options.credentials);
  const settings: RuleSettings = { accept: options.accept, ...(credentials ? { credentials } : {}), maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
  // The operations whose answers Accept picks (negotiation.ts): none for the bundled contract.
  const negotiated = negotiatedOperations(contract);
  const adminAnswer = admin ? adminRouter(contract, admin, { cors }) : undefined;
  // Each operation's refusals in the contract's words, worked out now: a refusal costs a lookup.
  const refusals = planRefusals(contract);
  // The body under judgement: one object for every request, since the body rules run
  // synchronously and so one request at a time; emptied after each, so it holds no body.
  const judged: Body = { bytes: EMPTY, text: '', value: null, variant: undefined };
  // The HEAD requests routed to a GET: answered as GET, without content (RFC 9110, section 9.3.2).
  const asHead = new WeakSet<RequestHead>();
  // When each request's head arrived, for the exchanges told to `onExchange` (only then kept).
  const arrived = onExchange ? new WeakMap<RequestHead, number>() : undefined;

  const tell = (request: RequestHead, body: Uint8Array | undefined, verdict: Verdict, response: AppResponse, delayMs: number): void => {
    if (!onExchange) return;
    const now = performance.now();
    try {
      onExchange({ request, body, verdict, response, delayMs, durationMs: now - (arrived?.get(request) ?? now) });
    } catch (cause) {
      onDefect(cause);
    }
  };

  // Every answer but a preflight or an admin one leaves through here: CORS, delivery, the observer.
  const finish = (request: RequestHead, answered: AppResponse, verdict: Verdict, body: Uint8Array | undefined): Answered => {
    const response = asHead.has(request) ? withoutContent(answered) : answered;
    const withHeaders = cors ? withCors(response, request.headers) : response;
    const how = delivery?.(request);
    if (how === undefined) {
      tell(request, body, verdict, withHeaders, 0);
      return withHeaders;
    }
    const sent = how.fault === undefined ? withHeaders : { ...withHeaders, fault: how.fault };
    if (how.delayMs <= 0) {
      tell(request, body, verdict, sent, 0);
      return sent;
    }
    return sleep(how.delayMs).then(() => {
      tell(request, body, verdict, sent, how.delayMs);
      return sent;
    });
  };

  // The one place a refusal becomes its Error answer, in the shape the operation declares for it
  // (refusals.ts; a routing refusal has none), and a defect its 500.
  const reply = (request: RequestHead, given: Reply, rule: string, body: Uint8Array | undefined, operation?: OperationContract): Answered => {
    if (!(given instanceof PlantStoreError)) return finish(request, given, ACCEPTED, body);
    if (given.code === 'internal') onDefect(given.cause ?? given.message);
    const template = refusals.template(operation, given);
    const headers = hasAny(given.headers) ? { ...template.headers, ...given.headers } : template.headers;
    const answered: AppResponse = { status: template.status, headers, body: refusalBody(template, given.message), code: given.code };
    return finish(request, answered, verdictOf(given, rule, template.status), body);
  };
  const defect = (request: RequestHead, cause: unknown, body: Uint8Array | undefined, operation?: OperationContract): Answered =>
    reply(request, new PlantStoreError('internal', 'internal: the server failed; this is a defect of the kit', { cause }), answerRule, body, operation);

  const head = (request: RequestHead): A | Answered => {
    let operation: OperationContract | undefined;
    try {
      const method = request.method ?? '';
      const url = request.url ?? '/';
      // Admin requests are the kit's own: never journaled, never delayed or broken.
      const own = adminAnswer?.(request);
      if (own !== undefined) return own;
      arrived?.set(request, performance.now());
      if (cors && isPreflight(method, request.headers)) {
        // Permission to send the request, not its answer: never held back or broken.
        const granted = preflightResponse(request.headers);
        tell(request, undefined, PREFLIGHT, granted, 0);
        return granted;
      }
      const routed = route(contract, method, url);
      if (routed instanceof PlantStoreError) return reply(request, routed, ROUTE_RULE, undefined);
      operation = routed.operation;
      if (operation.method !== method && method === 'HEAD') asHead.add(request);
      for (const rule of HEAD_RULES) {
        const refusal = rule(request, operation, settings);
        if (refusal) return reply(request, refusal, rule.ruleName, undefined, operation);
      }
      const parameters = readParameters(request, routed);
      if (parameters instanceof PlantStoreError) return reply(request, parameters, PARAMETERS_RULE, undefined, operation);
      const offered = negotiated.size === 0 ? undefined : negotiated.get(operation);
      const unacceptable = offered && notAcceptable(request, offered);
      if (unacceptable) return reply(request, unacceptable, NEGOTIATION_RULE, undefined, operation);
      const admitted = answer.admit(operation, request, parameters);
      return admitted instanceof PlantStoreError ? reply(request, admitted, answerRule, undefined, operation) : admitted;
    } catch (cause) {
      return defect(request, cause, undefined, operation);
    }
  };

  const body = (request: RequestHead, admitted: A, bytes: Uint8Array): Answered => {
    const { operation } = admitted;
    try {
      let refusal: PlantStoreError | undefined;
      let rule = '';
      let value;
      const absent = isAbsentBody(admitted.operation, bytes.length);
      try {
        judged.bytes = bytes;
        // Where the operation declares several request media types, the request's Content-Type picks one.
        const variants = admitted.operation.requestBody?.variants;
        const contentType = variants === undefined ? undefined : headerValue(request.headers, 'content-type');
        if (variants !== undefined && variants.length > 1) judged.variant = variantFor(variants, contentType);
        judged.contentType = contentType;
        for (const bodyRule of absent ? EMPTY_BODY_RULES : BODY_RULES) {
          refusal = bodyRule(judged, admitted.operation, settings);
          if (refusal) {
            rule = bodyRule.ruleName;
            break;
          }
        }
        value = judged.value;
      } finally {
        judged.bytes = EMPTY;
        judged.text = '';
        judged.value = null;
        judged.variant = undefined;
        judged.contentType = undefined;
      }
      if (refusal) return reply(request, refusal, rule, bytes, operation);
      const given = answer.respond(admitted, absent ? undefined : value);
      if (!(given instanceof Promise)) return reply(request, given, answerRule, bytes, operation);
      // A rejection, or a throw while the settled reply is finished, is a defect too.
      return given.then((settled) => reply(request, settled, answerRule, bytes, operation)).catch((cause: unknown) => defect(request, cause, bytes, operation));
    } catch (cause) {
      return defect(request, cause, bytes, operation);
    }
  };

  const refuse = (request: RequestHead, refusal: PlantStoreError, rule: string): Answered => {
    try {
      // The socket layer's refusals (a body over the limit) concern the operation its head routed to.
      const routed = route(contract, request.method ?? '', request.url ?? '/');
      return reply(request, refusal, rule, undefined, routed instanceof PlantStoreError ? undefined : routed.operation);
    } catch (cause) {
      return defect(request, cause, undefined);
    }
  };

  return {
    contract,
    maxBodyBytes: settings.maxBodyBytes,
    refusalNotes: refusals.notes,
    head,
    body,
    refuse,
    request: (request) => {
      const admitted = head(request);
      if (isAnswered(admitted)) return admitted;
      return body(request, admitted, typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : (request.body ?? EMPTY));
    },
  };
}

/**
 * The answer to HEAD: GET's without its content (RFC 9110, section 9.3.2), with the
 * Content-Length GET's answer would have (section 8.6).
 */
function withoutContent(response: AppResponse): AppResponse {
  if (response.body === '') return response;
  return { ...response, headers: { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) }, body: '' };
}

/** The verdict of a refusal answered with `status`: a defect's, or the rule's that refused. */
function verdictOf(refusal: PlantStoreError, rule: string, status: number): Verdict {
  if (refusal.code === 'internal') return { outcome: 'defect', status, message: refusal.message };
  return { outcome: 'refused', rule, status, code: refusal.code, message: refusal.message };
}

function hasAny(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (Object.hasOwn(headers, name)) return true;
  return false;
}

/** An unref'd timer: a pending simulated latency never keeps a stopping process alive. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
