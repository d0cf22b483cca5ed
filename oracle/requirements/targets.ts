/** The map's rows on methods and targets (RFC 9110 section 9, 15.5.6; RFC 9112 section 3.2; RFC 3986): every method, OPTIONS and `*`, HEAD, the target's spellings. */
import type { Requirement } from './requirement.js';

export const TARGET_REQUIREMENTS: readonly Requirement[] = [];
