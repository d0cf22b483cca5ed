/**
 * The requests of the capacity phase and the canary, built from the contract like every other
 * request (tables/context.ts): small valid bodies that differ in their integer properties (the
 * stored resource's key), so that each one stores a distinct plant.
 *
 * - **fill**: `target` distinct plants (5,000 by default), one in FRESH_EVERY of them on a
 *   connection of its own, until the target or the time budget (5 s) is reached - but not before
 *   CAPACITY_FLOOR plants (5,000) unless that takes longer than FLOOR_LIMIT_MS (30 s): what a
 *   default run stores is a count of plants, not what a machine's load let it store in 5 s, so a
 *   store whose every write costs more with each plant it holds is read at the same size on a
 *   loaded machine as on a quiet one (`degradation`); the budget bounds a larger `--capacity`;
 * - **replacements**: then the earliest tenth of them again, same ids, other values: a store that
 *   holds thousands must still replace what it holds (rule 1, decision 2);
 * - **reads back**: where the contract has a read of what the create stores (the walks of the
 *   stateful phase, sequences.ts: a link, else the collection/item pattern), a sample of the
 *   plants stored, read through it: a store that holds thousands must still answer each exactly
 *   (`resource-available`);
 * - the **canary**: one more valid request, always the same, that the runner sends alone at
 *   intervals to measure the target (checks/degradation.ts). It replaces the same plant each time,
 *   so it never adds to what the store holds.
 * The random phase follows, so new and repeated ids keep being checked against a full store.
 */
import type { Contract, OperationContract } from '../../src/openapi/index.js';
import { writeJson, type JsonModel } from './json-text.js';
import { declaresJson, otherMediaVariants, writeBody } from './tables/media-bodies.js';
import { readBackCase, walksOf } from './sequences.js';
import { kindContext, operationAuth, type KindContext } from './tables/context.js';
import { otherClientSpelling, reachableOperations, type EngineCredentials } from './tables/scheme-credentials.js';
import type { AuthSpelling } from './tables/credential-spellings.js';
import { operationContext } from './tables/operation-context.js';
import { NO_EXTRAS } from './tables/extras.js';
import { validCase, withKeysOf } from './kinds/valid.js';
import { integerKeyProperties, type Profile, type RequestCase } from '../../oracle/index.js';
import { DEFAULT_CAPACITY } from '../defaults.js';

/** The fill starts no new plant after this long once it holds CAPACITY_FLOOR (the report says how many it stored): it bounds a `--capacity` above the floor. */
export const DEFAULT_CAPACITY_BUDGET_MS = 5000;
/**
 * Plants the fill stores whatever the budget (a default run's whole target), unless that takes
 * longer than FLOOR_LIMIT_MS. With a floor of 2,000, a store that scans every row on every write
 * stored 2,000 plants under two busy loops against 5,000 on a quiet machine, and its canary's rise
 * (×1.7 to ×2.4) was caught in 7 runs of 14 (issue 22).
 */
export const CAPACITY_FLOOR = 5000;
export const FLOOR_LIMIT_MS = 30_000;
/**
 * One request in this many goes on a connection of its own: 1,375 connections opened and closed
 * in a default run (500 at the floor), past the descriptor limits a leak runs into (256 on macOS,
 * 1,024 on Linux by default).
 */
export const FRESH_EVERY = 4;
/** After the fill, one plant in this many - the earliest - is replaced. */
export const REPLACED_SHARE = 10;

/**
 * `plainBody(n)` numbers for the phase, clear of the coverage phase's (which count up from 0):
 * fill plant i is n = FILL_BASE + i; its replacement takes its values from REPLACEMENT_BASE + i + 1
 * (the other parity, so a plant sent with its optional properties is replaced without them, and
 * the other way round); the canary is CANARY_N.
 */
const FILL_BASE = 100_000;
const REPLACEMENT_BASE = 300_000;
const CANARY_N = 99_999;
/** The body of the canary sent as other clients (run/canary.ts, "sessions"): another plant, so that a refusal of them never touches the canary's. */
const OTHER_CLIENT_N = 99_998;

export interface CapacityCases {
  /** Plants to store. */
  readonly target: number;
  /** The i-th plant of the fill (0 ≤ i < target). */
  fill(i: number): RequestCase;
  /** The fill's i-th plant again: the same integer properties, other values. */
  replacement(i: number): RequestCase;
  /** Whether the i-th request of the fill (or of the replacements) goes on a connection of its own. */
  fresh(i: number): boolean;
  readonly canary: RequestCase;
  /** A read of the fill's i-th plant through the contract's read of what the create stores; absent where it has none. */
  readonly readBack?: (i: number) => RequestCase;
  /** The canary with the credentials of the n-th client no request presented before (run/canary.ts, "sessions"); absent where the canary needs none. */
  readonly otherClient?: (n: number) => RequestCase;
}

/** Why a read back may be refused: a plant stored thousands of plants before. */
const FORGOTTEN = 'thousands of plants were stored after it: a bounded store may have forgotten it (the reference forgets the oldest when full, decision 2)';

export interface CapacityOptions {
  readonly token: string;
  readonly profile?: Profile;
  readonly target?: number;
  /** Credentials per scheme and plain header fields (scheme-credentials.ts). */
  readonly credentials?: EngineCredentials;
  /** The operation to fill; by default the contract's first with a JSON request body the run has credentials for. */
  readonly operation?: OperationContract;
}

/**
 * The capacity phase's cases for a contract without an operation that takes a JSON body (a
 * read-only API): nothing to store (the runner leaves the phase out, options.ts), and a canary
 * that reads - the plain valid request of the contract's first GET, the parameterless one first.
 */
function readOnlyCases(contract: Contract, options: CapacityOptions): CapacityCases {
  const reads = reachableOperations(contract, options).filter((o) => o.method === 'GET');
  const operation = reads.find((o) => o.parameters.every((p) => !p.required)) ?? reads[0] ?? contract.operations[0];
  if (operation === undefined) throw new Error('the contract declares no operation');
  const base = { token: options.token, profile: options.profile ?? 'reference', credentials: options.credentials };
  const auth = operationAuth(operation, base);
  const context = operationContext(contract, operation, { ...base, ...auth });
  const nothing = (): never => {
    throw new Error('the contract declares no operation with a JSON request body: there is nothing to store');
  };
  return {
    target: 0,
    fill: nothing,
    replacement: nothing,
    fresh: () => false,
    canary: context.make({ kind: 'valid-parameters', variant: 'the canary (sent alone at intervals to measure the target)', content: 'valid', auth: context.validAuth, values: context.plainParameters(CANARY_N) }),
    ...otherClients({ plan: auth.plan, profile: base.profile }, options.token, (spelling) => context.make({ kind: 'bad-auth-no-body', variant: spelling.shown, content: 'valid', auth: spelling, values: context.plainParameters(OTHER_CLIENT_N), tags: ['growth:sessions'] })),
  };
}

/** Whether the kit can write a body of the operation: JSON, or another media type its codecs write (a form, multipart). */
function fillable(operation: OperationContract): boolean {
  return declaresJson(operation) || otherMediaVariants(operation).length > 0;
}

/** Whether the contract has an operation the capacity phase can fill: one with a request body the kit writes. */
export function hasCapacityOperation(contract: Contract): boolean {
  return contract.operations.some(fillable);
}

/**
 * The capacity phase's cases for an operation whose body is not JSON (a form, a multipart
 * upload): the same plants, each written in the operation's first other media type by its codec.
 */
function mediaCases(contract: Contract, operation: OperationContract, options: CapacityOptions): CapacityCases {
  const variant = otherMediaVariants(operation)[0];
  if (variant === undefined) return readOnlyCases(contract, options);
  const base = { token: options.token, profile: options.profile ?? 'reference', ...(options.credentials === undefined ? {} : { credentials: options.credentials }) };
  const context = operationContext(contract, operation, { ...base, ...operationAuth(operation, base) });
  const keys = integerKeyProperties(contract, operation);
  const target = options.target ?? DEFAULT_CAPACITY;
  const model = (n: number): JsonModel => context.schemas.plain(variant.schema ?? {}, n);
  const send = (body: JsonModel, n: number, what: string): RequestCase => {
    const written = writeBody(variant, body, n, what, [`media:${variant.essence}`]);
    return context.make({ kind: 'media-bodies', variant: what, content: written.valid ? 'valid' : 'invalid', auth: context.validAuth, values: context.plainParameters(0), body: written });
  };
  const walk = walksOf(contract).find((w) => w.create === operation && w.read !== undefined);
  return {
    target,
    fill: (i) => filled(send(model(FILL_BASE + i), FILL_BASE + i, `capacity: plant ${i + 1} of ${target} (${variant.mediaType})`)),
    replacement: (i) => send(withKeysOf(model(REPLACEMENT_BASE + i + 1), model(FILL_BASE + i), keys), REPLACEMENT_BASE + i + 1, `capacity: plant ${i + 1} replaced (${variant.mediaType})`),
    fresh: (i) => i % FRESH_EVERY === FRESH_EVERY - 1,
    canary: send(model(CANARY_N), CANARY_N, 'the canary (sent alone at intervals to measure the target)'),
    ...(walk === undefined
      ? {}
      : { readBack: (i: number) => readBackCase(contract, walk, writeJson(model(FILL_BASE + i), 'compact'), { token: options.token, profile: context.profile, ...(options.credentials === undefined ? {} : { credentials: options.credentials }), variant: `capacity: plant ${i + 1} of ${target} read back through ${walk.read?.name ?? 'its read'}`, lenient: FORGOTTEN }) }),
  };
}

/** A plant of the fill, tagged as one (RequestCase.tags; the conformance map's rows on time name it). */
function filled(request: RequestCase): RequestCase {
  return { ...request, tags: [...(request.tags ?? []), 'capacity:fill'] };
}

/**
 * The canary sent as other clients: a request like its own, with credentials no request presented
 * before (each a refusal to a target that does not know them); none where the canary needs none.
 */
function otherClients(context: Pick<KindContext, 'plan' | 'profile'>, token: string, make: (auth: AuthSpelling) => RequestCase): Pick<CapacityCases, 'otherClient'> {
  if (otherClientSpelling(context.plan, token, 0, context.profile) === undefined) return {};
  return { otherClient: (n) => make(otherClientSpelling(context.plan, token, n, context.profile) as AuthSpelling) };
}

export function capacityCases(contract: Contract, options: CapacityOptions): CapacityCases {
  const operation = options.operation ?? reachableOperations(contract, options).find(fillable);
  if (!operation) return readOnlyCases(contract, options);
  if (!declaresJson(operation)) return mediaCases(contract, operation, options);
  const context: KindContext = kindContext(contract, operation, { token: options.token, ...(options.profile === undefined ? {} : { profile: options.profile }), ...(options.credentials === undefined ? {} : { credentials: options.credentials }) });
  const target = options.target ?? DEFAULT_CAPACITY;
  const plain = { layout: 'compact' as const, mediaType: context.jsonTypes[0] ?? 'application/json', auth: context.validAuth, extras: NO_EXTRAS };
  const keys = context.integerKeys.join(', ');
  const walk = walksOf(contract).find((w) => w.create === operation && w.read !== undefined);
  const sequences = { token: options.token, profile: context.profile, ...(options.credentials === undefined ? {} : { credentials: options.credentials }) };
  return {
    target,
    fill: (i) => filled(validCase(context, { ...plain, model: context.plainBody(FILL_BASE + i), what: `capacity: plant ${i + 1} of ${target}` })),
    replacement: (i) =>
      validCase(context, {
        ...plain,
        model: withKeysOf(context.plainBody(REPLACEMENT_BASE + i + 1), context.plainBody(FILL_BASE + i), context.integerKeys),
        what: `capacity: plant ${i + 1} replaced (the same ${keys || 'body'}, other values)`,
      }),
    fresh: (i) => i % FRESH_EVERY === FRESH_EVERY - 1,
    canary: validCase(context, { ...plain, model: context.plainBody(CANARY_N), what: 'the canary (sent alone at intervals to measure the target)' }),
    ...otherClients(context, options.token, (auth) => context.make({ kind: 'bad-auth', variant: auth.shown, content: 'valid', auth, contentType: context.jsonTypes[0], body: context.text(context.plainBody(OTHER_CLIENT_N)), tags: ['growth:sessions'] })),
    ...(walk === undefined
      ? {}
      : {
          readBack: (i: number) =>
            readBackCase(contract, walk, writeJson(context.plainBody(FILL_BASE + i), 'compact'), { ...sequences, variant: `capacity: plant ${i + 1} of ${target} read back through ${walk.read?.name ?? 'its read'}`, lenient: FORGOTTEN }),
        }),
  };
}
