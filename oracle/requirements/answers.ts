/** The map's rows on what a server writes: every answer is read by the RFC 9112 and RFC 9110 grammars. */
import type { Requirement } from './requirement.js';

export const ANSWER_REQUIREMENTS: readonly Requirement[] = [];
