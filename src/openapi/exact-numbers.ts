/**
 * Integers beyond 2^53 in a contract file, kept exact. YAML (and JSON.parse) read every number as
 * a double, so `9007199254740993` in an example would be answered as `9007199254740992`. The
 * contract's reader gives such integers as bigints (`EXACT_INTEGERS`, a YAML tag), and
 * `settleNumbers` then puts each where it belongs: a keyword ajv reads as a number (`maximum`,
 * `minLength`, ...) gets the double, as ajv compares with doubles anyway; `enum` and `const` get
 * the projection ajv sees for the same value in a body (json.ts, `projectNumber`); everything else
 * (examples, defaults, `x-` extensions) a LosslessNumber, written back digit for digit.
 */
import type { CollectionTag, ScalarTag } from 'yaml';
import { LosslessNumber, projectNumber } from './json.js';

/** JSON Schema keywords whose value is a number to ajv. */
const NUMERIC_KEYWORDS = new Set(['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties', 'maxContains', 'minContains']);
/** Keywords whose value ajv compares with a body's projected view. */
const COMPARED_KEYWORDS = new Set(['enum', 'const']);

/**
 * YAML 1.2's decimal integer (core schema) read as a number where a double holds it exactly, else
 * as a bigint. Given to the parser through `customTags`, in place of the core schema's own.
 */
export function exactIntegers<T extends ScalarTag | CollectionTag | string>(tags: T[]): (T | ScalarTag)[] {
  return tags.map((tag) =>
    typeof tag === 'object' && tag.tag === 'tag:yaml.org,2002:int' && !('format' in tag)
      ? {
          ...tag,
          resolve: (text: string) => {
            const double = Number(text);
            return Number.isSafeInteger(double) ? double : BigInt(text);
          },
        }
      : tag,
  );
}

type Mode = 'data' | 'compared';

/** Replaces, in place, each bigint of a parsed document by what its place needs (see above); gives the document back. */
export function settleNumbers<T>(document: T): T {
  settle(document, 'data', 0);
  return document;
}

function settle(value: unknown, mode: Mode, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > 512) return;
  const node = value as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    const child = node[key];
    const inner: Mode = mode === 'compared' || (!Array.isArray(node) && COMPARED_KEYWORDS.has(key)) ? 'compared' : 'data';
    if (typeof child === 'bigint') node[key] = settled(child, inner, !Array.isArray(node) && NUMERIC_KEYWORDS.has(key));
    else settle(child, inner, depth + 1);
  }
}

function settled(integer: bigint, mode: Mode, numeric: boolean): number | LosslessNumber {
  if (numeric) return Number(integer);
  return mode === 'compared' ? projectNumber(integer.toString()) : new LosslessNumber(integer.toString());
}
