/**
 * `npm run soak -- --store redis://…`: the shared store (issue 31) under sustained load. Two
 * `serve --quiet --store <url>` processes of one contract on one Redis; for each collection/item
 * pattern the contract shows (src/openapi/resources.ts; top-level collections: a nested one needs a
 * parent and is named as skipped), client loops create an item through one process and read it
 * through the other, then replace it, patch it and delete it through one and read each result
 * through the other, for --duration seconds; at the end every item still stored is read through
 * both. A mismatch is a read through the other process that does not answer exactly what the last
 * acknowledged write answered (a 404 after a create, a 200 after a delete, another body).
 * Bodies are the contract's valid values (fuzz/'s generators, seeded), with the key made unique.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { validBodyArbitrary, writeJson } from '../fuzz/index.js';
import { isLosslessNumber, LosslessNumber, parseJson, resourcePatterns, stringifyJson, type Contract, type JsonObject, type OperationContract, type ResourcePattern } from '../src/openapi/index.js';
import { fixed } from './report.js';
import { referenceTarget, startTarget, type RunningTarget } from './targets.js';
import { BENCH_TOKEN } from './workload.js';

/** No plant may be forgotten while it is checked: the serves keep far more than a soak stores. */
const SHARED_MAX_ENTRIES = 100_000_000;
/** Valid bodies generated per operation, then used in turn. */
const POOL = 64;

export interface SharedSoakOptions {
  readonly store: string;
  readonly contractFile: string;
  readonly contract: Contract;
  readonly durationSeconds: number;
  readonly connections: number;
  readonly seed: number;
  readonly write: (text: string) => void;
}

export interface SharedSoakFigures {
  readonly patterns: string[];
  readonly skipped: Record<string, string>;
  /** Requests sent under load (writes and cross reads), and how many of them were cross reads. */
  readonly operations: number;
  readonly crossReads: number;
  readonly mismatches: number;
  readonly mismatchExamples: string[];
  /** Writes a process refused (4xx) although their body was valid: not mismatches, but named. */
  readonly refused: number;
  readonly refusedExamples: string[];
  readonly serverErrors: number;
  readonly failures: number;
  readonly seconds: number;
  readonly operationsPerSecond: number;
  readonly finalSweep: { readonly items: number; readonly reads: number; readonly mismatches: number };
  readonly exitCodes: (number | null)[];
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** How one pattern is exercised: its paths and a pool of valid bodies per write. */
interface Plan {
  readonly pattern: ResourcePattern;
  readonly bodies: Map<OperationContract, string[]>;
}

function isJsonBody(operation: OperationContract | undefined): boolean {
  const type = operation?.requestBody?.mediaTypes[0];
  return type !== undefined && /json/i.test(type);
}

/** Why a pattern cannot be soaked, or undefined where it can. */
function unsoakable(pattern: ResourcePattern): string | undefined {
  if (pattern.parentParameters.length > 0) return `nested under ${pattern.parentParameters.join(', ')} (the shared soak creates top-level items only)`;
  if (pattern.item === undefined || pattern.keyParameter === undefined || !pattern.operations.has('read')) return 'no read of one item';
  if (!isJsonBody(pattern.operations.get('create'))) return 'its create takes no JSON body';
  return undefined;
}

function plan(contract: Contract, seed: number, skipped: Record<string, string>): Plan[] {
  const plans: Plan[] = [];
  for (const pattern of resourcePatterns(contract)) {
    const why = unsoakable(pattern);
    if (why !== undefined) {
      skipped[pattern.collection] = why;
      continue;
    }
    const bodies = new Map<OperationContract, string[]>();
    for (const role of ['create', 'replace', 'update'] as const) {
      const operation = pattern.operations.get(role);
      if (operation === undefined || !isJsonBody(operation)) continue;
      bodies.set(operation, fc.sample(validBodyArbitrary(contract, operation), { numRuns: POOL, seed: seed + plans.length }).map((model) => writeJson(model)));
    }
    plans.push({ pattern, bodies });
  }
  return plans;
}

/** A key of this soak's own: a counter for integers, a UUID or a counted text for strings. */
function newKey(pattern: ResourcePattern, counter: number): string {
  if (pattern.keyType === 'integer') return String(counter);
  return pattern.keyFormat === 'uuid' ? randomUUID() : `soak-${String(counter)}`;
}

/** The body with the key set where the operation's body has the key's property (a client key, a replace). */
function withKey(text: string, operation: OperationContract, pattern: ResourcePattern, key: string | undefined): string {
  const value = parseJson(text);
  if (key === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const shape = operation.requestBody?.shape;
  const must = pattern.keyOrigin === 'client' && operation === pattern.operations.get('create');
  if (!must && shape?.properties.has(pattern.keyProperty) !== true) return text;
  const keyed = { ...(value as JsonObject), [pattern.keyProperty]: pattern.keyType === 'integer' ? new LosslessNumber(key) : key };
  return stringifyJson(keyed);
}

/** The key of a created item: the answer's key property, else its Location's last segment. */
function createdKey(answer: Answer & { location: string | null }, keyProperty: string): string | undefined {
  try {
    const value = parseJson(answer.body);
    const key = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject)[keyProperty] : undefined;
    if (typeof key === 'string' || isLosslessNumber(key)) return key.toString();
  } catch {
    // No JSON answer: the Location says it.
  }
  return answer.location === null ? undefined : decodeURIComponent(answer.location.split('/').at(-1) ?? '');
}

export async function sharedSoak(options: SharedSoakOptions): Promise<SharedSoakFigures> {
  const skipped: Record<string, string> = {};
  const plans = plan(options.contract, options.seed, skipped);
  if (plans.length === 0) throw new Error(`the contract shows no collection/item pattern the shared soak can use (${JSON.stringify(skipped)})`);
  const session = `soak-${Date.now().toString(36)}`;
  const headers = (type?: string): Record<string, string> => ({ authorization: `Bearer ${BENCH_TOKEN}`, 'plant-store-session': session, ...(type === undefined ? {} : { 'content-type': type }) });
  const spec = (name: string) => referenceTarget({ name, quiet: true, contract: options.contractFile, store: options.store, maxEntries: SHARED_MAX_ENTRIES });
  const sides: RunningTarget[] = [await startTarget(spec('one')), await startTarget(spec('two'))];
  options.write(`two processes on ${options.store}: ${sides.map((side) => `${side.url} (pid ${String(side.pid)})`).join(', ')}; session ${session}\n`);
  options.write(`patterns: ${plans.map((p) => `${p.pattern.collection} (${[...p.pattern.operations.keys()].join(', ')}; key ${p.pattern.keyProperty}, ${p.pattern.keyOrigin}'s ${p.pattern.keyType})`).join('; ')}${Object.keys(skipped).length > 0 ? `; skipped ${JSON.stringify(skipped)}` : ''}\n`);

  const tally = { operations: 0, crossReads: 0, mismatches: 0, refused: 0, serverErrors: 0, failures: 0 };
  const mismatchExamples: string[] = [];
  const refusedExamples: string[] = [];
  /** What each stored item must read as, by side-independent path. */
  const live = new Map<string, string | undefined>();

  const send = async (side: RunningTarget, method: string, path: string, body?: string, type?: string): Promise<Answer & { location: string | null }> => {
    tally.operations += 1;
    try {
      const response = await fetch(side.url + path, { method, headers: headers(body === undefined ? undefined : type), ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      if (response.status >= 500) tally.serverErrors += 1;
      return { status: response.status, body: text, location: response.headers.get('location') };
    } catch {
      tally.failures += 1;
      return { status: 0, body: '', location: null };
    }
  };
  const refusedWrite = (what: string, answer: Answer): void => {
    if (answer.status >= 400 && answer.status < 500) {
      tally.refused += 1;
      if (refusedExamples.length < 5) refusedExamples.push(`${what}: ${String(answer.status)} ${answer.body.slice(0, 200)}`);
    }
  };
  /** Reads through `side`: the item must be as the last acknowledged write left it (undefined body: stored, any body; null: gone). */
  const crossRead = async (side: RunningTarget, path: string, expected: string | null | undefined): Promise<boolean> => {
    tally.crossReads += 1;
    const read = await send(side, 'GET', path);
    const held = expected === null ? read.status === 404 : read.status === 200 && (expected === undefined || read.body === expected);
    if (!held) {
      tally.mismatches += 1;
      if (mismatchExamples.length < 5) mismatchExamples.push(`GET ${path} through ${side.name}: ${String(read.status)} ${read.body.slice(0, 200)}; expected ${expected === null ? '404' : `200 ${expected?.slice(0, 200) ?? '(any body)'}`}`);
    }
    return held;
  };
  const written = (answer: Answer): string | undefined => (answer.body === '' ? undefined : answer.body);
  const ok = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

  let counter = 0;
  const deadline = performance.now() + options.durationSeconds * 1000;
  const loop = async (index: number): Promise<void> => {
    let turn = index;
    while (performance.now() < deadline) {
      const { pattern, bodies } = plans[turn % plans.length] as Plan;
      const [w, r] = turn % 2 === 0 ? [sides[0] as RunningTarget, sides[1] as RunningTarget] : [sides[1] as RunningTarget, sides[0] as RunningTarget];
      turn += 1;
      counter += 1;
      const n = counter;
      const create = pattern.operations.get('create') as OperationContract;
      const clientKey = pattern.keyOrigin === 'client' ? newKey(pattern, n) : undefined;
      const pick = (operation: OperationContract): string => (bodies.get(operation) ?? [])[n % POOL] ?? '{}';
      const created = await send(w, 'POST', pattern.collection, withKey(pick(create), create, pattern, clientKey), create.requestBody?.mediaTypes[0]);
      if (!ok(created)) {
        refusedWrite(`POST ${pattern.collection}`, created);
        continue;
      }
      const key = clientKey ?? createdKey(created, pattern.keyProperty);
      if (key === undefined) {
        tally.mismatches += 1;
        if (mismatchExamples.length < 5) mismatchExamples.push(`POST ${pattern.collection}: no key in ${created.body.slice(0, 200)}`);
        continue;
      }
      const path = (pattern.item as string).replace(`{${pattern.keyParameter as string}}`, encodeURIComponent(key));
      let expected = written(created);
      if (!(await crossRead(r, path, expected))) continue;
      for (const [role, method, writer, reader] of [['replace', 'PUT', r, w], ['update', 'PATCH', w, r]] as const) {
        const operation = pattern.operations.get(role);
        if (operation === undefined || !bodies.has(operation)) continue;
        const answer = await send(writer, method, path, withKey(pick(operation), operation, pattern, key), operation.requestBody?.mediaTypes[0]);
        if (!ok(answer)) {
          refusedWrite(`${method} ${pattern.item as string}`, answer);
          continue;
        }
        expected = written(answer);
        await crossRead(reader, path, expected);
      }
      if (pattern.operations.has('remove') && n % 2 === 0) {
        const removed = await send(r, 'DELETE', path);
        if (ok(removed)) {
          await crossRead(w, path, null);
          continue;
        }
        refusedWrite(`DELETE ${pattern.item as string}`, removed);
      }
      live.set(path, expected);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.connections }, (_, index) => loop(index)));
  const seconds = (performance.now() - started) / 1000;
  const operations = tally.operations;

  // Every item still stored, read through each process once load has stopped.
  const sweepBefore = { reads: tally.crossReads, mismatches: tally.mismatches };
  const paths = [...live];
  await Promise.all(
    Array.from({ length: options.connections }, async (_, index) => {
      for (let at = index; at < paths.length; at += options.connections) {
        const [path, expected] = paths[at] as [string, string | undefined];
        for (const side of sides) await crossRead(side, path, expected);
      }
    }),
  );
  const finalSweep = { items: paths.length, reads: tally.crossReads - sweepBefore.reads, mismatches: tally.mismatches - sweepBefore.mismatches };
  // What this soak stored is emptied from Redis (the admin path), then both stop.
  await fetch(`${sides[0]?.url ?? ''}/__plant-store/store?session=${encodeURIComponent(session)}`, { method: 'DELETE' }).then((answer) => answer.arrayBuffer(), () => undefined);
  const exitCodes: (number | null)[] = [];
  for (const side of sides) exitCodes.push(await side.stop());
  return {
    patterns: plans.map((p) => p.pattern.collection),
    skipped,
    operations,
    crossReads: tally.crossReads - finalSweep.reads,
    mismatches: tally.mismatches,
    mismatchExamples,
    refused: tally.refused,
    refusedExamples,
    serverErrors: tally.serverErrors,
    failures: tally.failures,
    seconds,
    operationsPerSecond: operations / seconds,
    finalSweep,
    exitCodes,
  };
}

/** The figure, on a few lines. */
export function sharedSoakLines(figures: SharedSoakFigures): string {
  return (
    `  ${String(figures.operations)} operations in ${fixed(figures.seconds)} s = ${fixed(figures.operationsPerSecond, 0)} operations/s through two processes, ${String(figures.crossReads)} of them reads through the other process\n` +
    `  mismatches ${String(figures.mismatches)}; 5xx ${String(figures.serverErrors)}, connection failures ${String(figures.failures)}, valid writes refused ${String(figures.refused)}\n` +
    `  at the end: ${String(figures.finalSweep.items)} stored items read through both processes, ${String(figures.finalSweep.mismatches)} mismatches; exit codes ${figures.exitCodes.map(String).join(', ')}\n` +
    figures.mismatchExamples.map((example) => `  mismatch: ${example}\n`).join('') +
    figures.refusedExamples.map((example) => `  refused: ${example}\n`).join('')
  );
}
