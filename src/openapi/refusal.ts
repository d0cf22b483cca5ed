/**
 * How the kit names what it found in a contract, refused or only noted: each feature once, with
 * how many places use it and the first few of them (JSON pointers, RFC 6901). A public contract
 * uses one media type or one scheme in dozens of places; naming every place repeats one reason
 * for pages, while the count and three pointers are enough to find them all.
 */
import type { Unsupported } from './types.js';

/** Places named per feature; the rest are counted. */
export const POINTERS_SHOWN = 3;

/** One feature and every place it is found, in the order they were found. */
export interface FeatureGroup {
  readonly feature: string;
  readonly pointers: readonly string[];
}

/** The features in the order each was first found, each with its pointers (duplicates dropped). */
export function groupByFeature(found: readonly Unsupported[]): FeatureGroup[] {
  const groups = new Map<string, string[]>();
  for (const { feature, pointer } of found) {
    const pointers = groups.get(feature) ?? [];
    if (!pointers.includes(pointer)) pointers.push(pointer);
    groups.set(feature, pointers);
  }
  return [...groups].map(([feature, pointers]) => ({ feature, pointers }));
}

function describePointer(pointer: string): string {
  return pointer === '' ? 'the root' : pointer;
}

/** `/a` for one place (`the root` for the document itself), `5 places: /a, /b, /c and 2 more` for several. */
export function describePlaces(pointers: readonly string[]): string {
  const [only] = pointers;
  if (only !== undefined && pointers.length === 1) return describePointer(only);
  const shown = pointers.slice(0, POINTERS_SHOWN).map(describePointer).join(', ');
  const more = pointers.length - POINTERS_SHOWN;
  return `${pointers.length} places: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

/** One line per feature, `indent- feature at places`. */
export function formatFeatures(found: readonly Unsupported[], indent = '  '): string {
  return groupByFeature(found)
    .map(({ feature, pointers }) => `${indent}- ${feature} at ${describePlaces(pointers)}`)
    .join('\n');
}
