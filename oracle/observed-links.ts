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
 * - **Nothing in between**: a read is judged only when no request that may change its resource
 *   was in flight at any moment of it, and what it is judged against was done by a write with no
 *   other write on the same resource in flight beside it: the order in which the upstream applied
 *   two requests in flight together is unknown. A replace or a delete may change the resource its
 *   parameters name; a create, the one its links name with its body standing for its answer (as
 *   conform's stateful phase takes it), every resource of its walk until its body is whole; any
 *   other request that may change state (every method but GET, HEAD, OPTIONS, TRACE: RFC 9110,
 *   section 9.2.1), everything.
 * - **What is not known is forgotten**: a write answered 5xx, 3xx or not at all, or in flight
 *   with another write on its resource, forgets the resource; a create whose answer does not give
 *   its link's values, or names another resource than its body, every resource of the walk; a
 *   request of unknown effect (an unsafe method on an operation outside the walks or a path
 *   outside the contract) answered otherwise than 4xx, everything. A 4xx answer is a request not
 *   applied (RFC 9110, section 15.5): it changes nothing.
 * - **Bounded**: at most `maxRemembered` resources over every scope; the oldest go first.
 */
import { parseJson, SESSION_HEADER, type Contract, type ExchangeValues, type JsonValue, type OperationContract } from '../src/openapi/index.js';
import { splitTarget } from '../src/http/portable.js';
import type { HttpOutcome, HttpRequest, LinkStep, ResponseOutcome } from './types.js';
import type { Classification } from './classify.js';
import { declaredPart, linkedParameters, linkedValues, parameterText, walksOf, type LinkedValue, type LinkTarget, type Walk } from './walks.js';

/** Resources remembered at most (over every scope): enough for a long end-to-end suite; the oldest are forgotten first. */
export const DEFAULT_MAX_REMEMBERED = 10_000;

/** Methods that change no state (RFC 9110, section 9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** What a write in flight may change: resources by their keys, every resource of a read operation (by its key's prefix), or all. */
interface Touch {
  readonly all: boolean;
  readonly keys: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

const EVERYTHING: Touch = { all: true, keys: new Set(), prefixes: [] };

/** A write in flight, and what it may change (narrowed once its body is whole). */
interface WriteNote {
  touch: Touch;
}

/** An exchange as the memory noted its arrival. */
export interface LinkTicket {
  readonly exchange: number;
  /** Undefined for a request of a safe method. */
  readonly write: WriteNote | undefined;
  /** The writes in flight at any moment of it (itself aside). */
  readonly overlapping: Set<WriteNote>;
}

export interface LinkMemory {
  /** A request's head has arrived (`head`: the request without its body): a write is in flight from now on. */
  arrive(head: HttpRequest, exchange: number): LinkTicket;
  /** Its body is whole: what a create may change is narrowed to the resource its links name. */
  whole(ticket: LinkTicket, request: HttpRequest): void;
  /**
   * The exchange is over. For a read of a resource remembered in its scope, the `LinkStep` the
   * stateful checks judge it by; a write is learnt from.
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

/** A memory of what was done along the contract's links; with `maxRemembered` 0 it remembers nothing, and judges no read by a link. */
export function createLinkMemory(contract: Contract, maxRemembered = DEFAULT_MAX_REMEMBERED): LinkMemory {
  const walks = walksOf(contract);
  const store = rememberedStore(maxRemembered);
  const active = new Set<LinkTicket>();
  const finish = (ticket: LinkTicket): void => {
    active.delete(ticket);
  };
  const learn = (done: Done): void => {
    const { response, classification } = done;
    // RFC 9110, section 15.5: a 4xx is a request the server did not apply.
    if (response !== undefined && response.status >= 400 && response.status < 500) return;
    const operation = classification.operation;
    const touched = walksThrough(walks, operation);
    if (operation === undefined || touched.length === 0) {
      store.forgetAll();
      return;
    }
    for (const walk of touched) {
      if (walk.create === operation) created(contract, walk, done, store);
      for (const target of [walk.replace, walk.remove]) if (target !== undefined && target.operation === operation) changed(contract, walk, target, done, store);
    }
  };
  return {
    arrive(head, exchange) {
      const write = SAFE_METHODS.has(head.method.toUpperCase()) ? undefined : { touch: touchOf(contract, walks, head, false) };
      const ticket: LinkTicket = { exchange, write, overlapping: new Set([...active].flatMap((other) => (other.write === undefined ? [] : [other.write]))) };
      if (write !== undefined) for (const other of active) other.overlapping.add(write);
      active.add(ticket);
      return ticket;
    },
    whole(ticket, request) {
      if (ticket.write !== undefined) ticket.write.touch = touchOf(contract, walks, request, true);
    },
    settle(ticket, request, classification, outcome) {
      finish(ticket);
      if (ticket.write === undefined) return readStep(contract, walks, ticket, request, classification, store);
      learn({ ticket, request, classification, response: outcome.kind === 'response' ? outcome : undefined, scope: scopeOf(request) });
      return undefined;
    },
    abandon(ticket) {
      finish(ticket);
      if (ticket.write !== undefined) store.forgetAll();
    },
    get size() {
      return store.size();
    },
  };
}

/** The walks a request of an operation goes along: as their create, replace or delete. */
function walksThrough(walks: readonly Walk[], operation: OperationContract | undefined): Walk[] {
  return operation === undefined ? [] : walks.filter((walk) => [walk.create, walk.replace?.operation, walk.remove?.operation].includes(operation));
}

/**
 * What a write may change: a replace or a delete, the resource its parameters name; a create, the
 * one its links name with its body standing for its answer, once the body is whole (before, every
 * resource of its walk); where it names none it can be read by, every resource of the walk; a
 * request no walk goes through, everything.
 */
function touchOf(contract: Contract, walks: readonly Walk[], request: HttpRequest, bodyWhole: boolean): Touch {
  const operation = contract.findOperation(request.method, splitTarget(request.path).path);
  const touched = walksThrough(walks, operation);
  if (touched.length === 0) return EVERYTHING;
  const keys = new Set<string>();
  const prefixes: string[] = [];
  for (const walk of touched) {
    const whole = walk.read === undefined ? undefined : targetPrefix(walk.read);
    if (walk.create === operation) {
      const guessed = bodyWhole ? resourceKeys(walk, guessedExchange(contract, request, walk)) : undefined;
      if (guessed === undefined && whole !== undefined) prefixes.push(whole);
      for (const key of guessed === undefined ? [] : [guessed.resource, ...guessed.aliases]) keys.add(key);
    }
    for (const target of [walk.replace, walk.remove]) {
      if (target === undefined || target.operation !== operation) continue;
      const key = observedKey(contract, target, request, operation);
      if (key !== undefined) keys.add(key);
      else if (whole !== undefined) prefixes.push(whole);
    }
  }
  return { all: false, keys, prefixes };
}

/** Whether a write may change the resource of these keys (its read's first). */
function mayChange(note: WriteNote, keys: readonly string[]): boolean {
  const { touch } = note;
  return touch.all || keys.some((key) => touch.keys.has(key) || touch.prefixes.some((prefix) => key.startsWith(prefix)));
}

/** Whether a write in flight beside the exchange may have changed the resource. */
function disturbed(ticket: LinkTicket, keys: readonly string[]): boolean {
  return [...ticket.overlapping].some((note) => mayChange(note, keys));
}

/** A write that is over, as the memory learns from it. */
interface Done {
  readonly ticket: LinkTicket;
  readonly request: HttpRequest;
  readonly classification: Classification;
  readonly response: ResponseOutcome | undefined;
  readonly scope: string;
}

/** A 2xx to a request with no other write on the resource in flight beside it. */
function appliedAlone(done: Done, keys: readonly string[]): boolean {
  const { response } = done;
  return response !== undefined && response.status >= 200 && response.status < 300 && !disturbed(done.ticket, keys);
}

/** A valid body the checks can hold a read to, applied alone: its text. */
function appliedBody(done: Done, keys: readonly string[]): string | undefined {
  const { classification, request } = done;
  if (!appliedAlone(done, keys) || classification.content !== 'valid' || classification.contentLenient !== undefined) return undefined;
  return Buffer.from(request.body).toString('utf8');
}

/**
 * A create is over: the resource its links name is what it sent, if it was applied alone; else
 * forgotten. An answer that names another resource than its body (a key the server chose) was a
 * surprise while it was in flight: every resource of the walk is forgotten.
 */
function created(contract: Contract, walk: Walk, done: Done, store: RememberedStore): void {
  const { response } = done;
  const exchange = response === undefined ? undefined : exchangeValues(contract, done.request, response.status, response.headers, response.body);
  const keys = exchange === undefined ? undefined : resourceKeys(walk, exchange);
  const expected = done.ticket.write !== undefined && keys !== undefined && mayChange(done.ticket.write, [keys.resource]);
  if (keys === undefined || !expected) {
    store.forgetWhere((key) => walk.read !== undefined && key.startsWith(targetPrefix(walk.read)));
    return;
  }
  store.forget(keys.resource);
  const body = appliedBody(done, [keys.resource, ...keys.aliases]);
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
  const keys = [resource, ...aliases];
  const via = `${before.via.split(' → ', 1)[0] ?? ''} → ${target.name} (exchange ${done.ticket.exchange})`;
  if (target === walk.remove) {
    if (appliedAlone(done, keys)) store.set(resource, aliases, done.scope, { expects: 'gone', via, inferred: walk.inferred });
    return;
  }
  const body = appliedBody(done, keys);
  if (body !== undefined && target.operation.requestBody !== undefined) store.set(resource, aliases, done.scope, { expects: 'replaced', resource: declaredPart(target.operation, body), via, inferred: walk.inferred });
}

/** The step a read of a remembered resource ends: what it must answer, and the exchanges that made it so; none while a write on it was in flight. */
function readStep(contract: Contract, walks: readonly Walk[], ticket: LinkTicket, request: HttpRequest, classification: Classification, store: RememberedStore): LinkStep | undefined {
  const operation = classification.operation;
  if (operation === undefined || operation.method !== request.method) return undefined;
  for (const walk of walks) {
    if (walk.read?.operation !== operation) continue;
    const key = observedKey(contract, walk.read, request, operation);
    const remembered = key === undefined ? undefined : store.get(key, scopeOf(request));
    if (key === undefined || remembered === undefined || disturbed(ticket, [key, ...store.aliasesOf(key)])) continue;
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
  const { path, query } = splitTarget(request.path);
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

/** A create's exchange as a conforming target answers it (its body comes back), before its answer is in: what the engine's sequences evaluate links on. */
function guessedExchange(contract: Contract, request: HttpRequest, walk: Walk): ExchangeValues {
  const exchange = exchangeValues(contract, request, Number(walk.status) || 200, {}, undefined);
  return { ...exchange, response: { headers: {}, body: exchange.request.body } };
}

/** The exchange a link's runtime expressions read (OpenAPI 3.1, section 4.8.20.4), bodies lossless. */
function exchangeValues(contract: Contract, request: HttpRequest, status: number, headers: Readonly<Record<string, string>>, body: Uint8Array | undefined): ExchangeValues {
  const { path, query } = splitTarget(request.path);
  const raw = contract.matchPath(path)?.values ?? {};
  const pathValues = Object.fromEntries(Object.entries(raw).map(([name, text]) => [name, percentDecoded(text)]));
  return {
    url: request.path,
    method: request.method,
    statusCode: status,
    request: { path: pathValues, query: Object.fromEntries(new URLSearchParams(query)), headers: request.headers, body: jsonOf(request.body) },
    response: { headers, body: body === undefined ? undefined : jsonOf(body) },
  };
}

/** The scope of a request: what may give it a store of its own (credentials, cookies, the reference's session). */
function scopeOf(request: HttpRequest): string {
  const authorization = [request.headers.authorization, ...(request.extraLines ?? []).filter(([name]) => name === 'authorization').map(([, value]) => value)];
  return JSON.stringify([authorization, request.headers.cookie ?? null, request.headers[SESSION_HEADER] ?? null]);
}

function percentDecoded(text: string): string {
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
