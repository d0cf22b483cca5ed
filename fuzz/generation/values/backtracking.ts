import fc from 'fast-check';

/**
 * Strings that make a backtracking regular expression take exponential or polynomial time
 * (ReDoS, CWE-1333): a run of one character class that nested or adjacent quantifiers can split in
 * many ways - word characters, digits, blanks, words with separators - ended by one character
 * that makes the match fail. Each pair is a run's unit and the character that ends it.
 */
export const BACKTRACKING_RUNS: readonly (readonly [unit: string, end: string])[] = [
  ['a', '!'],
  ['0', 'x'],
  [' ', 'x'],
  ['\t', 'x'],
  ['a ', '!'],
  ['a.', '!'],
  ['a-', '!'],
];
/**
 * Units in a short run, for exponential patterns such as /^(\w+\s?)*$/: 2^16 steps take
 * milliseconds, 2^30 take seconds; longer runs would hang a vulnerable target for hours and show
 * nothing more. Drawn evenly (not biased to the ends), since the slow window is the upper few.
 */
export const BACKTRACKING_SHORT = { min: 16, max: 30 } as const;
/** Units in a long run, for polynomial patterns such as /\s+$/ (quadratic: 10^8 steps at 10,000, 4·10^8 at 20,000). */
export const BACKTRACKING_LONG = { min: 10_000, max: 20_000 } as const;

/**
 * A backtracking-prone string of at most `maxLength` code points, or undefined when none fits.
 * Shrinking shortens the run, a long one into a short one too: a finding about time ends at the
 * shortest run that is still slow.
 */
export function backtrackingString(maxLength = Number.POSITIVE_INFINITY): fc.Arbitrary<string> | undefined {
  // Units, at most: 2-character units make runs twice as long in characters.
  const most = Math.floor((maxLength - 1) / 2);
  if (most < BACKTRACKING_SHORT.min) return undefined;
  const short = fc.noBias(fc.integer({ min: BACKTRACKING_SHORT.min, max: Math.min(BACKTRACKING_SHORT.max, most) }));
  const long = most >= BACKTRACKING_LONG.min ? fc.integer({ min: BACKTRACKING_LONG.min, max: Math.min(BACKTRACKING_LONG.max, most) }) : undefined;
  // The first choice spans both, seldom drawn: with cross-shrinking it lets any run shrink to any shorter length.
  // Short runs three times as often as long ones, and word characters (the most common victims:
  // names, e-mail addresses) half of the time.
  const count = fc.oneof(
    { withCrossShrink: true },
    { weight: 1, arbitrary: fc.integer({ min: BACKTRACKING_SHORT.min, max: Math.min(BACKTRACKING_LONG.max, most) }) },
    { weight: 6, arbitrary: short },
    ...(long === undefined ? [] : [{ weight: 2, arbitrary: long }]),
  );
  const [first, ...others] = BACKTRACKING_RUNS;
  if (first === undefined) return undefined;
  const pair = fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: fc.constant(first) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
  return fc.tuple(pair, count).map(([[unit, end], n]) => unit.repeat(n) + end);
}
