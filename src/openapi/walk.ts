/** Walking a whole document: the fix-ups, the bundler's look for external `$ref`s and the unchecked features all need it. */
import { encodePointerSegment, type Schema } from './types.js';

/**
 * Keywords whose value is data (an instance or an example), never a part of the document: a
 * `$ref`, `format` or `nullable` key inside one is data too, and is left alone.
 */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['example', 'examples', 'x-example', 'x-examples', 'default', 'enum', 'const', 'value']);

/** Every object below `value` (itself included), depth first through arrays, with its JSON pointer; data values left out. */
export function eachObject(value: unknown, visit: (node: Schema, pointer: string) => void, pointer = ''): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      eachObject(item, visit, `${pointer}/${index}`);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  visit(value as Schema, pointer);
  for (const [key, child] of Object.entries(value)) if (!DATA_KEYWORDS.has(key)) eachObject(child, visit, `${pointer}/${encodePointerSegment(key)}`);
}
