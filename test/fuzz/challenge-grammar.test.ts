import { describe, expect, it } from 'vitest';
import { challengeProblem, parseChallenges } from '../../oracle/challenge-grammar.js';

const schemes = (header: string): string[] | string => {
  const parsed = parseChallenges(header);
  return 'error' in parsed ? parsed.error : parsed.challenges.map((c) => c.scheme);
};

describe('the WWW-Authenticate grammar (RFC 9110, section 11)', () => {
  it('reads lists of challenges, with token68s, auth-params, quoted-pairs and empty elements', () => {
    expect(schemes('Newauth realm="apps", type=1, title="Login to \\"apps\\", Basic", Basic realm="simple"')).toEqual(['Newauth', 'Basic']);
    expect(schemes('Basic dGVzdA==, Bearer')).toEqual(['Basic', 'Bearer']);
    expect(schemes('Basic realm="plant-store", Bearer realm="plant-store"')).toEqual(['Basic', 'Bearer']);
    expect(schemes(' , Bearer  realm = "x" ,, error=invalid_token,')).toEqual(['Bearer']);
    expect(parseChallenges('Bearer realm="a b", error="invalid_token"')).toEqual({ challenges: [{ scheme: 'Bearer', params: [['realm', 'a b'], ['error', 'invalid_token']] }] });
  });

  it('says where a field leaves the grammar', () => {
    expect(schemes('Bearer realm=plant store')).toMatch(/quoted-string/);
    expect(schemes('Bearer realm="plant-store')).toMatch(/never closed/);
    expect(schemes('Bearer realm="a", REALM="b"')).toMatch(/twice/);
    expect(schemes('realm="x"')).toMatch(/auth-scheme/);
    expect(schemes('Bearer realm="x" error="y"')).toMatch(/instead of a comma/);
    expect(schemes('Bearer realm=, error="y"')).toMatch(/auth-scheme error is followed by "="/);
  });

  it('warns about a bare Bearer (RFC 6750, section 3 asks for auth-params, a client loses nothing); fails a token68 after Bearer, a missing scheme, an empty element', () => {
    expect(challengeProblem('Bearer realm="plant-store"', 'bearer')).toBeUndefined();
    expect(challengeProblem('Basic realm="x", Bearer error="invalid_token"', 'Bearer')).toBeUndefined();
    expect(challengeProblem('Bearer', 'bearer')).toMatchObject({ severity: 'warning', message: expect.stringMatching(/bare Bearer challenge.*RFC 6750, section 3/) as unknown });
    expect(challengeProblem('Basic realm="x", Bearer', 'bearer')).toMatchObject({ severity: 'warning' });
    expect(challengeProblem('Bearer abc', 'bearer')).toMatchObject({ severity: 'failure', message: expect.stringMatching(/token68/) as unknown });
    expect(challengeProblem('Basic realm="x"', 'bearer')).toMatchObject({ severity: 'failure', message: expect.stringMatching(/no bearer challenge/) as unknown });
    expect(challengeProblem('Newauth', 'newauth')).toBeUndefined();
  });

  it.each([
    ['bad quoting', 'Bearer realm=plant store', /quoted-string/],
    ['an unclosed quoted-string', 'Bearer realm="plant-store', /never closed/],
    ['a duplicated parameter', 'Bearer realm="a", realm="b"', /twice/],
    ['an empty list element', 'Bearer realm="a",, error="invalid_token"', /empty list element/],
    ['a leading empty element', ', Bearer realm="a"', /empty list element/],
    ['a trailing comma', 'Bearer realm="a",', /empty list element/],
    ['parameters joined by a space', 'Bearer realm="a" error="invalid_token"', /instead of a comma/],
  ])('fails a malformed challenge, never a warning: %s', (_what, header, pattern) => {
    expect(challengeProblem(header, 'bearer')).toMatchObject({ severity: 'failure', message: expect.stringMatching(pattern) as unknown });
  });

  it('reads a comma inside a quoted-string as text, not an empty element', () => {
    expect(challengeProblem('Bearer realm="a,, b", error="invalid_token"', 'bearer')).toBeUndefined();
    expect(challengeProblem('Bearer realm="a\\\\", error="x"', 'bearer')).toBeUndefined();
  });
});
