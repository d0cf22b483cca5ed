/**
 * A coverage table shared out over a contract's operations (issue 29: a run costs about the same
 * per operation, whatever their number). A table of the engine - the malformations of JSON, the
 * probes of a parameter, the spellings of bad credentials - has a budget per run; each operation
 * that sends it gets an equal share of it, and where the whole table fits in that share (the kit's
 * openapi.yaml, a contract of a few operations) the operation sends all of it, as before.
 *
 * Where it does not fit, the share is chosen so that nothing is lost from the run:
 * - the share is a window over the table that moves on by a share from one operation to the next:
 *   across the operations every entry is sent, where the budget covers the table once;
 * - each operation also gets one entry of every class of the table its window lacks (a
 *   malformation's family, a bad credential's kind, a probe's judgement and family; the entry
 *   rotating with its place): every check the table exercises is exercised on every operation.
 * The choice depends on the contract alone: the coverage phase stays the same for every seed.
 */
import type { Contract, OperationContract } from '../../../src/openapi/index.js';

/** Where an operation stands among those that send a table. */
export interface Place {
  readonly index: number;
  readonly count: number;
}

const places = new WeakMap<Contract, Map<string, Map<OperationContract, number>>>();

/**
 * The operation's place among the contract's operations that `sends` (named `table`, computed
 * once per contract and table); an operation it does not list stands first of one.
 */
export function placeOf(contract: Contract, operation: OperationContract, table: string, sends: (operation: OperationContract) => boolean): Place {
  let tables = places.get(contract);
  if (!tables) places.set(contract, (tables = new Map<string, Map<OperationContract, number>>()));
  let indexes = tables.get(table);
  if (!indexes) {
    indexes = new Map(contract.operations.filter(sends).map((o, i) => [o, i]));
    tables.set(table, indexes);
  }
  const index = indexes.get(operation);
  return index === undefined ? { index: 0, count: 1 } : { index, count: indexes.size };
}

/**
 * The entries of `table` an operation at `place` sends, in the table's order: all of them where
 * they fit in its share of `perRun`; else a window of a share that moves on by a share from one
 * operation to the next (together the windows cover the table), and one entry of each class the
 * window lacks (rotating with the place): at most a share and one of each class. Where the share
 * is smaller than the number of classes, one entry of each class, and no window.
 */
export function sharedEntries<T>(table: readonly T[], classOf: (entry: T) => string, place: Place, perRun: number): readonly T[] {
  const classes = new Map<string, number[]>();
  table.forEach((entry, i) => {
    const key = classOf(entry);
    const members = classes.get(key);
    if (members) members.push(i);
    else classes.set(key, [i]);
  });
  const share = Math.floor(perRun / Math.max(1, place.count));
  if (table.length <= Math.max(share, classes.size)) return table;
  const chosen = new Set<number>();
  // A share below the classes' number: one of each class, no window.
  const start = (place.index * share) % table.length;
  for (let step = 0; step < share && share > classes.size; step++) chosen.add((start + step) % table.length);
  for (const members of classes.values()) {
    if (!members.some((i) => chosen.has(i))) chosen.add(members[place.index % members.length] as number);
  }
  return table.filter((_entry, i) => chosen.has(i));
}
