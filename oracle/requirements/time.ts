/** The map's rows on time: a cost that grows with what the server holds. */
import type { Requirement } from './requirement.js';

export const TIME_REQUIREMENTS: readonly Requirement[] = [];
