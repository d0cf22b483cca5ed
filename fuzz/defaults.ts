/**
 * A run's defaults that `plant-store conform --help` shows, as plain numbers in a file that imports
 * nothing: the command line reads them without loading the engine. The rooms that apply them
 * (generation/capacity.ts, run/options.ts) pass them on.
 */

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
