/**
 * The reference's token policy (`acceptTokens`): exactly the configured tokens are accepted,
 * whatever else is presented - prefixes, extensions, the same bytes padded with zero bytes,
 * tokens longer than every accepted one, non-ASCII text - with several tokens of different
 * lengths configured at once.
 *
 * The property prints its seed and the command that replays it (test/support/seed.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptTokens } from '../../src/http/index.js';
import { fcParameters } from '../support/seed.js';

describe('acceptTokens', () => {
  const tokens = ['a', 'test-token', 'x'.repeat(300), 'Zm9vYmFy=='];
  const accept = acceptTokens(tokens);

  it('accepts each configured token', () => {
    for (const token of tokens) expect(accept(token), token).toBe(true);
  });

  it('refuses near misses of every configured token', () => {
    for (const token of tokens) {
      const misses = [token.slice(0, -1), `${token}a`, `${token}\u0000`, `\u0000${token}`, token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(), `${token}${'x'.repeat(400)}`, ''];
      for (const miss of misses) if (!tokens.includes(miss)) expect(accept(miss), JSON.stringify(miss.slice(0, 40))).toBe(false);
    }
  });

  it('accepts a presented token exactly when it is one of the configured ones (property)', () => {
    const configured = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(configured, fc.string({ maxLength: 60, unit: 'binary' }), fc.nat(), (list, other, pick) => {
        const policy = acceptTokens(list);
        const chosen = list[pick % list.length] ?? '';
        expect(policy(chosen)).toBe(true);
        // A second call after a different token: the presented record is written anew each time.
        expect(policy(other)).toBe(list.includes(other));
        expect(policy(`${chosen}${other}`)).toBe(list.includes(`${chosen}${other}`));
      }),
      fcParameters('tokens', 300),
    );
  });
});
