/**
 * The faulty implementations of the example full store's other operations (test/faulty/operations.ts:
 * list, read, replace, delete, HEAD and 405) in the shared suite: default runs against that
 * contract, each caught by its check and breaking only the checks its defect touches; and the
 * correct-but-unusual ones (another list order, extra properties in reads, HEAD answered like GET)
 * keep it without a warning. Each runs under one of the suite's seeds, rotated (every seed with
 * PLANT_STORE_CONFORM_MATRIX=full).
 */
import { OPERATION_FAULTS, OPERATION_UNUSUAL, startOperationImplementation, type OperationImplementation } from '../faulty/operations.js';
import { FULL_STORE_FILE } from '../support/contracts.js';
import { describeConformance, SUITE_SEEDS, type Implementation, useEnginePool } from './common.js';

useEnginePool();

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';

function implementationOf(operation: OperationImplementation): Implementation {
  const start = (): ReturnType<typeof startOperationImplementation> => startOperationImplementation(operation);
  if (operation.caughtBy === undefined) return { name: `${operation.name} (the example full store)`, contract: FULL_STORE_FILE, start, quiet: true };
  return { name: `${operation.name} (the example full store): ${operation.defect ?? ''}`, contract: FULL_STORE_FILE, start, caughtBy: operation.caughtBy, touches: operation.touches ?? [] };
}

[...OPERATION_FAULTS, ...OPERATION_UNUSUAL].forEach((operation, i) => {
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  describeConformance(implementationOf(operation), fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated]);
});
