/**
 * The coverage phase's backtracking strings for one string schema: for each run of
 * BACKTRACKING_RUNS, a short run (for exponential patterns such as /^(\w+\s?)*$/) and a long one
 * (for polynomial patterns such as /\s+$/), each as long as the schema's length limits allow -
 * so a schema with `maxLength: 40` still gets the longest run that fits, in every run of the engine,
 * not only when the random phase happens to draw one (values/backtracking.ts).
 */
import { BACKTRACKING_LONG, BACKTRACKING_RUNS, BACKTRACKING_SHORT } from './backtracking.js';

export interface BacktrackingProbe {
  /** Stable: `short:a!`, `long:0x`. */
  readonly name: string;
  readonly value: string;
  /** The run's unit, how many times, and the character that ends it, for people. */
  readonly units: number;
}

/** Units of a run between `least` and `most` that fits `min`..`max` characters with its end, or undefined. */
function unitsThatFit(unit: string, least: number, most: number, min: number, max: number): number | undefined {
  const fitting = Math.min(most, Math.floor((max - 1) / unit.length));
  if (fitting < least || fitting * unit.length + 1 < min) return undefined;
  return fitting;
}

/** A short and a long run of each shape, the longest that fit `min`..`max` characters (`max` also the engine's own limit). */
export function backtrackingProbes(min: number, max: number): BacktrackingProbe[] {
  const probes: BacktrackingProbe[] = [];
  for (const [unit, end] of BACKTRACKING_RUNS) {
    const shape = JSON.stringify(unit + end).slice(1, -1);
    for (const [size, bounds] of [
      ['short', BACKTRACKING_SHORT],
      ['long', BACKTRACKING_LONG],
    ] as const) {
      const units = unitsThatFit(unit, bounds.min, bounds.max, min, max);
      if (units !== undefined) probes.push({ name: `${size}:${shape}`, value: unit.repeat(units) + end, units });
    }
  }
  return probes;
}
