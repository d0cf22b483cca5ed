/**
 * The conformance map: every requirement on a server of RFC 9110, RFC 9112, RFC 3986, RFC 8259
 * and RFC 6750 section 3, a row each (requirement.ts). One file per side of the exchange.
 */
import { ANSWER_REQUIREMENTS } from './answers.js';
import { CHALLENGE_REQUIREMENTS } from './challenges.js';
import { JSON_TEXT_REQUIREMENTS } from './json-texts.js';
import type { Requirement } from './requirement.js';
import { MESSAGE_REQUIREMENTS } from './messages.js';
import { TARGET_REQUIREMENTS } from './targets.js';
import { TIME_REQUIREMENTS } from './time.js';

export { isTested, type Judging, type Provocation, type Requirement, type Rfc, type TestedRequirement, type UntestableRequirement } from './requirement.js';

export const REQUIREMENTS: readonly Requirement[] = [...TARGET_REQUIREMENTS, ...MESSAGE_REQUIREMENTS, ...JSON_TEXT_REQUIREMENTS, ...CHALLENGE_REQUIREMENTS, ...ANSWER_REQUIREMENTS, ...TIME_REQUIREMENTS];
