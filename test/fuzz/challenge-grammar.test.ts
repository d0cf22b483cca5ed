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

  it('demands auth-params after Bearer (RFC 6750, section 3), not of other schemes', () => {
    expect(challengeProblem('Bearer realm="plant-store"', 'bearer')).toBeUndefined();
    expect(challengeProblem('Basic realm="x", Bearer error="invalid_token"', 'Bearer')).toBeUndefined();
    expect(challengeProblem('Bearer', 'bearer')).toMatch(/without auth-params/);
    expect(challengeProblem('Bearer abc', 'bearer')).toMatch(/without auth-params/);
    expect(challengeProblem('Basic realm="x"', 'bearer')).toMatch(/no bearer challenge/);
    expect(challengeProblem('Newauth', 'newauth')).toBeUndefined();
  });
});
