/** The map's rows on what a server must do with what it reads: methods, targets, fields, framing, JSON texts, challenges. */
import type { Requirement } from './requirement.js';

export const REQUEST_REQUIREMENTS: readonly Requirement[] = [];
