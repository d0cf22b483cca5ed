/**
 * The reference Plant Store: its answers (answers.ts: the store's collection/item pattern, stateful;
 * any other operation from the contract's examples) behind the shared pipeline
 * (src/http/pipeline.ts), which judges every request first. No socket: tests call
 * `app.request()`; `listen(app)` (src/http) serves it.
 */
import { NO_PARAMETERS, SESSION_HEADER, type Contract, type OperationContract } from '../openapi/portable.js';
import { acceptTokens, ADMIN_PREFIX, createPipeline, errorResponse, headerValue, journalSeams, negotiatedOperations, PlantStoreError, type AdminRoutes, type AppResponse, type Pipeline, type RequestHead, type ServerSettings } from '../http/portable.js';
import { planReference, type ReferencePlan, type StoreAdmitted } from './answers.js';
import { DEFAULT_MAX_ENTRIES, Sessions, type PlantStore } from './store.js';

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

  // Worked out once per operation, so that admitting a request without parameters or session makes no object.
  const prepared = new Map<OperationContract, StoreAdmitted>();
  for (const [operation, answer] of plan.answers) prepared.set(operation, { operation, answer, parameters: NO_PARAMETERS, store: sessions.default });

  const negotiated = negotiatedOperations(contract);
  const seams = journalSeams(options.journal, options.admin, 'start the reference with --journal (startReference({ journal: true }))');
  const pipeline = createPipeline({
    contract,
    accept: acceptTokens(options.tokens),
    credentials: options.credentials,
    maxBodyBytes: options.maxBodyBytes,
    maxDepth: options.maxDepth,
    cors: options.cors,
    onDefect: options.onDefect,
    onExchange: seams.onExchange,
    admin: seams.admin && withStoreAdmin(seams.admin, sessions),
    answer: {
      admit: (operation, request, parameters) => {
        const base = prepared.get(operation);
        if (base === undefined) throw new Error(`no answer planned for ${operation.method} ${operation.path}`);
        const session = headerValue(request.headers, SESSION_HEADER);
        // Accept is read only where it picks the answer's media type (none of the bundled contract's).
        const accept = negotiated.size > 0 && negotiated.has(operation) ? headerValue(request.headers, 'accept') : undefined;
        const contentType = plan.readsContentType.has(operation) ? headerValue(request.headers, 'content-type') : undefined;
        return session === undefined && parameters === NO_PARAMETERS && accept === undefined && contentType === undefined ? base : { ...base, parameters, store: sessions.store(session), accept, contentType };
      },
      respond: (admitted, body) => admitted.answer(admitted, body),
    },
  });
  return { ...pipeline, store: sessions.default, sessions, plan };
}

/** The journal's admin routes, and `DELETE /__plant-store/store` emptying a session's store. */
function withStoreAdmin(routes: AdminRoutes, sessions: Sessions): AdminRoutes {
  return (request: RequestHead, path: string, query: string) => {
    if (path !== STORE_ADMIN_PATH) return routes(request, path, query);
    if (request.method !== 'DELETE') return errorResponse(new PlantStoreError('method_not_allowed', `method: ${request.method ?? ''} is not allowed on ${STORE_ADMIN_PATH}; use DELETE`, { headers: { allow: 'DELETE' } }));
    const session = new URLSearchParams(query).get('session') ?? undefined;
    return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ session: session ?? null, emptied: sessions.clear(session) }) };
  };
}
