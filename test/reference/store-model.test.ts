/**
 * Model-based test of the reference store through the app (fast-check's `fc.commands` /
 * `fc.modelRun`, as in its examples/004-stateMachine): random sequences of valid plants, with ids
 * drawn to collide often and across the int64 edges, written in every spelling JSON Schema calls an
 * integer, interleaved with invalid requests that must change nothing. After every command the
 * whole store is compared with an in-memory model, including eviction in a store of 1-4 entries
 * (the plant stored longest ago is forgotten; a replaced plant counts as the newest).
 *
 * Every run prints its seed and the command that replays it (test/support/seed.ts: FC_SEED,
 * FC_PATH, FC_RUNS).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTEGER_SPELLINGS, spellInteger, type IntegerSpelling } from '../../fuzz/index.js';
import { INT64_MAX, INT64_MIN, stringifyJson } from '../../src/openapi/index.js';
import { createApp, type App, type AppRequest } from '../../src/reference/index.js';
import { DEFAULT_HEADERS } from '../battery/battery.js';
import { expectAnswer } from '../support/expect-answer.js';
import { fcParameters } from '../support/seed.js';
import { TEST_TOKEN } from '../support/servers.js';

interface ModelPlant {
  readonly name: string;
  readonly tag?: string;
}

class StoreModel {
  /** Insertion order is age: the first key is the plant stored longest ago. */
  readonly plants = new Map<bigint, ModelPlant>();
  /** Every id any command used, so absent plants are checked as absent. */
  readonly seen = new Set<bigint>();
  constructor(readonly maxEntries: number) {}

  put(id: bigint, plant: ModelPlant): void {
    this.plants.delete(id);
    this.plants.set(id, plant);
    if (this.plants.size > this.maxEntries) this.plants.delete(this.plants.keys().next().value as bigint);
  }
}

interface Real {
  readonly app: App;
}

/** The store and the model agree on every id ever used, and on the size. */
function expectSameStore(model: StoreModel, real: Real): void {
  expect(real.app.store.size).toBe(model.plants.size);
  for (const id of model.seen) {
    const plant = model.plants.get(id);
    const stored = real.app.store.get(id);
    expect(stored === undefined ? undefined : stringifyJson(stored), `id ${id}`).toBe(plant && stringifyJson({ name: plant.name, ...(plant.tag === undefined ? {} : { tag: plant.tag }), id }));
  }
}

const post = (body: string | Uint8Array, headers: AppRequest['headers'] = DEFAULT_HEADERS): AppRequest => ({ method: 'POST', url: '/plants', headers, body });

/** The int64 edges and the 2^53 cliff, plus a handful of small ids so that ids collide often. */
const EDGES = [INT64_MIN, INT64_MIN + 1n, -(2n ** 53n) - 1n, -(2n ** 53n), 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, INT64_MAX - 1n, INT64_MAX];
const idArb = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...EDGES) }, { weight: 2, arbitrary: fc.bigInt({ min: -1n, max: 1n }) });
const outsideArb = fc.oneof(fc.constantFrom(INT64_MAX + 1n, INT64_MIN - 1n, 2n ** 64n), fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }), fc.bigInt({ min: -(2n ** 80n), max: INT64_MIN - 1n }));

// The integer spellings the conformance engine writes (fuzz/generation/json-text.ts): 100, 100.0, 1e2, 1E+2, ...
const spellingArb = fc.constantFrom(...INTEGER_SPELLINGS);

/** Strings with astral characters, NUL, quotes, backslashes and lone surrogates. */
const textArb = fc.string({
  unit: fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\u0000', '"', '\\', '🌱') }),
  maxLength: 6,
});
/** Properties beyond the NewPlant's, hostile keys first; keys are unique so the JSON has no duplicates. */
const extrasArb = fc.uniqueArray(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'color', ''), fc.jsonValue({ maxDepth: 2 })), {
  selector: ([key]) => key,
  maxLength: 3,
});

function newPlantText(idText: string, plant: ModelPlant, extras: readonly (readonly [string, unknown])[]): string {
  const members = [`"name":${JSON.stringify(plant.name)}`, `"id":${idText}`];
  if (plant.tag !== undefined) members.push(`"tag":${JSON.stringify(plant.tag)}`);
  for (const [key, value] of extras) members.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${members.join(',')}}`;
}

class PutPlant implements fc.Command<StoreModel, Real> {
  constructor(
    readonly id: bigint,
    readonly spelling: IntegerSpelling,
    readonly plant: ModelPlant,
    readonly extras: readonly (readonly [string, unknown])[],
  ) {}
  check(): boolean {
    return true;
  }
  run(model: StoreModel, real: Real): void {
    model.seen.add(this.id);
    const answer = real.app.request(post(newPlantText(spellInteger(this.id, this.spelling), this.plant, this.extras)));
    expectAnswer(answer, { status: 200, plant: { ...this.plant, id: this.id.toString() } });
    model.put(this.id, this.plant);
    expectSameStore(model, real);
  }
  toString(): string {
    return `put ${newPlantText(spellInteger(this.id, this.spelling), this.plant, this.extras)}`;
  }
}

/** A request that must be refused with a 4xx and leave the store as it was. */
class Refused implements fc.Command<StoreModel, Real> {
  constructor(
    readonly label: string,
    readonly id: bigint,
    readonly request: AppRequest,
  ) {}
  check(): boolean {
    return true;
  }
  run(model: StoreModel, real: Real): void {
    model.seen.add(this.id);
    const answer = real.app.request(this.request);
    expect(answer.status, answer.body).toBeGreaterThanOrEqual(400);
    expect(answer.status, answer.body).toBeLessThan(500);
    expectSameStore(model, real);
  }
  toString(): string {
    return `${this.label} ${JSON.stringify(this.request)}`;
  }
}

const plantArb = fc.record({ name: textArb, tag: fc.option(textArb, { nil: undefined }) }).map(({ name, tag }): ModelPlant => (tag === undefined ? { name } : { name, tag }));
const validText = fc.tuple(idArb, spellingArb, plantArb).map(([id, spelling, plant]) => ({ id, text: newPlantText(spellInteger(id, spelling), plant, []) }));

const putArb = fc.tuple(idArb, spellingArb, plantArb, extrasArb).map(([id, spelling, plant, extras]) => new PutPlant(id, spelling, plant, extras));
const refusedArbs = [
  fc.tuple(validText, fc.constantFrom(undefined, '', 'Bearer', 'Bearer wrong', `Basic ${TEST_TOKEN}`, `Bearer ${TEST_TOKEN}!`, `Bearer ${TEST_TOKEN}x`)).map(
    ([{ id, text }, authorization]) => new Refused('bad credentials', id, post(text, { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) })),
  ),
  fc.tuple(validText, fc.constantFrom('text/plain', 'application/json-patch+json', '')).map(([{ id, text }, type]) => new Refused('bad media type', id, post(text, { ...DEFAULT_HEADERS, 'content-type': type }))),
  fc.tuple(outsideArb, spellingArb, plantArb).map(([id, spelling, plant]) => new Refused('id outside int64', id, post(newPlantText(spellInteger(id, spelling), plant, [])))),
  fc.tuple(idArb, plantArb).map(([id, plant]) => new Refused('id not an integer', id, post(newPlantText(`${id}.5`, plant, [])))),
  fc.tuple(idArb, textArb).map(([id, name]) => new Refused('tag null', id, post(`{"name":${JSON.stringify(name)},"id":${id},"tag":null}`))),
  idArb.map((id) => new Refused('no name', id, post(`{"id":${id}}`))),
  fc.tuple(validText, fc.nat()).map(([{ id, text }, cut]) => new Refused('truncated JSON', id, post(text.slice(0, cut % text.length)))),
  fc.tuple(validText, fc.constantFrom([0xc0, 0xaf], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80])).map(
    ([{ id, text }, bad]) => new Refused('invalid UTF-8', id, post(Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from(bad), Buffer.from('}')]))),
  ),
];
// Two puts for every refusal: the store must fill, overflow and be replaced into often.
const commandArbs = [putArb, putArb, fc.oneof(...refusedArbs)];

// The shared store (Redis) cannot run this: fast-check's model run is synchronous (app.request() and
// app.store read at once), and a Redis answer comes later. Its stateful behaviour is the same
// scenarios' (full-store, resource-patterns, shared-store tests).
describe.skip('the reference store against a model, on Redis: skipped, the model run is synchronous and the shared store answers later', () => {
  it('(see the in-memory run below)', () => undefined);
});

describe('the reference store against a model', () => {
  it('agrees with the model after every command, eviction included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.commands(commandArbs, { maxCommands: 40, size: '+1' }), (maxEntries, commands) => {
        fc.modelRun(() => ({ model: new StoreModel(maxEntries), real: { app: createApp({ tokens: [TEST_TOKEN], maxEntries }) } }), commands);
      }),
      fcParameters('store model', 150),
    );
  });

  it('every spelling of an id is that integer (the generator tests itself)', () => {
    for (const id of [...EDGES, -10n, 0n, 10n, 120n]) {
      for (const spelling of INTEGER_SPELLINGS) {
        const app = createApp({ tokens: [TEST_TOKEN] });
        expectAnswer(app.request(post(`{"name":"a","id":${spellInteger(id, spelling)}}`)), { status: 200, plant: { name: 'a', id: id.toString() } });
      }
    }
  });
});
