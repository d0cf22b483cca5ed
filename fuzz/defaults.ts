/**
 * The light face of fuzz/: a run's defaults that `plant-store conform --help` shows, as plain
 * numbers, and the error a run throws before it sends anything: the command line reads them
 * without loading the engine (fuzz/index.ts reaches fast-check). The rooms that apply them
 * (generation/capacity.ts, run/options.ts, wire/http-client.ts) pass them on.
 */
export { TargetUnreachableError } from './run/reachable.js';
export { NothingToTestError } from './run/nothing-to-test.js';

/** Plants the capacity phase stores by default. */
export const DEFAULT_CAPACITY = 5000;

/**
 * Requests in a default run's random phase. A fault that shows on one request in 40 is missed by
 * 1000 independent requests with probability (39/40)^1000 ≈ 1e-11; one that shows on one *valid*
 * request in 40 (400 of them) with probability ≈ 4e-5.
 */
export const DEFAULT_RUNS = 1000;

/** Requests in flight at most. */
export const DEFAULT_CONCURRENCY = 8;

/** How long the engine's client waits for each answer (`--timeout`); `plant-store verify` waits DEFAULT_VERIFY_TIMEOUT_MS. */
export const DEFAULT_CONFORM_TIMEOUT_MS = 5_000;
