/**
 * The few types every part of the contract layer shares: a schema as the document holds it, and
 * what validating a value against one gives.
 */
import type { JsonValue } from './json.js';

export type Schema = Record<string, unknown>;

export interface ValidationIssue {
  /** The field, as a dotted path (`id`, `tags.0`), or `body` for the whole value. */
  readonly field: string;
  readonly message: string;
}

export interface Validation {
  readonly valid: boolean;
  readonly issues: readonly ValidationIssue[];
}

export type BodyValidator = (value: JsonValue) => Validation;

/** A feature of a contract the kit cannot honour exactly, and where it is (a JSON pointer into the document). */
export interface Unsupported {
  readonly feature: string;
  readonly pointer: string;
}

/** Told each unsupported feature found while a contract is compiled. */
export type RefuseFeature = (feature: string, pointer: string) => void;

export function asRecord(value: unknown): Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

export function decodePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function encodePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
