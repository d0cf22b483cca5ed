import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import { probesOf } from '../../fuzz/generation/schema-probes.js';
import { BACKTRACKING_LONG, BACKTRACKING_RUNS, BACKTRACKING_SHORT } from '../../fuzz/generation/values/backtracking.js';
import { backtrackingProbes } from '../../fuzz/generation/values/backtracking-probes.js';

/** Steps a backtracking matcher of /^(\w+\s?)*$/ takes on a word run ended by a symbol: it tries every split of the run. */
function splitsOf(units: number): number {
  return 2 ** (units - 1);
}

describe('backtracking probes of a string schema', () => {
  it('give each run shape a short and a long run when the schema has no limit', () => {
    const probes = backtrackingProbes(1, 90_000);
    expect(probes).toHaveLength(BACKTRACKING_RUNS.length * 2);
    for (const probe of probes) {
      const bounds = probe.name.startsWith('short:') ? BACKTRACKING_SHORT : BACKTRACKING_LONG;
      expect(probe.units).toBe(bounds.max);
    }
  });

  it('fit a maxLength: the longest short run that fits, still slow for an exponential pattern', () => {
    const probes = backtrackingProbes(1, 40);
    expect(probes.map((p) => p.name)).toContain('short:a!');
    for (const probe of probes) expect(probe.value.length).toBeLessThanOrEqual(40);
    const words = probes.find((p) => p.name === 'short:a!');
    expect(words?.units).toBe(30);
    expect(splitsOf(words?.units ?? 0)).toBeGreaterThan(2 ** 28);
  });

  it('leave out what cannot fit, and respect a minLength', () => {
    expect(backtrackingProbes(1, 16)).toEqual([]);
    for (const probe of backtrackingProbes(25, 33)) expect(probe.value.length).toBeGreaterThanOrEqual(25);
    expect(backtrackingProbes(40, 33)).toEqual([]);
  });

  it('are among the coverage probes of every string property of the contract', () => {
    const contract = loadContract();
    const schema = contract.operations.find((o) => o.requestBody !== undefined)?.requestBody?.schema ?? {};
    const names = probesOf(contract, schema).map((p) => p.name);
    const strings = [...new Set(names.filter((n) => n.includes('/string-edge:')).map((n) => n.split('/')[0]))];
    expect(strings.length).toBeGreaterThan(0);
    for (const property of strings) expect(names).toContain(`${property}/backtracking:short:a!`);
  });
});
