/** The mock's runtime-neutral face: its guard on what it answers (keep-contract.ts), which msw/'s examples mode runs in a browser too. */
export * from './keep-contract.js';
