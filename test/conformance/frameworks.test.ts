/**
 * Plant Stores written in the frameworks people use (test/frameworks/stores.ts): Express,
 * Fastify, Hono, Python's http.server and plain node:http, written as their teams write them.
 * The correct ones keep the contract under a default run, warning only by the checks each lists
 * (its framework's defaults the contract allows); each faulty one is caught by its check, and by
 * no check its defect does not touch. Each runs under one of the suite's seeds, rotated
 * (PLANT_STORE_CONFORM_MATRIX=full: all of them).
 *
 * The Python ones need python3 (every machine of the kit's kind has it): without one they are
 * skipped locally, and fail under CI=true.
 */
import { describe, expect, it } from 'vitest';
import { pythonVersion } from '../frameworks/python-store.js';
import { FAULTY_FRAMEWORK_STORES, FRAMEWORK_STORES, type Framework } from '../frameworks/stores.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

const fullMatrix = process.env.PLANT_STORE_CONFORM_MATRIX === 'full';
const python = pythonVersion();
const runs = (framework: Framework): boolean => framework !== 'Python http.server' || python !== undefined;

describe('the framework implementations', () => {
  it(`can run python3 (${python ?? 'none found'})`, () => {
    if (process.env.CI === 'true') expect(python, 'python3 --version').toMatch(/^Python 3\./);
  });

  it('cover every framework, each with a correct implementation and at least one faulty one', () => {
    const frameworks = new Set(FAULTY_FRAMEWORK_STORES.map((s) => s.framework));
    for (const framework of FRAMEWORK_STORES.map((s) => s.framework)) expect(frameworks.has(framework), framework).toBe(true);
    expect(new Set([...FRAMEWORK_STORES, ...FAULTY_FRAMEWORK_STORES].map((s) => s.name)).size).toBe(FRAMEWORK_STORES.length + FAULTY_FRAMEWORK_STORES.length);
  });
});

[...FRAMEWORK_STORES, ...FAULTY_FRAMEWORK_STORES].forEach((store, i) => {
  const rotated = SUITE_SEEDS[i % SUITE_SEEDS.length];
  const seeds = fullMatrix || rotated === undefined ? SUITE_SEEDS : [rotated];
  if (!runs(store.framework)) {
    describe.skip(`${store.name} (${store.framework}): no python3 on this machine`, () => undefined);
    return;
  }
  // At the engine's default timeout, as `plant-store conform` runs (Python's http.server drops a
  // connection from its backlog of 5 now and then, and the client sends it again a second later).
  const timeout = 'timeout' in store ? 'suite' : 'default';
  describeConformance({ ...store, name: `${store.name} (${store.framework})`, timeout }, seeds);
});
