/** The kit's one masking policy (src/http/secrets.ts), as the journal, the proxy and the reports use it. */
import { describe, expect, it } from 'vitest';
import { blot, blotAll, MASK, maskRequestHeaders, maskTarget, replaceSecrets, secretPieces, type Hidden } from '../../src/http/index.js';

describe('the masks: each secret hidden where it stands, and remembered', () => {
  it('Authorization keeps its scheme; a lone word that is no scheme is hidden whole; cookies keep their names; a secret-named field is hidden', () => {
    const hidden: Hidden = [];
    const masked = maskRequestHeaders({ authorization: ['Bearer abc.def', 'sekret-token'], cookie: 'session=s1; theme=dark', 'x-api-key': 'k-123', accept: 'application/json' }, hidden);
    expect(masked).toEqual({ authorization: `Bearer ${MASK}, ${MASK}`, cookie: `session=${MASK}; theme=${MASK}`, 'x-api-key': MASK, accept: 'application/json' });
    expect(hidden).toEqual(expect.arrayContaining(['abc.def', 'sekret-token', 's1', 'dark', 'k-123']));
  });

  it('a target: secret-named query parameters masked, the rest kept; the value remembered as sent and decoded', () => {
    const hidden: Hidden = [];
    expect(maskTarget('/plants?limit=2&access_token=a%2Bb&x=1', hidden)).toBe(`/plants?limit=2&access_token=${MASK}&x=1`);
    expect(hidden).toEqual(['a%2Bb', 'a+b']);
    expect(maskTarget('/plants', hidden)).toBe('/plants');
  });
});

describe('blotting and placeholders', () => {
  it('blot: what was hidden, whole or by its first 20 characters, goes from a text that quotes it; short values stay', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz0123';
    expect(blot(`the ${long.slice(0, 20)} scheme; token ${long}; id 7`, [long, '7'])).toBe(`the ${MASK} scheme; token ${MASK}; id 7`);
    expect(blotAll({ findings: [{ message: `saw ${long}` }], n: 1 }, [long])).toEqual({ findings: [{ message: `saw ${MASK}` }], n: 1 });
  });

  it('replaceSecrets: the leftmost secret first, the longest where two start at one place', () => {
    const secrets = [
      { text: 'tok', placeholder: '<short>' },
      { text: 'token-42', placeholder: '<token>' },
    ];
    expect(replaceSecrets('a token-42 b tok', secrets)).toBe('a <token> b <short>');
    expect(secretPieces('xtok', secrets)).toEqual(['x', secrets[0]]);
  });
});
