/** The map's rows on authentication (RFC 9110 section 11, RFC 6750 section 3): the 401, its challenge and its grammar. */
import type { Requirement } from './requirement.js';

export const CHALLENGE_REQUIREMENTS: readonly Requirement[] = [];
