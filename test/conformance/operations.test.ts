/**
 * The faulty implementations of the example full store's other operations (test/faulty/operations.ts:
 * list, read, replace, delete, HEAD and 405) in the shared suite: default runs against that
 * contract, each caught by its check and breaking only the checks its defect touches; and the
 * correct-but-unusual ones (another list order, extra properties in reads, HEAD answered like GET)
 * keep it, warning only that their small store forgot the plants the capacity phase reads back. Each runs under one of the suite's seeds, rotated (every seed with
 * PLANT_STORE_CONFORM_MATRIX=full).
 */
import { OPERATION_FAULTS, OPERATION_UNUSUAL, startOperationImplementation, type OperationImplementation } from '../faulty/operations.js';
import { FULL_STORE_FILE } from '../support/contracts.js';
import { describeConformance, SUITE_SEEDS, type Implementation, useEnginePool } from './common.js';

useEnginePool();

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

/**
 * At the engine's own timeout: a list of the store's plants runs to a few hundred kilobytes, which
 * the implementations that rewrite it parse and write again, on a thread that answers for all of
 * them; on a loaded machine that took longer than the suite's short timeout now and then.
 */
function implementationOf(operation: OperationImplementation): Implementation {
  const common = { contract: FULL_STORE_FILE, start: () => startOperationImplementation(operation), timeout: 'default' } as const;
  // The store keeps 50 plants (test/faulty/operations.ts): those the capacity phase reads back are forgotten by then.
  const forgets = { 'resource-available': 'a store of 50 plants has forgotten the plants the capacity phase reads back (a bounded store may: decision 2)' };
  if (operation.caughtBy === undefined) return { ...common, name: `${operation.name} (the example full store)`, warns: forgets };
  return { ...common, name: `${operation.name} (the example full store): ${operation.defect ?? ''}`, caughtBy: operation.caughtBy, touches: operation.touches ?? [] };
}

[...OPERATION_FAULTS, ...OPERATION_UNUSUAL].forEach((operation, i) => {
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance(implementationOf(operation), fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
