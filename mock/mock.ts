/**
 * The mock: Prism's answer behind the kit's request pipeline (src/http/pipeline.ts).
 *
 * - The pipeline decides whether a request is acceptable, with the same rules as the reference
 *   implementation (route, credentials, media type, content coding, size, UTF-8, nesting,
 *   lossless JSON, the contract's schema). The mock's one freedom: any well-formed bearer token
 *   is accepted. So the mock refuses exactly what the reference refuses, with the same Errors.
 *   The pipeline's options add what a mock needs: CORS for pages, simulated latency.
 * - The mock's answer reads `Prefer` on the head (a preference Prism cannot honour is refused
 *   before the body is read), then asks Prism what to answer: the declared example, the one
 *   `Prefer` asks for, or generated data.
 * - How the answer goes out is the mock's own (prefer.ts): `--delay`, and per request
 *   `Prefer: delay=…` and `fault=…`, for every answer, refusals included.
 * - Prism's answer is held to the contract before it leaves: a status openapi.yaml
 *   declares, application/json, a body its schema accepts, the headers it requires. Anything
 *   else becomes a 500 Error naming the defect - Prism's own bodies never reach the client.
 */
import { existsSync } from 'node:fs';
import { loadContract, placeholderBody, successStatuses, validationView, type Contract, type JsonValue, type OperationContract, type ResponseContract } from '../src/openapi/index.js';
import { acceptAnyToken, chooseVariant, createPipeline, headerValue, journalSeams, negotiatedOperations, PlantStoreError, splitTarget, type Admitted, type AppRequest, type AppResponse, type Delivery, type Pipeline, type Reply, type RequestHead, type ServerSettings } from '../src/http/index.js';
import { internal, isSchemaBreach, keepContract, writtenFromDataOnly } from './keep-contract.js';
import { deliveryFor, deliveryPreferences, delayPicker } from './prefer.js';
import { loadPrism, type Preferences, type PrismEngine, type PrismRequest, type PrismResponse } from './prism.js';

export interface MockOptions extends ServerSettings {
  /** Generated data instead of the declared examples (`Prefer: dynamic=…` overrides it per request). */
  readonly dynamic?: boolean;
  /** Seed of the generated data (`Prefer: seed=…` overrides it per request), and of the delays picked from ranges (`Prefer: delay=100-800`). */
  readonly seed?: string | undefined;
  /** Simulated latency: every answer but a CORS preflight waits this long (`Prefer: delay=…` overrides it per request). */
  readonly delayMs?: number;
}

/** A request whose head passed the pipeline's rules, with what Prism needs of it. */
export interface MockAdmitted extends Admitted {
  readonly path: string;
  readonly preferences: Preferences;
  /** Whether the request stated any preference: a refusal by Prism is then the client's to fix. */
  readonly preferred: boolean;
  /** The request's Accept and Content-Type where the operation's answers are negotiated (src/http/negotiation.ts). */
  readonly accept?: string | undefined;
  readonly contentType?: string | undefined;
}

export interface Mock extends Pipeline<MockAdmitted> {
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

/**
 * What Prism reads (docs/mock.md). A contract the kit read as it is written (OpenAPI 3.1 or 3.2,
 * in one file or several): its file, as `prism mock FILE` reads it, Prism resolving `$ref`s to
 * the files beside it. A Swagger 2.0 or OpenAPI 3.0 contract: the 3.1 document the kit upgraded
 * it to, the one the guard holds Prism's answers to - Prism's own reading of 2.0 (a boolean
 * `exclusiveMaximum`, `x-nullable`) would generate values the guard then refuses as a defect.
 * A contract compiled from data, without a file: its document.
 */
function prismDocument(contract: Contract): string | Record<string, unknown> {
  const upgraded = contract.writtenIn?.endsWith(UPGRADED) === true;
  // A copy: Prism dereferences what it is given in place, and the kit's own reading of the
  // document (its $refs, pointers and examples) must not change under the reference or the journal.
  return upgraded || !existsSync(contract.file) ? structuredClone(contract.document) : contract.file;
}

/** How a contract's heading ends when the kit upgraded it (contract.ts, headingOf). */
const UPGRADED = 'read as 3.1';

/**
 * The Accept Prism is given. Prism picks the media type by Accept alone, XML included where it
 * has no text of it to answer; the mock answers the media type the client prefers among those it
 * can write (RFC 9110, section 12.5.1: a browser's `application/xml;q=0.9, *\/*;q=0.8` gets the
 * JSON `*\/*` allows). Where the client accepts none of those, its own Accept, and the answer is
 * the placeholder of the type it asked for (placeholderAnswer, keep-contract.ts).
 */
function acceptFor(response: ResponseContract | undefined, accept: string | undefined): string | undefined {
  if (response === undefined || accept === undefined || !response.variants.some(writtenFromDataOnly)) return accept;
  return chooseVariant(response.variants.filter((variant) => !writtenFromDataOnly(variant)), accept)?.variant.mediaType ?? accept;
}

/** The success of the operation in the media type asked for that the mock cannot write from data, as its placeholder (keep-contract.ts); undefined where there is none. */
function placeholderAnswer(contract: Contract, admitted: MockAdmitted): AppResponse | undefined {
  const status = successStatuses(admitted.operation).find((s) => admitted.operation.declaredStatuses.includes(s));
  const response = status === undefined ? undefined : admitted.operation.response(status);
  const unwritable = (response?.variants ?? []).filter(writtenFromDataOnly);
  const variant = chooseVariant(unwritable, admitted.accept ?? '*/*')?.variant ?? unwritable[0];
  return status === undefined || variant === undefined ? undefined : { status, headers: { 'content-type': variant.essence }, body: placeholderBody(contract, variant) };
}

/**
 * What Prism is asked. It sees plain numbers: an id beyond 2^53 arrives rounded, which does not
 * matter - the pipeline has validated it exactly, and Prism does not validate or echo it.
 */
function prismRequest(admitted: MockAdmitted, body: JsonValue | undefined): PrismRequest {
  return { method: admitted.operation.method, path: admitted.path, body: body === undefined ? undefined : validationView(body), accept: admitted.accept, contentType: admitted.contentType };
}

/** Loads Prism (about a second: its modules are large) and puts it behind the pipeline. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? loadContract();
  const dynamic = options.dynamic ?? false;
  const engine: PrismEngine = await loadPrism({ document: prismDocument(contract), dynamic, seed: options.seed });
  const delayMs = options.delayMs ?? 0;

  const pick = delayPicker(options.seed);
  const negotiated = negotiatedOperations(contract);

  const admit = (operation: OperationContract, request: RequestHead): MockAdmitted | PlantStoreError => {
    const { path, query } = target(request.url ?? '/');
    const prefer = headerValue(request.headers, 'prefer');
    // Prism ignores the mock's own preferences (delay, fault): `delivery` below reads them.
    const preferences = engine.preferences(prefer, query);
    if ('kind' in preferences) return refusedPreference(preferences.detail);
    const admitted = { operation, path, preferences, preferred: Object.keys(preferences).length > 0 };
    // Prism is told Accept only where it picks the media type (none of the bundled contract's operations).
    if (!negotiated.has(operation) && (operation.requestBody?.variants.length ?? 0) <= 1) return admitted;
    return { ...admitted, accept: acceptFor(negotiated.get(operation), headerValue(request.headers, 'accept')), contentType: headerValue(request.headers, 'content-type') };
  };

  const respond = async (admitted: MockAdmitted, body: JsonValue | undefined): Promise<Reply> => {
    // OpenAPI 3.1 makes `responses` optional: an operation without promises nothing, and is
    // answered 200 without content, as the reference answers it (Prism has no response to give).
    if (admitted.operation.responses.length === 0) return { status: 200, headers: {}, body: '' };
    let answer;
    try {
      const request = prismRequest(admitted, body);
      answer = await engine.answer(request, admitted.preferences);
      // --dynamic, and an answer with examples but no schema: Prism has nothing to generate from
      // and declines; its example is answered instead. (Asked for per request, Prism's refusal stands.)
      if (answer.kind === 'problem' && dynamic && !admitted.preferred) answer = await engine.answer(request, { dynamic: false });
    } catch (cause) {
      return internal(`Prism failed (${cause instanceof Error ? cause.message : String(cause)})`, cause);
    }
    // Prism has no content of the media type asked for (HTML, say, without an example): the placeholder of it.
    if (answer.kind === 'problem' && answer.status === 406 && !admitted.preferred) return placeholderAnswer(contract, admitted) ?? internal(`Prism failed (${answer.status} ${answer.detail})`);
    if (answer.kind === 'problem') {
      // With nothing preferred Prism answers every accepted request; when it declines a
      // preference (`code=500`, an unknown example), the preference is the client's to fix.
      if (admitted.preferred) return refusedPreference(answer.detail);
      return internal(`Prism failed (${answer.status} ${answer.detail})`);
    }
    if (!admitted.preferred && !admitted.operation.declaredStatuses.includes(answer.status)) answer = await declaredSuccess(admitted, body, answer);
    const { code, exampleKey } = admitted.preferences;
    if (code !== undefined && answer.status !== code) {
      // Prism falls back to another response when the one asked for lacks the example named.
      return refusedPreference(`the ${code} response has ${exampleKey === undefined ? 'nothing to answer' : `no example ${exampleKey}`} (Prism would answer ${answer.status})`);
    }
    const generated = admitted.preferences.dynamic ?? dynamic;
    const kept = keepContract(contract, admitted.operation, generated ? statusAsError(answer) : answer);
    // An example that breaks its own schema (the contract contradicts itself): a value generated
    // from the schema instead, as the reference answers; still the guard's 500 where none is valid.
    if (kept instanceof PlantStoreError && isSchemaBreach(kept) && !generated && !admitted.preferred) return regenerated(admitted, body, kept);
    return kept;
  };

  /**
   * Prism answers 200 where an operation's only success is a response without content (a `201`
   * alone, in upgraded Swagger 2.0): asked for the operation's declared success, it gives that.
   */
  const declaredSuccess = async (admitted: MockAdmitted, body: JsonValue | undefined, answer: PrismResponse): Promise<PrismResponse> => {
    const code = successStatuses(admitted.operation).find((s) => admitted.operation.declaredStatuses.includes(s));
    if (code === undefined || code === answer.status) return answer;
    const again = await engine.answer(prismRequest(admitted, body), { code }).catch(() => undefined);
    return again?.kind === 'response' && again.status === code ? again : answer;
  };

  const regenerated = async (admitted: MockAdmitted, body: JsonValue | undefined, refused: PlantStoreError): Promise<Reply> => {
    const answer = await engine.answer(prismRequest(admitted, body), { dynamic: true }).catch(() => undefined);
    if (answer === undefined || answer.kind === 'problem') return refused;
    const kept = keepContract(contract, admitted.operation, statusAsError(answer));
    return kept instanceof PlantStoreError ? refused : kept;
  };

  /**
   * Every answer - refusals included, since a page waits for a 401 as it waits for a 200 - goes
   * out as the request asks: late, or broken. A delay or fault the mock cannot honour is ignored
   * (prefer.ts), `--delay` as ever.
   */
  const noPreference: Delivery | undefined = delayMs > 0 ? { delayMs } : undefined;
  const delivery = (request: RequestHead): Delivery | undefined => {
    const prefer = headerValue(request.headers, 'prefer');
    return prefer === undefined ? noPreference : deliveryFor(deliveryPreferences(prefer), delayMs, pick);
  };

  const pipeline = createPipeline({
    contract,
    // The reference's rules, with the mock's freedom: any well-formed credential of a scheme the
    // user gave none for (credentials.ts), exactly those given for the others.
    accept: acceptAnyToken,
    credentials: options.credentials,
    maxBodyBytes: options.maxBodyBytes,
    maxDepth: options.maxDepth,
    cors: true,
    delivery,
    onDefect: options.onDefect,
    ...journalSeams(options.journal, options.admin, 'this mock was started with journal: false'),
    answer: { admit, respond, rule: 'prefer' },
  });
  return { ...pipeline, delayMs, request: (request) => Promise.resolve(pipeline.request(request)) };
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
