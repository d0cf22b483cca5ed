/**
 * Prism as a library: its engine (`@stoplight/prism-http`, the version prism-cli 5.14.2 runs)
 * reads openapi.yaml itself and decides what a mock answers - which response, which example,
 * or generated data (json-schema-faker, seeded). The kit's pipeline (src/http) has already decided
 * that the request is acceptable, so Prism's own request and security validation are off: Prism
 * is asked only "what does the mock answer to this accepted request?".
 */
import type { IHttpConfig, IHttpOperationConfig, IHttpRequest } from '@stoplight/prism-http';

export interface PrismOptions {
  /**
   * What Prism reads: the contract's file as the user wrote it (2.0, 3.0, 3.1, `$ref`s to files
   * beside it - Prism resolves them itself), or, for a contract given as data, its 3.1 document.
   */
  readonly document: string | Record<string, unknown>;
  /** Generated data (json-schema-faker) instead of the declared examples. */
  readonly dynamic: boolean;
  /** Seed of the generated data; with one, every generated answer is the same for the same request. */
  readonly seed?: string | undefined;
}

/** What a request asks of the mock through `Prefer` (RFC 7240) or Prism's query parameters. */
export type Preferences = Partial<Pick<IHttpOperationConfig, 'code' | 'exampleKey' | 'dynamic' | 'seed'>>;

/** Prism declined: the HTTP status and detail of its problem (RFC 7807). */
export interface PrismProblem {
  readonly kind: 'problem';
  readonly status: number;
  readonly detail: string;
}

export interface PrismResponse {
  readonly kind: 'response';
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** As Prism produced it (an example from the document or generated data); undefined when it has none. */
  readonly body: unknown;
}

export interface PrismRequest {
  /** Lower case or upper case; Prism wants lower case. */
  readonly method: string;
  readonly path: string;
  /** The body as plain JSON data; Prism does not validate it (the pipeline did). */
  readonly body: unknown;
  /** The request's Accept, where the operation's answers are negotiated (src/http/negotiation.ts); Prism picks the example by it. */
  readonly accept?: string | undefined;
  /** The request's media type, where the operation declares several. */
  readonly contentType?: string | undefined;
}

export interface PrismEngine {
  /** The request's preferences, or Prism's problem with them (e.g. `code=abc`). */
  preferences(prefer: string | undefined, query: Readonly<Record<string, string | string[]>>): Preferences | PrismProblem;
  /** Prism's mock answer to an accepted request. */
  answer(request: PrismRequest, preferences: Preferences): Promise<PrismResponse | PrismProblem>;
}

/** Loads Prism's modules (about a second: they are large; only the mock pays for it) and reads the document. */
export async function loadPrism(options: PrismOptions): Promise<PrismEngine> {
  const [{ createLogger }, { createInstance, getHttpOperationsFromSpec }, { getHttpConfigFromRequest }] = await Promise.all([
    import('@stoplight/prism-core'),
    import('@stoplight/prism-http'),
    // Prism's own reading of `Prefer` (and of its `__code`-style query parameters): the mock honours
    // exactly what Prism's documentation promises. The package index does not re-export it.
    import('@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js'),
  ]);
  // A contract may have no operation (OpenAPI 3.1, section 4.8.1: webhooks alone): the kit's
  // routing answers every request 404 before Prism is asked, as `prism mock` would.
  const operations = await getHttpOperationsFromSpec(options.document);
  // Prism logs every negotiation step; the socket layer logs one line per request instead.
  const logger = createLogger('mock', { level: 'silent' });
  const base = {
    isProxy: false,
    validateRequest: false,
    checkSecurity: false,
    // The mock (mock.ts) holds every answer against the contract's own validators.
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    mock: { dynamic: options.dynamic },
  } satisfies IHttpConfig;
  const prism = createInstance(base, { logger });

  return {
    preferences(prefer, query) {
      const parsed = getHttpConfigFromRequest({ headers: prefer === undefined ? {} : { prefer }, url: { path: '/', query: { ...query } } });
      if (parsed._tag === 'Left') return problem(parsed.left);
      const { code, exampleKey, dynamic, seed } = parsed.right;
      return { ...(code === undefined ? {} : { code }), ...(exampleKey === undefined ? {} : { exampleKey }), ...(dynamic === undefined ? {} : { dynamic }), ...(seed === undefined ? {} : { seed }) };
    },
    async answer(request, preferences) {
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path, query: {} },
        // No Accept where the answer is application/json alone: the kit's servers answer it whatever the client accepts.
        headers: { 'content-type': request.contentType ?? 'application/json', ...(request.accept === undefined ? {} : { accept: request.accept }) },
        body: request.body,
      };
      // A fresh config per request: Prism's negotiator writes into it.
      const mock: IHttpOperationConfig = { dynamic: options.dynamic, ...(options.seed === undefined ? {} : { seed: options.seed }), ...preferences };
      const result = await prism.request(input, operations, { ...base, mock })();
      if (result._tag === 'Left') return problem(result.left);
      const { statusCode, headers, body } = result.right.output;
      const lower: Record<string, string> = {};
      // Typed as strings, but a header's example in the document may be a number.
      for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) lower[name.toLowerCase()] = String(value);
      return { kind: 'response', status: statusCode, headers: lower, body };
    },
  };
}

/** Prism's errors are ProblemJsonErrors (RFC 7807 fields); anything else is a failure of Prism itself. */
function problem(error: Error & { status?: unknown; detail?: unknown }): PrismProblem {
  return {
    kind: 'problem',
    status: typeof error.status === 'number' ? error.status : 500,
    detail: typeof error.detail === 'string' && error.detail !== '' ? error.detail : error.message,
  };
}
