/**
 * The contract layer's runtime-neutral face: all of index.ts but reading a file (load.ts), for
 * what runs in a browser too (msw/, and the rooms it imports).
 */
export * from './contract.js';
export * from './generated.js';
export * from './json.js';
export * from './refusal.js';
export * from './resources.js';
export { placeholderBody } from './placeholder.js';
export { successStatuses } from './success.js';
export { hiddenIn, withoutWriteOnly, type Direction } from './schema-views.js';
export * from './media-types/index.js';
export * from './parameter-styles/index.js';
export * from './security/index.js';
export { asRecord } from './types.js';
// The upgrade's fix-ups, without the upgrader itself: the MSW handlers bring it (msw/index.ts).
export { needsUpgrade, upgradeDocumentWith, writtenIn, type Upgrader } from './upgrade.js';
