/**
 * Every variant of every generator is reached by the random phase, with a fair share: for each
 * request kind, a seeded sample of its random requests is counted against the tables the kind
 * declares (RequestKind.variants: its edge strings, integer edges and spellings, invalid values,
 * malformations, media types...). The tables come from the code and the contract, not from a list
 * here: a new entry is counted as soon as it is added. "Fair" means no entry is starved by a
 * skewed choice: each is drawn at least a quarter as often as the table's median entry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { KINDS, requestArbitrary } from '../../fuzz/generation/kinds/index.js';
import { kindContext } from '../../fuzz/generation/tables/context.js';
import type { VariantTable } from '../../fuzz/generation/variants.js';

const contract = loadContract();
const operation = contract.findOperation('POST', '/plants');
if (!operation) throw new Error('POST /plants is not in the contract');
const TOKEN = 'plant-token';
const SEED = 20240611;
/**
 * Requests sampled per kind. The rarest entries are nested several choices deep (an id replaced
 * by a value of another type: a third of the properties, an eighth of the families, one of seven
 * types); at this size a fair one is still drawn ten times or more.
 */
const SAMPLE = 6000;

const context = kindContext(contract, operation, { token: TOKEN });

function median(counts: readonly number[]): number {
  const sorted = [...counts].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const kinds = KINDS.filter((kind) => kind.variants !== undefined && kind.weight > 0);

describe('every variant of every generator is reached in a sample of the random phase', () => {
  it('every kind this branch owns declares its tables', () => {
    expect(kinds.map((k) => k.name)).toEqual(expect.arrayContaining(['valid', 'invalid-body', 'malformed-json', 'bad-media-type']));
  });

  for (const kind of kinds) {
    const tables: readonly VariantTable[] = kind.variants?.(context) ?? [];
    const numRuns = SAMPLE;

    describe(`${kind.name} (seed ${SEED}, ${numRuns} requests)`, () => {
      const counts = new Map<string, number>();
      for (const request of fc.sample(requestArbitrary(contract, { token: TOKEN, kinds: [kind.name] }), { seed: SEED, numRuns })) {
        for (const tag of new Set(request.tags ?? [])) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      }

      it('declares tables with entries', () => {
        expect(tables.length).toBeGreaterThan(0);
        for (const table of tables) expect(table.entries.length, table.name).toBeGreaterThan(0);
      });

      it.each(tables.map((t) => [t.name, t] as const))('%s: every entry reached, none starved', (_name, table) => {
        const seen = table.entries.map((entry) => [entry, counts.get(`${table.name}:${entry}`) ?? 0] as const);
        expect(seen.filter(([, n]) => n === 0).map(([entry]) => entry), 'never drawn').toEqual([]);
        const floor = median(seen.map(([, n]) => n)) / 4;
        expect(seen.filter(([, n]) => n < floor).map(([entry, n]) => `${entry}: ${n} (median ${floor * 4})`), 'starved').toEqual([]);
      });
    });
  }
});
