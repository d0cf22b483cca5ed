/**
 * What an observer (the proxy) saw happen along the contract's links: the creates, replaces and
 * deletes it passed on, remembered per scope, so that a later read of the same resource is
 * judged by the stateful checks (resource-available, deleted-stays-deleted, replacement-visible)
 * as the engine's sequences are - the same walks (walks.ts), the same checks, a `LinkStep` on
 * the read. The rules, each with its reason, are in docs/proxy.md ("Linked reads"):
 *
 * - **Scope**: the request's `Authorization`, `Cookie` and `Plant-Store-Session` fields. A read
 *   is judged only against what was done with the same ones: another user, or another session of
 *   the reference, may see another store.
 * - **Nothing in between**: a read is judged only when no request that may change state (any
 *   method but GET, HEAD, OPTIONS, TRACE: RFC 9110, section 9.2.1) was in flight at any moment
 *   of it, and what it remembers was done by such requests one after the other: the order in
 *   which the upstream applied two requests in flight together is unknown.
 * - **What is not known is forgotten**: a write answered 5xx, 3xx or not at all, two writes in
 *   flight together, a create whose answer does not give its link's values forget the resource
 *   (or every resource of the walk); a request of unknown effect (an unsafe method on an operation
 *   outside the walks or a path outside the contract) answered otherwise than 4xx forgets all. A
 *   4xx answer is a request not applied (RFC 9110, section 15.5): it changes nothing.
 * - **Bounded**: at most `maxRemembered` resources per scope together; the oldest go first.
 */
import { parseJson, SESSION_HEADER, type Contract, type ExchangeValues, type JsonValue, type OperationContract } from '../../src/openapi/index.js';
import type { HttpOutcome, HttpRequest, LinkStep } from '../types.js';
import type { Classification } from './classify.js';
import { declaredPart, linkedParameters, linkedValues, parameterText, walksOf, type LinkedValue, type LinkTarget, type Walk } from './walks.js';

/** Resources remembered at most (over every scope): enough for a long end-to-end suite; the oldest are forgotten first. */
export const DEFAULT_MAX_REMEMBERED = 10_000;

/** Methods that change no state (RFC 9110, section 9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** An exchange as the memory noted its arrival. */
export interface LinkTicket {
  readonly exchange: number;
  readonly write: boolean;
  /** The count of writes arrived and finished, after this one's arrival. */
  readonly epoch: number;
  /** No write was in flight when it arrived. */
  readonly alone: boolean;
}

export interface LinkMemory {
  /** A request has arrived (its method is enough): a write is in flight from now on. */
  arrive(method: string, exchange: number): LinkTicket;
  /**
   * The exchange is over. For a read of a
   * resource remembered in its scope, the `LinkStep` the stateful checks judge it by; a write is
   * learnt from.
   */
  settle(ticket: LinkTicket, request: HttpRequest, classification: Classification, outcome: HttpOutcome): LinkStep | undefined;
  /** The exchange was abandoned half-sent: what a write did is unknown, so everything is forgotten. */
  abandon(ticket: LinkTicket): void;
  /** Resources remembered, over every scope. */
  readonly size: number;
}

/** What was last done to a resource in one scope. */
interface Remembered {
  readonly expects: LinkStep['expects'];
  readonly resource?: string;
  /** The exchanges that made it so, for people: `addPlant 200 (exchange 3) → DeletePlantById (exchange 4)`. */
  readonly via: string;
  readonly inferred: boolean;
}

type Response = Extract<HttpOutcome, { kind: 'response' }>;

/** A memory of what was done along the contract's links. */
export function createLinkMemory(contract: Contract, maxRemembered = DEFAULT_MAX_REMEMBERED): LinkMemory {
  const walks = walksOf(contract);
  const store = rememberedStore(maxRemembered);
  let inFlight = 0;
  let epoch = 0;
  const learn = (ticket: LinkTicket, undisturbed: boolean, request: HttpRequest, classification: Classification, outcome: HttpOutcome): void => {
    const response = outcome.kind === 'response' ? outcome : undefined;
    // RFC 9110, section 15.5: a 4xx is a request the server did not apply.
    if (response !== undefined && response.status >= 400 && response.status < 500) return;
    const operation = classification.operation;
    const touched = operation === undefined ? [] : walks.filter((walk) => [walk.create, walk.replace?.operation, walk.remove?.operation].includes(operation));
    if (touched.length === 0) {
      store.forgetAll();
      return;
    }
    const done: Done = { ticket, undisturbed, request, classification, response, scope: scopeOf(request) };
    for (const walk of touched) {
      if (walk.create === operation) created(contract, walk, done, store);
      for (const target of [walk.replace, walk.remove]) if (target !== undefined && target.operation === operation) changed(contract, walk, target, done, store);
    }
  };
  return {
    arrive(method, exchange) {
      const write = !SAFE_METHODS.has(method.toUpperCase());
      const alone = inFlight === 0;
      if (write) {
        inFlight++;
        epoch++;
      }
      return { exchange, write, epoch, alone };
    },
    settle(ticket, request, classification, outcome) {
      const undisturbed = ticket.alone && epoch === ticket.epoch;
      if (!ticket.write) return undisturbed ? readStep(contract, walks, request, classification, store) : undefined;
      inFlight--;
      epoch++;
      learn(ticket, undisturbed, request, classification, outcome);
      return undefined;
    },
    abandon(ticket) {
      if (!ticket.write) return;
      inFlight--;
      epoch++;
      store.forgetAll();
    },
    get size() {
      return store.size();
    },
  };
}

/** A write that is over, as the memory learns from it. */
interface Done {
  readonly ticket: LinkTicket;
  readonly undisturbed: boolean;
  readonly request: HttpRequest;
  readonly classification: Classification;
  readonly response: Response | undefined;
  readonly scope: string;
}

/** A 2xx to a valid request with a body the checks can hold a read to: the body's text. */
function appliedBody(done: Done): string | undefined {
  const { response, classification, request } = done;
  if (!done.undisturbed || response === undefined || response.status < 200 || response.status >= 300) return undefined;
  if (classification.content !== 'valid' || classification.contentLenient !== undefined) return undefined;
  return Buffer.from(request.body).toString('utf8');
}

/** A create is over: the resource its links name is what it sent, if it was applied alone; else forgotten. */
function created(contract: Contract, walk: Walk, done: Done, store: RememberedStore): void {
  const exchange = done.response === undefined ? undefined : exchangeValues(contract, done.request, done.response);
  const keys = exchange === undefined ? undefined : resourceKeys(walk, exchange);
  if (keys === undefined) {
    store.forgetWhere((key) => walk.read !== undefined && key.startsWith(targetPrefix(walk.read)));
    return;
  }
  store.forget(keys.resource);
  const body = appliedBody(done);
  if (body === undefined) return;
  store.set(keys.resource, keys.aliases, done.scope, { expects: 'created', resource: declaredPart(walk.create, body), via: `${walk.create.operationId} ${done.response?.status ?? ''} (exchange ${done.ticket.exchange})`, inferred: walk.inferred });
}

/** A replace or a delete is over: what a later read must answer, if it was applied alone to a resource remembered in its scope; else forgotten. */
function changed(contract: Contract, walk: Walk, target: LinkTarget, done: Done, store: RememberedStore): void {
  const observed = observedKey(contract, target, done.request, done.classification.operation);
  const resource = observed === undefined ? undefined : store.resourceOf(observed);
  if (resource === undefined) return;
  const before = store.get(resource, done.scope);
  const aliases = store.aliasesOf(resource);
  store.forget(resource);
  if (before === undefined) return;
  const via = `${before.via.split(' → ', 1)[0] ?? ''} → ${target.name} (exchange ${done.ticket.exchange})`;
  if (target === walk.remove) {
    if (appliedStatus(done)) store.set(resource, aliases, done.scope, { expects: 'gone', via, inferred: walk.inferred });
    return;
  }
  const body = appliedBody(done);
  if (body !== undefined && target.operation.requestBody !== undefined) store.set(resource, aliases, done.scope, { expects: 'replaced', resource: declaredPart(target.operation, body), via, inferred: walk.inferred });
}

/** A 2xx to a request applied alone. */
function appliedStatus(done: Done): boolean {
  return done.undisturbed && done.response !== undefined && done.response.status >= 200 && done.response.status < 300;
}

/** The step a read of a remembered resource ends: what it must answer, and the exchanges that made it so. */
function readStep(contract: Contract, walks: readonly Walk[], request: HttpRequest, classification: Classification, store: RememberedStore): LinkStep | undefined {
  const operation = classification.operation;
  if (operation === undefined || operation.method !== request.method) return undefined;
  for (const walk of walks) {
    if (walk.read?.operation !== operation) continue;
    const key = observedKey(contract, walk.read, request, operation);
    const remembered = key === undefined ? undefined : store.get(key, scopeOf(request));
    if (remembered === undefined) continue;
    return { via: `${remembered.via} → ${walk.read.name}`, expects: remembered.expects, ...(remembered.resource === undefined ? {} : { resource: remembered.resource }), ...(remembered.inferred ? { inferred: true } : {}) };
  }
  return undefined;
}

// ---- keys ------------------------------------------------------------------------------------

/** Where a target's keys begin: its operation. */
function targetPrefix(target: LinkTarget): string {
  return `${target.operation.operationId}\u0000`;
}

/** A request of a target, by the values of the parameters its link gives: `getPlant\0path.id=1`. */
function targetKey(target: LinkTarget, values: readonly LinkedValue[]): string {
  const parts = values.map(({ parameter, value }) => `${parameter.in}.${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}=${parameterText(value)}`);
  return targetPrefix(target) + parts.sort().join('&');
}

/** The keys of the resource a create made: its read's, and its replace's and delete's that lead to it. Undefined when the exchange does not give every value a link takes. */
function resourceKeys(walk: Walk, exchange: ExchangeValues): { resource: string; aliases: string[] } | undefined {
  const keys: string[] = [];
  for (const target of [walk.read, walk.replace, walk.remove]) {
    if (target === undefined) continue;
    const values = linkedValues(target, exchange);
    if (values.length !== linkedParameters(target).length) return undefined;
    keys.push(targetKey(target, values));
  }
  const [resource, ...aliases] = keys;
  return resource === undefined ? undefined : { resource, aliases };
}

/** The key of an observed request of a target: the values its parameters have in the request (typed, int64 exact), or undefined when it has none valid. */
function observedKey(contract: Contract, target: LinkTarget, request: HttpRequest, operation: OperationContract | undefined): string | undefined {
  if (operation !== target.operation) return undefined;
  const [path, query] = splitTarget(request.path);
  const match = contract.matchPath(path);
  if (match === undefined) return undefined;
  const parsed = operation.parseParameters({ path: match.values, query, headers: request.headers });
  if ('problem' in parsed) return undefined;
  const values: LinkedValue[] = [];
  for (const { parameter } of linkedParameters(target)) {
    const value = parsed[parameter.in][parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name];
    if (value === undefined) return undefined;
    values.push({ parameter, value });
  }
  return targetKey(target, values);
}

/** The exchange a link's runtime expressions read (OpenAPI 3.1, section 4.8.20.4), bodies lossless. */
function exchangeValues(contract: Contract, request: HttpRequest, response: Response): ExchangeValues {
  const [path, query] = splitTarget(request.path);
  const raw = contract.matchPath(path)?.values ?? {};
  const pathValues = Object.fromEntries(Object.entries(raw).map(([name, text]) => [name, decoded(text)]));
  return {
    url: request.path,
    method: request.method,
    statusCode: response.status,
    request: { path: pathValues, query: Object.fromEntries(new URLSearchParams(query)), headers: request.headers, body: jsonOf(request.body) },
    response: { headers: response.headers, body: jsonOf(response.body) },
  };
}

/** The scope of a request: what may give it a store of its own (credentials, cookies, the reference's session). */
function scopeOf(request: HttpRequest): string {
  const authorization = [request.headers.authorization, ...(request.extraLines ?? []).filter(([name]) => name === 'authorization').map(([, value]) => value)];
  return JSON.stringify([authorization, request.headers.cookie ?? null, request.headers[SESSION_HEADER] ?? null]);
}

function splitTarget(target: string): [string, string] {
  const mark = target.indexOf('?');
  return mark < 0 ? [target, ''] : [target.slice(0, mark), target.slice(mark + 1)];
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function jsonOf(bytes: Uint8Array): JsonValue | undefined {
  if (bytes.length === 0) return undefined;
  try {
    return parseJson(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

// ---- the store -------------------------------------------------------------------------------

interface RememberedStore {
  get(resource: string, scope: string): Remembered | undefined;
  /** The resource a key of its replace or delete leads to (or the resource's own key). */
  resourceOf(key: string): string | undefined;
  /** The keys of its replace and delete. */
  aliasesOf(resource: string): readonly string[];
  set(resource: string, aliases: readonly string[], scope: string, remembered: Remembered): void;
  /** Forget a resource in every scope. */
  forget(resource: string): void;
  forgetWhere(matches: (resource: string) => boolean): void;
  forgetAll(): void;
  size(): number;
}

/** Resources by key, then scope; in the order they were last set, so that the oldest go first. */
function rememberedStore(max: number): RememberedStore {
  const states = new Map<string, Map<string, Remembered>>();
  const aliases = new Map<string, string>();
  const aliasesOf = new Map<string, readonly string[]>();
  const order = new Map<string, { resource: string; scope: string }>();
  const drop = (resource: string, scope: string): void => {
    const scopes = states.get(resource);
    scopes?.delete(scope);
    order.delete(`${resource}\u0001${scope}`);
    if (scopes === undefined || scopes.size > 0) return;
    states.delete(resource);
    for (const alias of aliasesOf.get(resource) ?? []) aliases.delete(alias);
    aliasesOf.delete(resource);
  };
  const forget = (resource: string): void => {
    for (const scope of [...(states.get(resource)?.keys() ?? [])]) drop(resource, scope);
  };
  return {
    get: (resource, scope) => states.get(resource)?.get(scope),
    resourceOf: (key) => (states.has(key) ? key : aliases.get(key)),
    aliasesOf: (resource) => aliasesOf.get(resource) ?? [],
    set(resource, keys, scope, remembered) {
      const entry = `${resource}\u0001${scope}`;
      order.delete(entry);
      order.set(entry, { resource, scope });
      const scopes = states.get(resource) ?? new Map<string, Remembered>();
      scopes.set(scope, remembered);
      states.set(resource, scopes);
      if (keys.length > 0) aliasesOf.set(resource, keys);
      for (const alias of keys) if (alias !== resource) aliases.set(alias, resource);
      while (order.size > max) {
        const [oldest] = order.values();
        if (oldest === undefined) break;
        drop(oldest.resource, oldest.scope);
      }
    },
    forget,
    forgetWhere(matches) {
      for (const resource of [...states.keys()]) if (matches(resource)) forget(resource);
    },
    forgetAll() {
      states.clear();
      aliases.clear();
      aliasesOf.clear();
      order.clear();
    },
    size: () => order.size,
  };
}
