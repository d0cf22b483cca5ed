/**
 * The checking proxy of Plant Store Kit (`plant-store proxy`): forwards to a real implementation
 * and judges every exchange with the oracle's checks (proxy.ts); the summary per
 * check (summary.ts); the exchange each is told of, and its log line (exchange.ts).
 */
export * from './exchange.js';
export * from './proxy.js';
export * from './summary.js';
