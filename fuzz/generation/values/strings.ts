/** Strings for a schema: its edge strings often, long and backtracking-prone ones in every run, in every string style (escapes, `\/`). */
import fc from 'fast-check';
import type { Schema } from '../../../src/openapi/index.js';
import { codePointsOf } from '../../../oracle/index.js';
import { STRING_STYLES, stringModel, type JsonModel, type StringStyle } from '../json-text.js';
import { variantTag } from '../variants.js';
import { BACKTRACKING_SHORT, backtrackingString } from './backtracking.js';
import { anyCharacter } from './characters.js';
import { EDGE_STRINGS, type EdgeString } from './edge-strings.js';
import { FORMAT_ARBITRARIES, plainOfFormat } from './formats.js';

/** Every string style but plain, each as likely: one string in seven is written in one of them. */
const styleArbitrary: fc.Arbitrary<StringStyle> = fc.oneof({ withCrossShrink: true }, { weight: 6, arbitrary: fc.constant<StringStyle>('plain') }, { weight: 1, arbitrary: fc.constantFrom(...STRING_STYLES.slice(1)) });

/** The context of an edge whose run ShorterRuns shortened: only a shorter run comes after it. */
const SHORTENED = Symbol('a shortened run');

/**
 * The edge strings, drawn as the arbitrary given draws them; a ReDoS probe (EdgeString.run) also
 * shrinks to shorter runs of its unit before the same end. A constant does not shrink, so a
 * finding about time on the 64-unit probe stayed at 65 characters where a run of 20 was slow
 * enough; now it ends at the shortest run that still shows it, as backtrackingString's do.
 */
class ShorterRuns extends fc.Arbitrary<EdgeString> {
  constructor(private readonly edges: fc.Arbitrary<EdgeString>) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<EdgeString> {
    return this.edges.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is EdgeString {
    return this.edges.canShrinkWithoutContext(value);
  }

  shrink(edge: EdgeString, context: unknown): fc.Stream<fc.Value<EdgeString>> {
    const own = context === SHORTENED ? fc.Stream.nil<fc.Value<EdgeString>>() : this.edges.shrink(edge, context);
    const run = edge.run;
    if (run === undefined || run.count <= 1) return own;
    const shorter = fc
      .integer({ min: 1, max: run.count })
      .shrink(run.count, undefined)
      .map(({ value: count }) => new fc.Value<EdgeString>({ ...edge, value: `${run.unit.repeat(count)}${run.end}`, run: { ...run, count } }, SHORTENED));
    return own.join(shorter);
  }
}

/** Long strings (10k+ code points) are built by repeating a short piece: cheap to make, quick to shrink. */
function longString(minLength: number): fc.Arbitrary<string> {
  return fc.tuple(fc.string({ unit: anyCharacter, minLength: 1, maxLength: 6 }), fc.integer({ min: minLength, max: minLength + 500 })).map(([piece, length]) => piece.repeat(Math.ceil(length / codePointsOf(piece).length)));
}

/** At least this many code points counts as long; an edge of its own (storage columns, log lines, buffers). */
export const LONG_STRING = 10_000;

/** The length limits of a string schema, in code points (JSON Schema 2020-12 counts characters, not UTF-16 units). */
export function lengthBounds(schema: Schema): { min: number; max: number | undefined } {
  return { min: typeof schema.minLength === 'number' ? schema.minLength : 0, max: typeof schema.maxLength === 'number' ? schema.maxLength : undefined };
}

/** The edge strings a string schema allows by length (its pattern, if any, is left to the validator). */
export function fittingEdges(schema: Schema): EdgeString[] {
  const { min, max } = lengthBounds(schema);
  return EDGE_STRINGS.filter((edge) => {
    const n = codePointsOf(edge.value).length;
    return n >= min && (max === undefined || n <= max);
  });
}

export function stringArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const { min, max } = lengthBounds(schema);
  const fits = (s: string): boolean => {
    if (min === 0 && max === undefined) return true;
    const n = codePointsOf(s).length;
    return n >= min && (max === undefined || n <= max);
  };
  const format = typeof schema.format === 'string' ? FORMAT_ARBITRARIES[schema.format] : undefined;
  // A format's values, in every JSON string style (a \u escape is the same string); a pattern beside it is ajv's to judge.
  // Bounds its plain value breaks (a uuid of at most 10 characters) would make the filter spin: no value can be valid then.
  if (format !== undefined && typeof schema.format === 'string' && fits(plainOfFormat(schema.format, 0) ?? '')) return fc.tuple(format.filter(fits), styleArbitrary).map(([s, style]) => stringModel(s, style));
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits).map((s) => stringModel(s));
  }
  const untagged = (s: string): { value: string; tags: readonly string[] } => ({ value: s, tags: [] });
  const edges = fittingEdges(schema);
  const short = fc.oneof(
    { withCrossShrink: true },
    ...(edges.length === 0 ? [] : [{ weight: 3, arbitrary: new ShorterRuns(fc.constantFrom(...edges)).map((edge) => ({ value: edge.value, tags: [variantTag('string-edge', edge.name)] })) }]),
    { weight: 3, arbitrary: fc.string({ maxLength: 24 }).map(untagged) },
    { weight: 2, arbitrary: fc.string({ unit: anyCharacter, maxLength: 24 }).map(untagged) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(untagged) },
  );
  const choices: fc.WeightedArbitrary<JsonModel>[] = [{ weight: 29, arbitrary: fc.tuple(short.filter((s) => fits(s.value)), styleArbitrary).map(([s, style]) => stringModel(s.value, style, s.tags)) }];
  // Long strings go out as raw UTF-8: at most 4 bytes a character keeps a body under 100 kB, a
  // size limit common among frameworks (Express's default) that the contract does not forbid.
  if (max === undefined || max >= LONG_STRING) choices.push({ weight: 1, arbitrary: longString(Math.max(LONG_STRING, min)).filter(fits).map((s) => stringModel(s)) });
  // A few in every run, so that a target whose time blows up on them is found and the run shrunk (oracle/checks/response-time.ts).
  const backtracking = min <= BACKTRACKING_SHORT.min ? backtrackingString(max) : undefined;
  if (backtracking) choices.push({ weight: 2, arbitrary: backtracking.filter(fits).map((s) => stringModel(s)) });
  return fc.oneof({ withCrossShrink: true }, ...choices);
}
