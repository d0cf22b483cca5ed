/**
 * Parameters are text (oracle/parameter-spellings.ts): a valid parameter value is
 * sent in its canonical spelling, every other spelling of a valid value (`1.0`, `1e2`, `+1`, `007`,
 * `-0`) is an open probe - a 2xx and a declared 4xx both keep the contract, a 5xx does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { canonicalNumeral, canonicalSpelling, classifyRequest, judgeExchange } from '../../oracle/index.js';
import type { HttpOutcome, RequestCase } from '../../oracle/types.js';
import { fullStore } from '../support/contracts.js';
import { TEST_TOKEN } from '../support/servers.js';

const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;

describe('the canonical spelling of a parameter value', () => {
  it.each([
    ['1.0', '1'],
    ['1e2', '100'],
    ['1E+2', '100'],
    ['+1', '1'],
    ['007', '7'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['-9223372036854775808.0', '-9223372036854775808'],
    ['9.223372036854775807e18', '9223372036854775807'],
    ['1000e-1', '100'],
    ['1.50', '1.5'],
    ['1e-2', '0.01'],
    ['-12.5e-3', '-0.0125'],
    ['42', '42'],
  ])('%s spells %s', (text, canonical) => {
    expect(canonicalNumeral(text)).toBe(canonical);
  });

  it('spells nothing for text that is no numeral; keeps a string as it is; reads booleans in any case', () => {
    for (const text of ['', '1.', '.5', '0x10', '1e', 'NaN', 'Infinity', '1 ', '1e401']) expect(canonicalNumeral(text), text).toBeUndefined();
    expect(canonicalSpelling('string', '1.0')).toBe('1.0');
    expect(canonicalSpelling('boolean', 'TRUE')).toBe('true');
    expect(canonicalSpelling('boolean', 'yes')).toBeUndefined();
  });

  it('is a fixed point, and keeps the value (property, seed printed)', () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`parameter spellings: seed ${seed}`);
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.nat(6), fc.nat(4), (value, zeros, shift) => {
        const text = `${value < 0n ? '-' : '+'}${'0'.repeat(zeros)}${(value < 0n ? -value : value).toString()}${'0'.repeat(shift)}e-${shift}`;
        expect(canonicalNumeral(text)).toBe(value.toString());
        expect(canonicalNumeral(value.toString())).toBe(value.toString());
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe('the coverage phase against an int64 path parameter (the example full store)', () => {
  const contract = fullStore();
  const cases = coverageCases(contract, { token: TEST_TOKEN });
  const itemId = (c: RequestCase): string => decodeURIComponent(/\/plants\/([^/?]+)/.exec(c.path)?.[1] ?? '');
  const items = cases.filter((c) => /\/plants\/[^/?]+/.test(c.path));

  it('calls valid only the canonical spelling: decimal digits and an optional minus', () => {
    const valid = items.filter((c) => c.content === 'valid' && c.credentials === 'valid' && c.open === undefined && c.kind === 'valid-parameters');
    expect(valid.length).toBeGreaterThan(0);
    for (const c of valid) expect(itemId(c), c.variant).toMatch(CANONICAL_INTEGER);
  });

  it('sends other spellings of valid values as open probes: -2^63 as -9223372036854775808.0, +N, a leading zero', () => {
    const open = items.filter((c) => c.open !== undefined && c.kind === 'valid-parameters');
    const ids = open.map(itemId);
    expect(ids).toContain('-9223372036854775808.0');
    expect(ids.some((id) => id.startsWith('+'))).toBe(true);
    expect(ids.some((id) => /^-?0\d/.test(id))).toBe(true);
    for (const c of open) expect(c.open?.reason).toMatch(/RFC 3986.*OpenAPI/);
    // An integer's other spelling outside int64 stays invalid: a 2xx to it is wrong.
    expect(items.some((c) => c.kind === 'invalid-parameter' && itemId(c) === '9223372036854775808.0')).toBe(true);
  });

  it('judges an open probe leniently: a 2xx or a declared 4xx passes, a 5xx fails', () => {
    const probe = items.find((c) => c.open !== undefined && c.kind === 'valid-parameters' && c.method === 'GET');
    if (probe === undefined) throw new Error('no open probe of the read');
    const answer = (status: number, body: string): HttpOutcome => ({ kind: 'response', status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), durationMs: 1 });
    const refused = answer(400, '{"error":400,"message":"path parameter id: not an integer"}');
    expect(judgeExchange('accepts-valid', probe, refused, contract)).toEqual([]);
    expect(judgeExchange('accepts-valid', probe, answer(404, '{"error":404,"message":"no plant"}'), contract)).toEqual([]);
    expect(judgeExchange('accepts-valid', probe, answer(422, '{"error":422,"message":"no"}'), contract)).toMatchObject([{ severity: 'failure' }]);
    expect(judgeExchange('no-server-error', probe, answer(500, '{"error":500,"message":"boom"}'), contract)).toMatchObject([{ severity: 'failure' }]);
  });

  it('is classified open by an observer (the proxy), as the engine sends it', () => {
    const read = (id: string) => classifyRequest(contract, { method: 'GET', path: `/plants/${id}`, headers: { authorization: `Bearer ${TEST_TOKEN}` }, body: Buffer.alloc(0) }, { tokens: [TEST_TOKEN] }).content;
    expect(read('5')).toBe('valid');
    for (const id of ['5.0', '5e0', '%2B5', '005', '-0']) expect(read(id), id).toBe('open');
    for (const id of ['abc', '5.5', '9223372036854775808.0']) expect(read(id), id).toBe('invalid');
  });
});
