/**
 * The reference Plant Store: its answers (answers.ts: the store's collection/item pattern, stateful;
 * any other operation from the contract's examples) behind the shared pipeline
 * (src/http/pipeline.ts), which judges every request first. No socket: tests call
 * `app.request()`; `listen(app)` (src/http) serves it.
 */
import { NO_PARAMETERS, SESSION_HEADER, type Contract, type OperationContract, type ParsedParameters } from '../openapi/portable.js';
import { acceptTokens, ADMIN_PREFIX, createPipeline, errorResponse, headerValue, journalSeams, negotiatedOperations, PlantStoreError, type AdminRoutes, type AppResponse, type Pipeline, type PipelineOptions, type Reply, type RequestHead, type ServerSettings } from '../http/portable.js';
import { planReference, type ReferencePlan, type StoreAdmitted } from './answers.js';
import { DEFAULT_MAX_ENTRIES, Sessions, type ItemStore, type PlantStore } from './store.js';

export interface AppOptions extends ServerSettings {
  /** Accepted bearer tokens; at least one. */
  readonly tokens: readonly string[];
  readonly maxEntries?: number;
  /** Answer CORS preflights and let pages from any origin read every answer (off by default). */
  readonly cors?: boolean;
}

export type { StoreAdmitted };

export interface App extends Pipeline<StoreAdmitted, AppResponse> {
  /** The store of requests without a session. */
  readonly store: PlantStore;
  /** Every session's store (the request header Plant-Store-Session). */
  readonly sessions: Sessions;
  /** Which operations are stateful and which are answered from the contract's examples. */
  readonly plan: ReferencePlan;
}

/** The admin path that empties a session's store: `DELETE /__plant-store/store` (`?session=<name>`; without it, the default store). */
export const STORE_ADMIN_PATH = `${ADMIN_PREFIX}/store`;

/**
 * The reference over a given contract, runtime-neutral (the MSW handlers run it in the browser);
 * `createApp` (default-app.ts) takes the kit's openapi.yaml when none is given.
 */
export function createStoreApp(contract: Contract, options: AppOptions): App {
  if (options.tokens.length === 0) throw new Error('the reference server needs at least one token');
  const plan = planReference(contract);
  // A store's calls that name no scope (`app.store.get(id)`) read the contract's first collection.
  const sessions = new Sessions(options.maxEntries ?? DEFAULT_MAX_ENTRIES, plan.patterns[0]?.collection ?? '');
  const seams = journalSeams(options.journal, options.admin, 'start the reference with --journal (startReference({ journal: true }))');
  const pipeline = createPipeline({
    ...pipelineSettings(contract, options),
    onExchange: seams.onExchange,
    admin: seams.admin && withStoreAdmin(seams.admin, (session) => storeCleared(session, sessions.clear(session))),
    answer: {
      admit: admitter(contract, plan, sessions.default, (session) => sessions.store(session)),
      respond: (admitted, body) => admitted.answer(admitted, body),
    },
  });
  return { ...pipeline, store: sessions.default, sessions, plan };
}

/** The settings of the reference's pipeline that come from its options as they are. */
export function pipelineSettings(contract: Contract, options: AppOptions): Pick<PipelineOptions<StoreAdmitted, Reply>, 'contract' | 'accept' | 'credentials' | 'maxBodyBytes' | 'maxDepth' | 'cors' | 'onDefect'> {
  return { contract, accept: acceptTokens(options.tokens), credentials: options.credentials, maxBodyBytes: options.maxBodyBytes, maxDepth: options.maxDepth, cors: options.cors, onDefect: options.onDefect };
}

/**
 * The reference's `admit`: the operation's planned answer, its parameters, and the store of the
 * request's session (`storeOf`; `base` for requests without one). Worked out once per operation,
 * so that admitting a request without parameters or session makes no object.
 */
export function admitter(contract: Contract, plan: ReferencePlan, base: ItemStore, storeOf: (session: string | undefined) => ItemStore): (operation: OperationContract, request: RequestHead, parameters: ParsedParameters) => StoreAdmitted {
  const prepared = new Map<OperationContract, StoreAdmitted>();
  for (const [operation, answer] of plan.answers) prepared.set(operation, { operation, answer, parameters: NO_PARAMETERS, store: base });
  const negotiated = negotiatedOperations(contract);
  return (operation, request, parameters) => {
    const planned = prepared.get(operation);
    if (planned === undefined) throw new Error(`no answer planned for ${operation.method} ${operation.path}`);
    const session = headerValue(request.headers, SESSION_HEADER);
    // Accept is read only where it picks the answer's media type (none of the bundled contract's).
    const accept = negotiated.size > 0 && negotiated.has(operation) ? headerValue(request.headers, 'accept') : undefined;
    const contentType = plan.readsContentType.has(operation) ? headerValue(request.headers, 'content-type') : undefined;
    return session === undefined && parameters === NO_PARAMETERS && accept === undefined && contentType === undefined ? planned : { ...planned, parameters, store: storeOf(session), session, accept, contentType };
  };
}

/** The answer of `DELETE /__plant-store/store`: the session emptied and how many items it held. */
export function storeCleared(session: string | undefined, emptied: number): AppResponse {
  return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ session: session ?? null, emptied }) };
}

/** The refusal of another method than DELETE on the store's admin path; undefined for a DELETE. */
export function storeAdminMethod(request: RequestHead): AppResponse | undefined {
  if (request.method === 'DELETE') return undefined;
  return errorResponse(new PlantStoreError('method_not_allowed', `method: ${request.method ?? ''} is not allowed on ${STORE_ADMIN_PATH}; use DELETE`, { headers: { allow: 'DELETE' } }));
}

/** The session a store admin request names (`?session=`), undefined for the default store. */
export function adminSession(query: string): string | undefined {
  return new URLSearchParams(query).get('session') ?? undefined;
}

/** The journal's admin routes, and `DELETE /__plant-store/store` emptying a session's store. */
function withStoreAdmin(routes: AdminRoutes, clear: (session: string | undefined) => AppResponse): AdminRoutes {
  return (request: RequestHead, path: string, query: string) => {
    if (path !== STORE_ADMIN_PATH) return routes(request, path, query);
    return storeAdminMethod(request) ?? clear(adminSession(query));
  };
}
