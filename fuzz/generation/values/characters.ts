import fc from 'fast-check';

/**
 * Any Unicode scalar value (U+0000..U+10FFFF without the surrogates, which cannot stand alone in
 * UTF-8), small ones more often; astral characters half the time. fast-check's `binary` unit
 * does the same but takes half a second to build.
 */
export const anyCharacter: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((n) => String.fromCodePoint(n)),
);
