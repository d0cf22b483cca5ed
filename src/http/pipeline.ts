/**
 * The one request pipeline both kit servers run, the reference implementation and the mock:
 *
 *   [CORS preflight] → route → head rules → admit ┊ body rules → respond → [CORS] → [latency]
 *                      └─────── refusal? ───────┘ ┊ └─ refusal? ─┘   └ defect? → 500, reported
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
 * (cors.ts; the mock turns it on, and so may the reference with one line); `delayMs` holds every
 * answer but a preflight back (the mock's simulated latency; an asynchronous answer only).
 *
 * To add a rule, see rules.ts: the rule and its place in HEAD_RULES or BODY_RULES there, its
 * error code in errors.ts if it needs a new one, and its test. Nothing here changes.
 */
import { isJsonObject, type Contract, type JsonObject, type OperationContract } from '../openapi/index.js';
import { isPreflight, preflightResponse, withCors } from './cors.js';
import { PlantStoreError } from './errors.js';
import { errorResponse, type AppRequest, type AppResponse, type RequestHead } from './exchange.js';
import { BODY_RULES, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, HEAD_RULES, route, type Body, type RuleSettings, type TokenPolicy } from './rules.js';

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
  /** Called once the head passed every rule, before any of the body is read: what `respond` needs of the head, or a refusal. */
  admit(operation: OperationContract, request: RequestHead): A | PlantStoreError;
  /** The answer to a request whose body passed every rule. */
  respond(admitted: A, body: JsonObject): R;
}

export interface PipelineOptions<A extends Admitted, R extends Reply | Promise<Reply>> {
  readonly contract: Contract;
  /** Which well-formed bearer tokens are accepted: `acceptTokens([...])` or `acceptAnyToken`. */
  readonly accept: TokenPolicy;
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
  /** The answer to give at once, or the admitted request whose body is to be read. */
  head(request: RequestHead): A | R;
  /** The answer to an admitted request, from its whole body. */
  body(request: RequestHead, admitted: A, bytes: Uint8Array): R;
  /** The answer to a refusal the socket layer makes itself (a body over the limit while it is read, a missing Host). */
  refuse(request: RequestHead, refusal: PlantStoreError): R;
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

export function createPipeline<A extends Admitted>(options: PipelineOptions<A, Reply>): Pipeline<A, AppResponse>;
export function createPipeline<A extends Admitted>(options: PipelineOptions<A, Promise<Reply>> & { readonly delayMs?: number | undefined }): Pipeline<A>;
export function createPipeline<A extends Admitted>(options: PipelineOptions<A, Reply | Promise<Reply>> & { readonly delayMs?: number | undefined }): Pipeline<A> {
  const { contract, answer } = options;
  const cors = options.cors ?? false;
  const delayMs = options.delayMs ?? 0;
  const onDefect = options.onDefect ?? reportDefect;
  const settings: RuleSettings = { accept: options.accept, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
  // The body under judgement: one object for every request, since the body rules run
  // synchronously and so one request at a time; emptied after each, so it holds no body.
  const judged: Body = { bytes: EMPTY, text: '', value: null };

  const finish = (request: RequestHead, response: AppResponse): Answered => {
    const sent = cors ? withCors(response, request.headers) : response;
    return delayMs > 0 ? sleep(delayMs).then(() => sent) : sent;
  };

  // The one place a refusal becomes its Error answer, and a defect its 500.
  const reply = (request: RequestHead, given: Reply): Answered => {
    if (!(given instanceof PlantStoreError)) return finish(request, given);
    if (given.code === 'internal') onDefect(given.cause ?? given.message);
    return finish(request, errorResponse(given));
  };
  const defect = (request: RequestHead, cause: unknown): Answered => reply(request, new PlantStoreError('internal', 'internal: the server failed; this is a defect of the kit', { cause }));

  const head = (request: RequestHead): A | Answered => {
    try {
      const method = request.method ?? '';
      if (cors && isPreflight(method, request.headers)) return preflightResponse(request.headers);
      const operation = route(contract, method, request.url ?? '/');
      if (operation instanceof PlantStoreError) return reply(request, operation);
      for (const rule of HEAD_RULES) {
        const refusal = rule(request, operation, settings);
        if (refusal) return reply(request, refusal);
      }
      const admitted = answer.admit(operation, request);
      return admitted instanceof PlantStoreError ? reply(request, admitted) : admitted;
    } catch (cause) {
      return defect(request, cause);
    }
  };

  const body = (request: RequestHead, admitted: A, bytes: Uint8Array): Answered => {
    try {
      let refusal: PlantStoreError | undefined;
      let value;
      try {
        judged.bytes = bytes;
        for (const rule of BODY_RULES) {
          refusal = rule(judged, admitted.operation, settings);
          if (refusal) break;
        }
        value = judged.value;
      } finally {
        judged.bytes = EMPTY;
        judged.text = '';
        judged.value = null;
      }
      if (refusal) return reply(request, refusal);
      if (!isJsonObject(value)) throw new Error('the body rules let through a body that is not a JSON object');
      const given = answer.respond(admitted, value);
      if (!(given instanceof Promise)) return reply(request, given);
      // A rejection, or a throw while the settled reply is finished, is a defect too.
      return given.then((settled) => reply(request, settled)).catch((cause: unknown) => defect(request, cause));
    } catch (cause) {
      return defect(request, cause);
    }
  };

  const refuse = (request: RequestHead, refusal: PlantStoreError): Answered => {
    try {
      return reply(request, refusal);
    } catch (cause) {
      return defect(request, cause);
    }
  };

  return {
    contract,
    maxBodyBytes: settings.maxBodyBytes,
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

/** An unref'd timer: a pending simulated latency never keeps a stopping process alive. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
