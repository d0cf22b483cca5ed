/**
 * The parameter styles (src/openapi/parameter-styles/): the rows of OpenAPI 3.1's "Style Examples"
 * table (section 4.8.12.5) for the styles the kit serves, with `color` = "blue" and
 * ["blue", "black", "brown"]; items written and read back unchanged; and the registry, which knows
 * where each style may be used.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STYLE, formStyle, isStyleProblem, loadContract, PARAMETER_STYLES, parameterStyle, simpleStyle, type ParameterLocation, type ParameterStyle, type RequestParameters, type Serialised, type StyledParameter } from '../../src/openapi/index.js';
import { fcParameters } from '../support/seed.js';

const parameter = (location: ParameterLocation, explode: boolean, array: boolean): StyledParameter => ({ name: 'color', in: location, explode, array });

/** A serialised parameter as the request's text: a path segment, a header field, or the query string (pairs as the table writes them, unencoded). */
function written(serialised: Serialised): string {
  return 'text' in serialised ? serialised.text : serialised.pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** What a request carrying `serialised` for the parameter gives a style to read. */
function requestWith(styled: StyledParameter, serialised: Serialised): RequestParameters {
  if ('pairs' in serialised) return { path: {}, headers: {}, query: new URLSearchParams(serialised.pairs.map(([name, value]): [string, string] => [name, value])).toString() };
  if (styled.in === 'path') return { path: { [styled.name]: serialised.text }, headers: {}, query: '' };
  return { path: {}, headers: { [styled.name.toLowerCase()]: serialised.text }, query: '' };
}

function read(style: ParameterStyle, styled: StyledParameter, request: RequestParameters): readonly string[] | string {
  const parsed = style.parse(styled, { request, query: new URLSearchParams(request.query) });
  return isStyleProblem(parsed) ? parsed.styleProblem : parsed;
}

const SCALAR = ['blue'];
const ARRAY = ['blue', 'black', 'brown'];

describe('the Style Examples table of OpenAPI 3.1 (section 4.8.12.5), row by row', () => {
  it.each<[ParameterStyle, ParameterLocation, boolean, readonly string[], string]>([
    [simpleStyle, 'path', false, SCALAR, 'blue'],
    [simpleStyle, 'path', false, ARRAY, 'blue,black,brown'],
    [simpleStyle, 'path', true, SCALAR, 'blue'],
    [simpleStyle, 'path', true, ARRAY, 'blue,black,brown'],
    [simpleStyle, 'header', false, ARRAY, 'blue,black,brown'],
    [formStyle, 'query', false, SCALAR, 'color=blue'],
    [formStyle, 'query', false, ARRAY, 'color=blue,black,brown'],
    [formStyle, 'query', true, SCALAR, 'color=blue'],
    [formStyle, 'query', true, ARRAY, 'color=blue&color=black&color=brown'],
  ])('%#: %s in %s, explode %s: %j is written %s and read back', (style, location, explode, items, text) => {
    const styled = parameter(location, explode, items.length > 1);
    const serialised = style.serialise(styled, items);
    expect(written(serialised)).toBe(text);
    expect(read(style, styled, requestWith(styled, serialised))).toEqual(items);
  });
});

describe('round trips', () => {
  const cases = fc.record({ items: fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 }), explode: fc.boolean() });

  it('simple in the path: any items, commas and percent signs too, come back as they were written', () => {
    fc.assert(
      fc.property(cases, ({ items, explode }) => {
        const styled = parameter('path', explode, true);
        expect(read(simpleStyle, styled, requestWith(styled, simpleStyle.serialise(styled, items)))).toEqual(items);
      }),
      fcParameters('simple path round trip', 200),
    );
  });

  it('form in the query, exploded: any items come back; not exploded: any items without a comma', () => {
    fc.assert(
      fc.property(cases, ({ items, explode }) => {
        fc.pre(explode || !items.some((item) => item.includes(',')));
        const styled = parameter('query', explode, true);
        expect(read(formStyle, styled, requestWith(styled, formStyle.serialise(styled, items)))).toEqual(items);
      }),
      fcParameters('form query round trip', 200),
    );
  });

  it('simple in a header: items without a comma or surrounding blanks come back', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[!-+\--~](?:[ !-+\--~]*[!-+\--~])?$/), { minLength: 1, maxLength: 5 }), (items) => {
        const styled = parameter('header', false, true);
        expect(read(simpleStyle, styled, requestWith(styled, simpleStyle.serialise(styled, items)))).toEqual(items);
      }),
      fcParameters('simple header round trip', 200),
    );
  });
});

describe('what a style refuses, and what it reads of an absent parameter', () => {
  it('simple in the path: text that is not percent-encoding', () => {
    expect(read(simpleStyle, parameter('path', false, false), { path: { color: '%E0%A4%A' }, headers: {}, query: '' })).toBe('not valid percent-encoding');
  });

  it('form in the query: a scalar given twice', () => {
    expect(read(formStyle, parameter('query', true, false), { path: {}, headers: {}, query: 'color=a&color=b' })).toBe('given 2 times; give it once');
  });

  it('a header given twice is one list', () => {
    expect(read(simpleStyle, parameter('header', false, true), { path: {}, headers: { color: ['blue', 'black,brown'] }, query: '' })).toEqual(ARRAY);
  });

  it.each<[ParameterStyle, ParameterLocation]>([
    [simpleStyle, 'path'],
    [simpleStyle, 'header'],
    [formStyle, 'query'],
  ])('%#: absent, it reads no item', (style, location) => {
    expect(read(style, parameter(location, false, false), { path: {}, headers: {}, query: '' })).toEqual([]);
  });
});

describe('the registry', () => {
  it('serves the default styles where OpenAPI makes them the default, and nowhere else', () => {
    expect(PARAMETER_STYLES).toEqual([simpleStyle, formStyle]);
    expect(DEFAULT_STYLE).toEqual({ path: 'simple', query: 'form', header: 'simple' });
    expect(parameterStyle('simple', 'path')).toBe(simpleStyle);
    expect(parameterStyle('simple', 'header')).toBe(simpleStyle);
    expect(parameterStyle('form', 'query')).toBe(formStyle);
    expect(parameterStyle('simple', 'query')).toBeUndefined();
    expect(parameterStyle('form', 'path')).toBeUndefined();
    for (const style of ['matrix', 'label', 'spaceDelimited', 'pipeDelimited', 'deepObject']) for (const location of ['path', 'query', 'header'] as const) expect(parameterStyle(style, location)).toBeUndefined();
  });

  it('gives each parameter of a contract its style', () => {
    const contract = loadContract('examples/contracts/plant-store-full.yaml');
    const parameters = contract.operations.flatMap((operation) => operation.parameters);
    expect(parameters.length).toBeGreaterThan(0);
    for (const p of parameters) expect(p.serialization).toBe(p.in === 'query' ? formStyle : simpleStyle);
  });
});
