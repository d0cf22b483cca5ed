/** The runtime-neutral SHA-256 the journal page's CSP is built with, against node:crypto's. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sha256Base64 } from '../../src/http/sha256.js';

const nodeDigest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

test('the digest of the empty text and of the lengths around a block boundary is node:crypto’s', () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) expect(sha256Base64('a'.repeat(length))).toBe(nodeDigest('a'.repeat(length)));
});

test('the digest of any text is node:crypto’s', () => {
  const seed = Date.now();
  console.log(`sha256 property seed: ${seed}`);
  fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => sha256Base64(text) === nodeDigest(text)), { seed });
});
