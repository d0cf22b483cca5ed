/**
 * One row of the conformance map (issue 30): a requirement that HTTP (RFC 9110, RFC 9112), URIs
 * (RFC 3986), JSON (RFC 8259) or bearer authentication (RFC 6750) places on a server or on its
 * answers; how the engine provokes it; how the oracle reads the answer; and the faulty
 * implementation under test/faulty that proves the check. The rows are data, written with the
 * builder of rows.ts: docs/http-map.md is generated from them, and test/requirements/map.test.ts
 * holds each row to its check, its requests and its proof.
 */
import type { CheckName } from '../registry.js';
import type { Severity } from '../types.js';

/** The RFCs the map covers, in the order of its pages (markdown.ts). */
export const RFCS = ['RFC 9110', 'RFC 9112', 'RFC 3986', 'RFC 8259', 'RFC 6750'] as const;
export type Rfc = (typeof RFCS)[number];

/** How the engine provokes the requirement. */
export interface Provocation {
  /** The request, or the family of requests, for people. */
  readonly how: string;
  /**
   * The tags the engine's requests for it carry (RequestCase.tags; a tag ending in `:` matches
   * every tag it begins). Empty where every answer is read for it (a rule on what a sender writes).
   */
  readonly tags: readonly string[];
}

/** How the answer is judged. */
export interface Judging {
  readonly check: CheckName;
  /** What the check reads, and what it demands. */
  readonly how: string;
  /** `warning` for a breach that costs a client nothing and that common frameworks make: `why` says so, and `--strict` fails it. */
  readonly severity: Severity;
  readonly why?: string;
}

interface RequirementBase {
  /** Stable and unique: `<rfc number>-<section>-<short name>`, e.g. `9112-5.1-no-space-before-colon` (rows.ts reads `rfc` and `section` from it). */
  readonly id: string;
  readonly rfc: Rfc;
  readonly section: string;
  /** The requirement, in the RFC's words where they are short (MUST, MUST NOT, SHOULD as it says). */
  readonly says: string;
}

/** A requirement the engine tests: provoked, judged, and proven on faulty implementations. */
export interface TestedRequirement extends RequirementBase {
  readonly provoke: Provocation;
  readonly judge: Judging;
  /** Names of faulty implementations under test/faulty that break this requirement and are caught by `judge.check`. */
  readonly faults: readonly string[];
}

/** A requirement no request from outside can observe, and why (e.g. what a server does with a cache it keeps). */
export interface UntestableRequirement extends RequirementBase {
  readonly untestable: string;
}

export type Requirement = TestedRequirement | UntestableRequirement;

export function isTested(requirement: Requirement): requirement is TestedRequirement {
  return 'judge' in requirement;
}
