/** Integers for a schema: its edges often, spelled in every way JSON allows (`1e2`, `100.0`), each drawn value tagged (variants.ts). */
import fc from 'fast-check';
import type { Schema } from '../../../src/openapi/index.js';
import { INTEGER_SPELLINGS, numberModel, spellInteger, type IntegerSpelling, type JsonModel } from '../json-text.js';
import { variantTag } from '../variants.js';
import { CLIFF, integerBounds, integerEdges } from './integers.js';

/** Plain most of the time; otherwise each other spelling as likely (`integer-spelling:<spelling>`). */
export const spellingArbitrary: fc.Arbitrary<IntegerSpelling> = fc.oneof({ withCrossShrink: true }, { weight: 5, arbitrary: fc.constant<IntegerSpelling>('plain') }, { weight: 2, arbitrary: fc.constantFrom(...INTEGER_SPELLINGS.slice(1)) });

/** `value` spelled, tagged with its spelling unless plain. */
export function spelled(value: bigint, spelling: IntegerSpelling): { text: string; tags: string[] } {
  return { text: spellInteger(value, spelling), tags: spelling === 'plain' ? [] : [variantTag('integer-spelling', spelling)] };
}

/** Integers in [min, max], with the edges of every integer width and of the double's 2^53 cliff often; an edge carries its tag (`integer-edge:max`). */
function taggedIntegerValue(min: bigint, max: bigint): fc.Arbitrary<{ value: bigint; tags: readonly string[] }> {
  const clamp = (lo: bigint, hi: bigint): [bigint, bigint] | undefined => (lo > max || hi < min ? undefined : [lo < min ? min : lo, hi > max ? max : hi]);
  const untagged = (value: bigint): { value: bigint; tags: readonly string[] } => ({ value, tags: [] });
  const choices: fc.WeightedArbitrary<{ value: bigint; tags: readonly string[] }>[] = [
    { weight: 4, arbitrary: fc.constantFrom(...integerEdges(min, max)).map((edge) => ({ value: edge.value, tags: [variantTag('integer-edge', edge.name)] })) },
    { weight: 3, arbitrary: fc.bigInt({ min, max }).map(untagged) },
  ];
  const small = clamp(-1000n, 1000n);
  if (small) choices.push({ weight: 3, arbitrary: fc.bigInt({ min: small[0], max: small[1] }).map(untagged) });
  for (const [lo, hi] of [
    [CLIFF - 64n, CLIFF + 64n],
    [-CLIFF - 64n, -CLIFF + 64n],
  ] as const) {
    const range = clamp(lo, hi);
    if (range) choices.push({ weight: 1, arbitrary: fc.bigInt({ min: range[0], max: range[1] }).map(untagged) });
  }
  return fc.oneof({ withCrossShrink: true }, ...choices);
}

/** Integers in [min, max], with the edges of every integer width and of the double's 2^53 cliff often. */
export function integerValue(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  return taggedIntegerValue(min, max).map((n) => n.value);
}

export function integerArbitrary(schema: Schema): fc.Arbitrary<JsonModel> {
  const { min, max } = integerBounds(schema);
  return fc.tuple(taggedIntegerValue(min, max), spellingArbitrary).map(([n, spelling]) => {
    const { text, tags } = spelled(n.value, spelling);
    return numberModel(text, [...n.tags, ...tags]);
  });
}
