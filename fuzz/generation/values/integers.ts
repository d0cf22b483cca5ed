/**
 * The integers of a schema: the bounds its format and keywords allow (OpenAPI 3.1 Format Registry:
 * int32, int64), the integers people recognise by name, and the edges of a range that break
 * servers (the bounds, the double's 2^53 cliff, the int32 bounds).
 */
import { INT64_MAX, INT64_MIN, type Schema } from '../../../src/openapi/index.js';

export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;
/** 2^53: above it, a double no longer holds every integer (IEEE 754 binary64 has a 53-bit significand). */
export const CLIFF = 2n ** 53n;
/** Where plain integers start: clear of 0, 1 and the other small ids a target may already hold. */
export const PLAIN_INTEGER_BASE = 1_000_000n;

/** Integer bounds a format implies (OpenAPI 3.1 Format Registry: int32, int64). */
export const FORMAT_BOUNDS: Readonly<Record<string, readonly [bigint, bigint]>> = { int32: [INT32_MIN, INT32_MAX], int64: [INT64_MIN, INT64_MAX] };

/** Integers people recognise by name: the bounds of the integer widths and the double's 2^53 cliff. */
export const NAMED_INTEGERS: readonly (readonly [bigint, string])[] = [
  [INT64_MAX, '2^63-1'],
  [INT64_MIN, '-2^63'],
  [INT64_MAX + 1n, '2^63'],
  [INT64_MIN - 1n, '-2^63-1'],
  [2n ** 64n - 1n, '2^64-1'],
  [2n ** 64n, '2^64'],
  [CLIFF - 1n, '2^53-1'],
  [CLIFF, '2^53'],
  [CLIFF + 1n, '2^53+1'],
  [1n - CLIFF, '-(2^53-1)'],
  [-CLIFF, '-2^53'],
  [-CLIFF - 1n, '-(2^53+1)'],
  [INT32_MAX, '2^31-1'],
  [INT32_MAX + 1n, '2^31'],
  [INT32_MIN, '-2^31'],
  [INT32_MIN - 1n, '-2^31-1'],
  [2n ** 32n, '2^32'],
  [10n ** 19n, '10^19'],
];

/** Names for the integers people recognise, so a finding says `2^63` and not only its digits. */
export function describeInteger(value: bigint): string {
  return NAMED_INTEGERS.find(([n]) => n === value)?.[1] ?? value.toString();
}

/**
 * The integer range a schema allows: its format's bounds narrowed by minimum/maximum. Where neither
 * bounds a side, int64's end stands in for it (what the generators draw from), and `below` or
 * `above` is false: a value past it is not invalid by the schema.
 */
export function integerBounds(schema: Schema): { min: bigint; max: bigint; bounded: boolean; below: boolean; above: boolean } {
  const format = typeof schema.format === 'string' ? FORMAT_BOUNDS[schema.format] : undefined;
  let min = format?.[0] ?? INT64_MIN;
  let max = format?.[1] ?? INT64_MAX;
  let below = format !== undefined;
  let above = format !== undefined;
  const whole = (n: unknown, round: (x: number) => number): bigint | undefined => (typeof n === 'number' && Number.isFinite(n) ? BigInt(round(n)) : undefined);
  const exclusiveMin = whole(schema.exclusiveMinimum, Math.floor);
  const exclusiveMax = whole(schema.exclusiveMaximum, Math.ceil);
  for (const lower of [whole(schema.minimum, Math.ceil), exclusiveMin === undefined ? undefined : exclusiveMin + 1n]) {
    if (lower !== undefined && (lower > min || !below)) [min, below] = [lower, true];
  }
  for (const upper of [whole(schema.maximum, Math.floor), exclusiveMax === undefined ? undefined : exclusiveMax - 1n]) {
    if (upper !== undefined && (upper < max || !above)) [max, above] = [upper, true];
  }
  return { min, max, bounded: below || above, below, above };
}

/** An edge of an integer range, named: `max`, `2^53+1`. */
export interface IntegerEdge {
  readonly name: string;
  readonly value: bigint;
}

/**
 * The edges of every integer width and of the double's 2^53 cliff that lie in [min, max], each
 * value once (under the first name it has): the bounds and their neighbours, 0 and ±1, the int32
 * and 2^32 bounds, the integers on either side of 2^53, 10^18.
 */
export function integerEdges(min: bigint, max: bigint): IntegerEdge[] {
  const candidates: [string, bigint][] = [
    ['zero', 0n],
    ['one', 1n],
    ['minus-one', -1n],
    ['min', min],
    ['min+1', min + 1n],
    ['max', max],
    ['max-1', max - 1n],
    ...([INT32_MAX, INT32_MAX + 1n, INT32_MIN, INT32_MIN - 1n, 2n ** 32n, CLIFF - 1n, CLIFF, CLIFF + 1n, 1n - CLIFF, -CLIFF, -CLIFF - 1n].map((n): [string, bigint] => [describeInteger(n), n])),
    ['2^53+2', CLIFF + 2n],
    ['10^18', 10n ** 18n],
    ['-10^18', -(10n ** 18n)],
    ['19-digits', 1234567890123456789n],
  ];
  const seen = new Set<bigint>();
  return candidates.flatMap(([name, value]) => {
    if (value < min || value > max || seen.has(value)) return [];
    seen.add(value);
    return [{ name, value }];
  });
}
