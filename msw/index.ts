/**
 * `plant-store-kit/msw`: the kit's pipeline as MSW request handlers, in Node (`setupServer`) and
 * in the browser (`setupWorker`), no socket. Every request under `baseUrl` is judged by the same
 * rules as the kit's servers (src/http/pipeline.ts) and answered by the reference's store
 * (`mode: 'reference'`, the default) or by the contract's examples (`mode: 'examples'`, stateless,
 * as the mock answers by default). The request is handed over as its bytes, so an int64 id stays
 * exact and a body that is not UTF-8 still gets its 400 Error.
 *
 * Runtime-neutral: nothing here, or in what it imports, needs a Node built-in. The contract comes
 * in as data - `plant-store-kit/openapi.json`, the kit's openapi.yaml parsed at build time, or
 * any parsed OpenAPI document: 3.1 and 3.2 as they are, Swagger 2.0 and OpenAPI 3.0 upgraded to
 * 3.1 in memory by Scalar's upgrader (browser-safe, as src/openapi/upgrade.ts uses it in Node).
 * docs/msw.md tells how to use it.
 */
import { upgrade } from '@scalar/openapi-upgrader';
import { http, type HttpHandler } from 'msw';
import { compileContract, needsUpgrade, upgradeDocumentWith, writtenIn, type Contract, type Schema } from '../src/openapi/portable.js';
import { acceptAnyToken, acceptTokens, createJournal, createPipeline, journalSeams, type Admitted, type AppRequest, type AppResponse, type GivenCredentials, type Journal, type JournalEntry, type JournalOptions, type Pipeline } from '../src/http/portable.js';
import { createStoreApp, type PlantStore } from '../src/reference/portable.js';
import { exampleAnswers } from './examples.js';

export { assertRequests, findRequests, RequestAssertionError, type RequestMatcher, type JsonPattern } from '../src/http/portable.js';
export type { JournalEntry, JournalOptions } from '../src/http/portable.js';
export type { Contract } from '../src/openapi/portable.js';

export interface PlantStoreHandlersOptions {
  /**
   * Where the store answers: an absolute URL (`http://localhost:4010`, `https://api.test/v1`) or,
   * in the browser, one relative to the page (`/api`). Every request under it is the store's,
   * whatever its path: one the contract does not declare gets the kit's 404 Error.
   */
  readonly baseUrl: string;
  /** The contract: a parsed OpenAPI document (`plant-store-kit/openapi.json`; 2.0 and 3.0 are upgraded to 3.1 in memory, the object given left as it is), or one compiled already. */
  readonly contract: Schema | Contract;
  /** `reference` (default): the stateful reference store. `examples`: the contract's examples, no state. */
  readonly mode?: 'reference' | 'examples';
  /**
   * Accepted bearer tokens. Required for `reference`. For `examples`, without any, every
   * well-formed bearer token is accepted (the mock's freedom); a missing one is still a 401.
   */
  readonly tokens?: readonly string[];
  /** Credentials accepted per security scheme, by its name (`{ api_key: 'k1', oauth: 'tok:read' }`); a scheme without takes `tokens` (docs/contracts.md). */
  readonly credentials?: GivenCredentials;
  readonly maxBodyBytes?: number;
  readonly maxDepth?: number;
  /** Most plants the reference store holds (the oldest is forgotten beyond it). */
  readonly maxEntries?: number;
  /** The request journal's size and body bytes kept (journal.ts). */
  readonly journal?: JournalOptions;
  /** Told the exception behind a 500 (a defect of the kit); default console.error. */
  readonly onDefect?: (cause: unknown) => void;
}

export interface PlantStoreHandlers {
  /** For `setupServer(...handlers)` / `setupWorker(...handlers)`, or `server.use(...handlers)`. */
  readonly handlers: HttpHandler[];
  readonly contract: Contract;
  /** The reference's store (undefined in `examples` mode). */
  readonly store: PlantStore | undefined;
  /** Every exchange the handlers answered, with its verdict (docs/journal.md). */
  readonly journal: Journal;
  /** The journal's entries, oldest first: what `findRequests` and `assertRequests` read. */
  requests(): JournalEntry[];
  /** Empties the store and the journal: call it between tests (`afterEach`). */
  reset(): void;
}

/** Statuses whose answer has no body (RFC 9110, sections 15.3.5 and 15.4.5): a `Response` refuses one. */
const NO_BODY = new Set([101, 204, 205, 304]);

export function plantStoreHandlers(options: PlantStoreHandlersOptions): PlantStoreHandlers {
  const contract = isCompiled(options.contract) ? options.contract : compileDocument(options.contract);
  const journal = createJournal(options.journal);
  const settings = {
    contract,
    journal,
    // The admin path is a server's: here the journal is read in process.
    admin: false,
    onDefect: options.onDefect ?? reportDefectToConsole,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  };
  let pipeline: Pipeline<Admitted, AppResponse>;
  let store: PlantStore | undefined;
  if ((options.mode ?? 'reference') === 'reference') {
    const app = createStoreApp(contract, { ...settings, tokens: options.tokens ?? [], ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }) });
    pipeline = app;
    store = app.store;
  } else {
    const answer = exampleAnswers(contract);
    pipeline = createPipeline({
      contract,
      accept: options.tokens === undefined || options.tokens.length === 0 ? acceptAnyToken : acceptTokens(options.tokens),
      credentials: options.credentials,
      maxBodyBytes: settings.maxBodyBytes,
      maxDepth: settings.maxDepth,
      onDefect: settings.onDefect,
      ...journalSeams(journal, false, ''),
      answer: { admit: (operation) => ({ operation }), respond: ({ operation }) => answer(operation) },
    });
  }
  const base = baseOf(options.baseUrl);
  const handler = http.all(
    ({ request }) => under(base, new URL(request.url)),
    async ({ request }) => toResponse(pipeline.request(await toAppRequest(base, request))),
  );
  return {
    handlers: [handler],
    contract,
    store,
    journal,
    requests: () => journal.list(),
    reset: () => {
      store?.clear();
      journal.clear();
    },
  };
}

/** The default `onDefect`: never silent, and console.error rather than process.stderr, which the browser lacks. */
function reportDefectToConsole(cause: unknown): void {
  console.error('plant-store-kit/msw: a request was answered 500 because of a defect of the kit:', cause);
}

/** A parsed document compiled; Swagger 2.0 and OpenAPI 3.0 upgraded first, on a copy (the upgrade changes what it is given). */
function compileDocument(document: Schema): Contract {
  if (!needsUpgrade(document)) return compileContract(document, '<msw>');
  const upgraded = upgradeDocumentWith((given, version) => upgrade(given as Parameters<typeof upgrade>[0], version), structuredClone(document));
  return compileContract(upgraded, '<msw>', { writtenIn: writtenIn(document) });
}

function isCompiled(contract: Schema | Contract): contract is Contract {
  return typeof contract.findOperation === 'function' && Array.isArray(contract.operations);
}

interface Base {
  readonly origin: string;
  /** The base path without its trailing slash: '' for the root. */
  readonly path: string;
}

function baseOf(baseUrl: string): Base {
  // Relative to the page in the browser; in Node a relative base URL has nothing to resolve against.
  const page = (globalThis as { location?: { href: string } }).location?.href;
  let url: URL;
  try {
    url = page === undefined ? new URL(baseUrl) : new URL(baseUrl, page);
  } catch {
    throw new TypeError(`baseUrl: ${baseUrl} is not ${page === undefined ? 'an absolute URL (outside a page there is nothing to resolve it against)' : 'a URL'}`);
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

function under(base: Base, url: URL): boolean {
  return url.origin === base.origin && (url.pathname === base.path || url.pathname.startsWith(`${base.path}/`));
}

/**
 * The pipeline's request: the target below the base path as sent (the query kept), the headers
 * by lower-case name with Host (fetch's Request has none; HTTP/1.1 always sends it, RFC 9112,
 * section 3.2), and the body's raw bytes - never text, which would lose what is not UTF-8.
 */
async function toAppRequest(base: Base, request: Request): Promise<AppRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = { host: url.host };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  const path = url.pathname.slice(base.path.length) || '/';
  return { method: request.method, url: `${path}${url.search}`, headers, ...(bytes === undefined ? {} : { body: bytes }) };
}

function toResponse(answer: AppResponse): Response {
  return new Response(NO_BODY.has(answer.status) ? null : answer.body, { status: answer.status, headers: answer.headers });
}
