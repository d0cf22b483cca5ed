/**
 * The reference over the shared store (redis-store.ts): the same plan, admission and answers as
 * app.ts, each answer run against the request's view of Redis, so answers come later (a Promise)
 * and only here: the in-memory reference keeps its synchronous pipeline.
 */
import { isPreflight, preflightResponse, splitTarget, withCors, createPipeline, journalSeams, type Answered, type AppRequest, type AppResponse, type Pipeline, type RequestHead } from '../http/portable.js';
import type { Contract } from '../openapi/portable.js';
import { planReference, type ReferencePlan } from './answers.js';
import { adminSession, admitter, pipelineSettings, STORE_ADMIN_PATH, storeAdminMethod, storeCleared, type AppOptions, type StoreAdmitted } from './app.js';
import { isRedisFailure, runShared, storeUnavailable, type RedisStore } from './redis-store.js';
import { errorResponse } from '../http/portable.js';

export interface SharedApp extends Pipeline<StoreAdmitted> {
  readonly plan: ReferencePlan;
  readonly shared: RedisStore;
}

export function createSharedStoreApp(contract: Contract, options: AppOptions, shared: RedisStore): SharedApp {
  if (options.tokens.length === 0) throw new Error('the reference server needs at least one token');
  const plan = planReference(contract);
  const seams = journalSeams(options.journal, options.admin, 'start the reference with --journal (startReference({ journal: true }))');
  // The admitted request's store is not used: each request makes its own view (respond), since the prepared admissions are shared.
  const unused = shared.view(undefined);
  const pipeline = createPipeline({
    ...pipelineSettings(contract, options),
    onExchange: seams.onExchange,
    admin: seams.admin,
    answer: {
      admit: admitter(contract, plan, unused, () => unused),
      respond: (admitted, body) => runShared(shared.view(admitted.session), (store) => admitted.answer({ ...admitted, store }, body)),
    },
  });
  const storeAdmin = seams.admin === undefined ? undefined : (request: RequestHead): Answered | undefined => {
    const url = request.url ?? '/';
    if (!url.startsWith(STORE_ADMIN_PATH)) return undefined;
    const { path, query } = splitTarget(url);
    if (path !== STORE_ADMIN_PATH) return undefined;
    const cors = (response: AppResponse): AppResponse => (options.cors === true ? withCors(response, request.headers) : response);
    if (options.cors === true && isPreflight(request.method ?? '', request.headers)) return preflightResponse(request.headers);
    const refused = storeAdminMethod(request);
    if (refused !== undefined) return cors(refused);
    const session = adminSession(query);
    return shared.clear(session).then(
      (emptied) => cors(storeCleared(session, emptied)),
      (cause: unknown) => {
        if (!isRedisFailure(cause)) throw cause;
        return cors(errorResponse(storeUnavailable()));
      },
    );
  };
  if (storeAdmin === undefined) return { ...pipeline, plan, shared };
  const head = (request: RequestHead): StoreAdmitted | Answered => storeAdmin(request) ?? pipeline.head(request);
  return {
    ...pipeline,
    head,
    request: (request: AppRequest) => storeAdmin(request) ?? pipeline.request(request),
    plan,
    shared,
  };
}
