/**
 * The mock: the kit's request gate in front of Prism.
 *
 * - The front decides whether a request is acceptable, with the same gate as the reference
 *   implementation (src/http: route, credentials, media type, size, UTF-8, nesting, lossless JSON,
 *   the contract's schema). The mock's one freedom: any well-formed bearer token is accepted.
 *   So the mock refuses exactly what the reference refuses, with the same Errors.
 * - Prism decides what the mock answers to an acceptable request: the declared example, the
 *   one `Prefer` asks for, or generated data.
 * - The front checks Prism's answer against the contract before it leaves: a status openapi.yaml
 *   declares, application/json, a body its schema accepts, the headers it requires. Anything
 *   else becomes a 500 Error naming the defect - Prism's own bodies never reach the client.
 */
import { exactInteger, formatIssues, isJsonObject, isLosslessNumber, loadContract, parseJson, validationView, type Contract, type OperationContract } from '../src/openapi/index.js';
import { acceptAnyToken, checkHead, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, headerValue, parseRequestBody, PlantStoreError, splitTarget, tooLarge } from '../src/http/index.js';
import { errorResponse, type AppRequest, type AppResponse, type Gate, type Headers } from '../src/reference/index.js';
import { isPreflight, preflightResponse, withCors } from './cors.js';
import { loadPrism, type Preferences, type PrismEngine, type PrismProblem, type PrismResponse } from './prism.js';

export interface MockOptions {
  /** Generated data instead of the declared examples (`Prefer: dynamic=…` overrides it per request). */
  readonly dynamic?: boolean;
  /** Seed of the generated data (`Prefer: seed=…` overrides it per request). */
  readonly seed?: string | undefined;
  /** Simulated latency: every answer but a CORS preflight waits this long. */
  readonly delayMs?: number;
  readonly maxBodyBytes?: number;
  readonly maxDepth?: number;
  readonly contract?: Contract;
}

/** A request whose head passed the gate. */
export interface MockAdmitted {
  readonly operation: OperationContract;
  readonly path: string;
  readonly preferences: Preferences;
  /** Whether the request stated any preference: a refusal by Prism is then the client's to fix. */
  readonly preferred: boolean;
}

export interface Mock extends Gate<MockAdmitted> {
  readonly contract: Contract;
  readonly delayMs: number;
  /** The whole exchange in one call, latency and CORS included (no socket). */
  request(request: AppRequest): Promise<AppResponse>;
}

/** The path Prism routes, and the query parameters Prism reads its preferences from when there is no Prefer. */
function target(url: string): { path: string; query: Record<string, string | string[]> } {
  const { path, query: text } = splitTarget(url);
  const params = new URLSearchParams(text);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return { path, query };
}

function internal(message: string, cause?: unknown): AppResponse {
  return errorResponse(new PlantStoreError('internal', `internal: ${message}; this is a defect of the mock`, cause === undefined ? {} : { cause }));
}

/** Loads Prism (about a second: its modules are large) and builds the front. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? loadContract();
  const dynamic = options.dynamic ?? false;
  const engine: PrismEngine = await loadPrism({ document: contract.file, dynamic, seed: options.seed });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const delayMs = options.delayMs ?? 0;

  const admit = (method: string, url: string, headers: Headers): MockAdmitted | AppResponse => {
    if (isPreflight(method, headers)) return preflightResponse(headers);
    // The reference's checks, with the mock's freedom: any well-formed token.
    const operation = checkHead(contract, method, url, headers, { accept: acceptAnyToken, maxBodyBytes });
    if (operation instanceof PlantStoreError) return errorResponse(operation);
    const { path, query } = target(url);
    const prefer = headerValue(headers, 'prefer');
    const preferences = engine.preferences(prefer, query);
    if ('kind' in preferences) return errorResponse(refusedPreference(preferences.detail));
    return { operation, path, preferences, preferred: Object.keys(preferences).length > 0 };
  };

  const complete = async (admitted: MockAdmitted, body: Uint8Array): Promise<AppResponse> => {
    if (body.length > maxBodyBytes) return errorResponse(tooLarge(maxBodyBytes));
    const value = parseRequestBody(admitted.operation, body, maxDepth);
    if (value instanceof PlantStoreError) return errorResponse(value);
    let answer: PrismResponse | PrismProblem;
    try {
      // Prism sees plain numbers: an id beyond 2^53 arrives rounded, which does not matter -
      // the front has validated it exactly, and Prism does not validate or echo it.
      answer = await engine.answer({ method: admitted.operation.method, path: admitted.path, body: validationView(value) }, admitted.preferences);
    } catch (cause) {
      return internal(`Prism failed (${cause instanceof Error ? cause.message : String(cause)})`, cause);
    }
    if (answer.kind === 'problem') {
      // With nothing preferred Prism answers every accepted request; when it declines a
      // preference (`code=500`, an unknown example), the preference is the client's to fix.
      if (admitted.preferred) return errorResponse(refusedPreference(answer.detail));
      return internal(`Prism failed (${answer.status} ${answer.detail})`);
    }
    const { code, exampleKey } = admitted.preferences;
    if (code !== undefined && answer.status !== code) {
      // Prism falls back to another response when the one asked for lacks the example named.
      return errorResponse(refusedPreference(`the ${code} response has ${exampleKey === undefined ? 'nothing to answer' : `no example ${exampleKey}`} (Prism would answer ${answer.status})`));
    }
    return keepContract(admitted.operation, (admitted.preferences.dynamic ?? dynamic) ? statusAsError(answer) : answer);
  };

  const finish = async (response: AppResponse, request: { readonly method: string; readonly headers: Headers }): Promise<AppResponse> => {
    if (isPreflight(request.method, request.headers)) return response;
    if (delayMs > 0) await sleep(delayMs);
    return withCors(response, request.headers);
  };

  return {
    contract,
    delayMs,
    maxBodyBytes,
    admit,
    complete,
    bodyTooLarge: () => errorResponse(tooLarge(maxBodyBytes)),
    finish,
    request: async (request) => {
      let response: AppResponse;
      try {
        const admitted = admit(request.method, request.url, request.headers);
        const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : (request.body ?? new Uint8Array());
        response = 'status' in admitted ? admitted : await complete(admitted, body);
      } catch (cause) {
        response = internal('the front failed', cause);
      }
      return finish(response, request);
    },
  };
}

/** Prism's own words, on one line (its decoder draws a tree). */
function refusedPreference(detail: string): PlantStoreError {
  return new PlantStoreError('unsupported_preference', `prefer: ${detail.replace(/\s+/g, ' ').trim()}`);
}

/**
 * A generated Error with the status as its `error`: json-schema-faker fills the field with any
 * int32, and the interface's Error schema cannot say that it is the status (kit decision 4).
 */
function statusAsError(answer: PrismResponse): PrismResponse {
  if (answer.status < 300 || typeof answer.body !== 'object' || answer.body === null || Array.isArray(answer.body)) return answer;
  return { ...answer, body: { ...answer.body, error: answer.status } };
}

/**
 * Prism's answer, if the contract allows it: a declared status, application/json, a body the
 * declared schema accepts (a Plant for 200, an Error otherwise), an Error's `error` the status
 * (kit decision 4), the headers the response requires (`WWW-Authenticate` on 401).
 */
export function keepContract(operation: OperationContract, answer: PrismResponse): AppResponse {
  const what = `Prism's ${answer.status} answer`;
  const declared = operation.response(answer.status);
  if (!operation.declaredStatuses.includes(answer.status) || declared === undefined) return internal(`${what}: the status is not declared for ${operation.method} ${operation.path}`);
  const mediaType = (answer.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' || !declared.validateBody) return internal(`${what}: the media type ${mediaType ?? 'none'} is not application/json`);
  if (answer.body === undefined) return internal(`${what}: no body`);
  const text = JSON.stringify(answer.body);
  const body = parseJson(text);
  const validation = declared.validateBody(body);
  if (!validation.valid) return internal(`${what} breaks openapi.yaml (${formatIssues(validation.issues)})`);
  if (answer.status >= 300 && !(isJsonObject(body) && isLosslessNumber(body.error) && exactInteger(body.error) === BigInt(answer.status))) {
    return internal(`${what}: the Error's error is not the status`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
  for (const [name, { required }] of declared.headers) if (required && headers[name] === undefined) return internal(`${what}: the required header ${name} is missing`);
  return { status: answer.status, headers: { ...headers, 'content-type': 'application/json' }, body: text };
}

/** An unref'd timer: a pending simulated latency never keeps a stopping process alive. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
