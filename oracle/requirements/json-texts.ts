/** The map's rows on JSON texts (RFC 8259): what a server must read, what it may refuse, what it writes. */
import type { Requirement } from './requirement.js';

export const JSON_TEXT_REQUIREMENTS: readonly Requirement[] = [];
