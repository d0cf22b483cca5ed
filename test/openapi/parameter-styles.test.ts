/**
 * The parameter styles (src/openapi/parameter-styles/, read and written through parameter-values.ts):
 * the rows of OpenAPI 3.1.1's "Style Examples" table (section 4.8.12.4) with `color` = "blue",
 * ["blue", "black", "brown"] and {R: 100, G: 200, B: 150}, written and read back; every style ×
 * explode × value (primitive, array, object) read back as written for values valid by the schema;
 * cookie and `content` parameters; and what is named unchecked and passed through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContract, DEFAULT_STYLE, deepObjectStyle, formStyle, labelStyle, matrixStyle, PARAMETER_STYLES, parameterStyle, pipeDelimitedStyle, serialiseParameter, simpleStyle, spaceDelimitedStyle, stringifyJson, type Contract, type OperationContract, type ParameterContract, type ParameterLocation, type ParameterShape, type RequestParameters, type Serialised } from '../../src/openapi/index.js';
import { fcParameters } from '../support/seed.js';

const SCHEMAS: Readonly<Record<ParameterShape, object>> = {
  primitive: { type: 'string' },
  array: { type: 'array', items: { type: 'string' } },
  object: { type: 'object', properties: { R: { type: 'integer' }, G: { type: 'integer' }, B: { type: 'integer' } } },
};

/** A one-operation contract with `parameter` (plus its path template when in the path). */
function contractWith(parameter: Record<string, unknown>): Contract {
  const path = parameter.in === 'path' ? `/c/{${String(parameter.name)}}` : '/c';
  return compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { [path]: { get: { parameters: [{ required: parameter.in === 'path', ...parameter }], responses: { '200': { description: 'ok' } } } } } });
}

function operationWith(parameter: Record<string, unknown>): OperationContract {
  const operation = contractWith(parameter).operations[0];
  if (!operation) throw new Error('no operation');
  return operation;
}

const only = (operation: OperationContract): ParameterContract => operation.parameters[0] as ParameterContract;

/** The serialised parameter as the request's text: a path segment, a header field, the query string or a Cookie field. */
function written(parameter: ParameterContract, serialised: Serialised): string {
  if ('text' in serialised) return serialised.text;
  return serialised.parts.join(parameter.in === 'cookie' ? '; ' : '&');
}

/** A request carrying `serialised` for the parameter. */
function requestWith(parameter: ParameterContract, serialised: Serialised): RequestParameters {
  const text = written(parameter, serialised);
  if (parameter.in === 'path') return { path: { [parameter.name]: text }, headers: {}, query: '' };
  if (parameter.in === 'query') return { path: {}, headers: {}, query: text };
  return { path: {}, headers: { [parameter.in === 'cookie' ? 'cookie' : parameter.name.toLowerCase()]: text }, query: '' };
}

/** The parameter's value read from `request`, as JSON text (numbers digit for digit), or the problem. */
function readBack(operation: OperationContract, request: RequestParameters): string {
  const parsed = operation.parseParameters(request);
  if ('problem' in parsed) return `problem: ${parsed.problem}`;
  const parameter = only(operation);
  const value = parsed[parameter.in][parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name];
  return value === undefined ? 'absent' : stringifyJson(value);
}

const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

describe("the Style Examples table of OpenAPI 3.1.1 (section 4.8.12.4), row by row (the query's without its '?')", () => {
  it.each<[string, ParameterLocation, boolean, ParameterShape, unknown, string]>([
    ['matrix', 'path', false, 'primitive', STRING, ';color=blue'],
    ['matrix', 'path', false, 'array', ARRAY, ';color=blue,black,brown'],
    ['matrix', 'path', false, 'object', OBJECT, ';color=R,100,G,200,B,150'],
    ['matrix', 'path', true, 'primitive', STRING, ';color=blue'],
    ['matrix', 'path', true, 'array', ARRAY, ';color=blue;color=black;color=brown'],
    ['matrix', 'path', true, 'object', OBJECT, ';R=100;G=200;B=150'],
    ['matrix', 'path', false, 'primitive', '', ';color'],
    ['label', 'path', false, 'primitive', STRING, '.blue'],
    ['label', 'path', false, 'array', ARRAY, '.blue,black,brown'],
    ['label', 'path', false, 'object', OBJECT, '.R,100,G,200,B,150'],
    ['label', 'path', true, 'primitive', STRING, '.blue'],
    ['label', 'path', true, 'array', ARRAY, '.blue.black.brown'],
    ['label', 'path', true, 'object', OBJECT, '.R=100.G=200.B=150'],
    ['label', 'path', false, 'primitive', '', '.'],
    ['simple', 'path', false, 'primitive', STRING, 'blue'],
    ['simple', 'path', false, 'array', ARRAY, 'blue,black,brown'],
    ['simple', 'path', false, 'object', OBJECT, 'R,100,G,200,B,150'],
    ['simple', 'path', true, 'primitive', STRING, 'blue'],
    ['simple', 'path', true, 'array', ARRAY, 'blue,black,brown'],
    ['simple', 'path', true, 'object', OBJECT, 'R=100,G=200,B=150'],
    ['simple', 'header', false, 'array', ARRAY, 'blue,black,brown'],
    ['simple', 'header', true, 'object', OBJECT, 'R=100,G=200,B=150'],
    ['form', 'query', false, 'primitive', STRING, 'color=blue'],
    ['form', 'query', false, 'array', ARRAY, 'color=blue,black,brown'],
    ['form', 'query', false, 'object', OBJECT, 'color=R,100,G,200,B,150'],
    ['form', 'query', true, 'primitive', STRING, 'color=blue'],
    ['form', 'query', true, 'array', ARRAY, 'color=blue&color=black&color=brown'],
    ['form', 'query', true, 'object', OBJECT, 'R=100&G=200&B=150'],
    ['form', 'query', true, 'primitive', '', 'color='],
    ['spaceDelimited', 'query', false, 'array', ARRAY, 'color=blue%20black%20brown'],
    ['spaceDelimited', 'query', false, 'object', OBJECT, 'color=R%20100%20G%20200%20B%20150'],
    ['pipeDelimited', 'query', false, 'array', ARRAY, 'color=blue%7Cblack%7Cbrown'],
    ['pipeDelimited', 'query', false, 'object', OBJECT, 'color=R%7C100%7CG%7C200%7CB%7C150'],
    ['deepObject', 'query', true, 'object', OBJECT, 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150'],
    // Cookies: form's pairs as cookie-pairs (RFC 6265, section 4.2.1; OpenAPI 3.1.1, Appendix D).
    ['form', 'cookie', true, 'primitive', STRING, 'color=blue'],
    ['form', 'cookie', false, 'array', ARRAY, 'color=blue,black,brown'],
    ['form', 'cookie', true, 'array', ARRAY, 'color=blue; color=black; color=brown'],
    ['form', 'cookie', true, 'object', OBJECT, 'R=100; G=200; B=150'],
  ])('%#: %s in the %s, explode %s, %s: written %j, read back', (style, location, explode, shape, value, text) => {
    const operation = operationWith({ name: 'color', in: location, style, explode, schema: SCHEMAS[shape] });
    const parameter = only(operation);
    expect(parameter.reading).toBe('style');
    const serialised = serialiseParameter(parameter, value);
    expect(written(parameter, serialised)).toBe(text);
    expect(readBack(operation, requestWith(parameter, serialised))).toBe(stringifyJson(value));
  });

  it('reads what other writers send: a `+` or a plain space for spaceDelimited, a plain `|`, unencoded brackets, a quoted cookie', () => {
    const read = (parameter: Record<string, unknown>, request: Partial<RequestParameters>): string => readBack(operationWith(parameter), { path: {}, headers: {}, query: '', ...request });
    expect(read({ name: 'c', in: 'query', style: 'spaceDelimited', explode: false, schema: SCHEMAS.array }, { query: 'c=a+b%20c' })).toBe('["a","b","c"]');
    expect(read({ name: 'c', in: 'query', style: 'pipeDelimited', explode: false, schema: SCHEMAS.array }, { query: 'c=a|b' })).toBe('["a","b"]');
    expect(read({ name: 'c', in: 'query', style: 'deepObject', explode: true, schema: SCHEMAS.object }, { query: 'c[R]=1&c[G]=2&other=3' })).toBe('{"R":1,"G":2}');
    expect(read({ name: 'c', in: 'cookie', schema: { type: 'integer' } }, { headers: { cookie: 'a=1;c="12" ; d=4' } })).toBe('12');
  });
});

describe('what the request gets wrong is a problem naming the parameter', () => {
  it.each<[Record<string, unknown>, Partial<RequestParameters>, string]>([
    [{ name: 'c', in: 'path', style: 'matrix', schema: SCHEMAS.primitive }, { path: { c: 'blue' } }, 'path parameter c: does not begin with ";" (the matrix style)'],
    [{ name: 'c', in: 'path', style: 'matrix', schema: SCHEMAS.primitive }, { path: { c: ';d=blue' } }, 'path parameter c: names "d", not c (the matrix style)'],
    [{ name: 'c', in: 'path', style: 'matrix', explode: true, schema: SCHEMAS.primitive }, { path: { c: ';c=a;c=b' } }, 'path parameter c: given 2 times; give it once'],
    [{ name: 'c', in: 'path', style: 'label', schema: SCHEMAS.primitive }, { path: { c: 'blue' } }, 'path parameter c: does not begin with "." (the label style)'],
    [{ name: 'c', in: 'path', schema: SCHEMAS.object }, { path: { c: 'R,1,G' } }, 'path parameter c: an object needs names and values in pairs'],
    [{ name: 'c', in: 'path', schema: SCHEMAS.object }, { path: { c: 'R,x' } }, 'path parameter c item R: must be an integer'],
    [{ name: 'c', in: 'path', schema: SCHEMAS.object }, { path: { c: 'R,1,R,2' } }, 'path parameter c: property R given more than once'],
    [{ name: 'c', in: 'path', schema: SCHEMAS.primitive }, { path: { c: '%E0%A4%A' } }, 'path parameter c: not valid percent-encoding'],
    [{ name: 'c', in: 'query', schema: SCHEMAS.primitive }, { query: 'c=a&c=b' }, 'query parameter c: given 2 times; give it once'],
    [{ name: 'c', in: 'query', style: 'deepObject', explode: true, schema: SCHEMAS.object }, { query: 'c[R]=1&c[R]=2' }, 'query parameter c: property R given more than once'],
    [{ name: 'c', in: 'cookie', required: true, schema: SCHEMAS.primitive }, { headers: { cookie: 'd=1' } }, 'cookie parameter c: is required'],
    [{ name: 'c', in: 'cookie', schema: { type: 'integer' } }, { headers: { cookie: 'c=1.5' } }, 'cookie parameter c: must be an integer'],
    [{ name: 'c', in: 'query', content: { 'application/json': { schema: SCHEMAS.object } } }, { query: 'c=%7B' }, 'query parameter c: malformed JSON'],
    [{ name: 'c', in: 'query', content: { 'application/json': { schema: SCHEMAS.object } } }, { query: 'c=%7B%22R%22%3A%22x%22%7D' }, 'query parameter c item R: must be an integer'],
    [{ name: 'c', in: 'query', required: true, content: { 'application/json': { schema: SCHEMAS.object } } }, {}, 'query parameter c: is required'],
  ])('%#: %j given %j', (parameter, request, problem) => {
    expect(readBack(operationWith({ required: false, ...parameter }), { path: {}, headers: {}, query: '', ...request })).toContain(`problem: ${problem}`);
  });
});

describe('content, allowEmptyValue and allowReserved', () => {
  it('a `content` parameter is its media type\'s text, held to its schema: an int64 past 2^53 stays exact', () => {
    const operation = operationWith({ name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer', format: 'int64' } } } } } });
    const parameter = only(operation);
    expect(parameter.reading).toBe('content');
    const serialised = serialiseParameter(parameter, { id: 9007199254740993n });
    expect(written(parameter, serialised)).toBe('filter=%7B%22id%22%3A9007199254740993%7D');
    expect(readBack(operation, requestWith(parameter, serialised))).toBe('{"id":9007199254740993}');
  });

  it('allowEmptyValue: an empty value is accepted as it is; without it, the schema judges the empty text', () => {
    const flag = (allowEmptyValue: boolean): OperationContract => operationWith({ name: 'flag', in: 'query', allowEmptyValue, schema: { type: 'boolean' } });
    expect(readBack(flag(true), { path: {}, headers: {}, query: 'flag' })).toBe('""');
    expect(readBack(flag(true), { path: {}, headers: {}, query: 'flag=true' })).toBe('true');
    expect(readBack(flag(false), { path: {}, headers: {}, query: 'flag=' })).toContain('problem: query parameter flag: must be a boolean');
  });

  it('allowReserved: reserved characters but & = + # go unencoded, and are read back', () => {
    const operation = operationWith({ name: 'q', in: 'query', allowReserved: true, schema: SCHEMAS.primitive });
    const parameter = only(operation);
    const serialised = serialiseParameter(parameter, 'a/b:c?[d]@e&f=g+h');
    expect(written(parameter, serialised)).toBe('q=a/b:c?[d]@e%26f%3Dg%2Bh');
    expect(readBack(operation, requestWith(parameter, serialised))).toBe('"a/b:c?[d]@e&f=g+h"');
    expect(written(parameter, serialiseParameter(operationWith({ name: 'q', in: 'query', schema: SCHEMAS.primitive }).parameters[0] as ParameterContract, 'a/b'))).toBe('q=a%2Fb');
  });
});

describe('what the kit cannot read is named unchecked, and its text passed through', () => {
  it.each<[Record<string, unknown>, Partial<RequestParameters>, string, string]>([
    [{ name: 'c', in: 'query', style: 'matrix', schema: SCHEMAS.primitive }, { query: 'c=;c=x' }, 'the matrix style of query parameter c (not a style of the query): its text is passed through unchecked at /paths/~1c/get/parameters/0/style', '";c=x"'],
    [{ name: 'c', in: 'path', style: 'form', schema: SCHEMAS.primitive }, { path: { c: 'a%20b' } }, 'the form style of path parameter c (not a style of the path): its text is passed through unchecked at /paths/~1c~1{c}/get/parameters/0/style', '"a b"'],
    [{ name: 'c', in: 'header', style: 'weird', schema: SCHEMAS.array }, { headers: { c: 'a,b' } }, 'the weird style of header parameter c (not a style of the header): its text is passed through unchecked at /paths/~1c/get/parameters/0/style', '"a,b"'],
    [{ name: 'c', in: 'cookie', style: 'simple', schema: SCHEMAS.primitive }, { headers: { cookie: 'c=1' } }, 'the simple style of cookie parameter c (not a style of the cookie): its text is passed through unchecked at /paths/~1c/get/parameters/0/style', '"1"'],
    [{ name: 'c', in: 'query', style: 'deepObject', explode: false, schema: SCHEMAS.object }, { query: 'c=1&c=2' }, 'the deepObject style with explode false for object query parameter c (not defined by OpenAPI): its text is passed through unchecked at /paths/~1c/get/parameters/0/style', '["1","2"]'],
    [{ name: 'c', in: 'query', style: 'spaceDelimited', schema: SCHEMAS.primitive }, { query: 'c=a%20b' }, 'the spaceDelimited style with explode false for primitive query parameter c (not defined by OpenAPI): its text is passed through unchecked at /paths/~1c/get/parameters/0/style', '"a b"'],
    [{ name: 'c', in: 'query', schema: { type: 'object', properties: { inner: { type: 'object' } } } }, { query: 'c=x' }, 'query parameter c of a type the kit does not read from text (it reads primitives, and arrays and objects of them): its text is passed through unchecked at /paths/~1c/get/parameters/0/schema', '"x"'],
    [{ name: 'c', in: 'query', content: { 'application/x-thing': {} } }, { query: 'c=x' }, 'the media type application/x-thing of query parameter c (read as its text, unchecked): its text is passed through unchecked at /paths/~1c/get/parameters/0/content/application~1x-thing', '"x"'],
  ])('%#: %j', (parameter, request, named, passed) => {
    const contract = contractWith(parameter);
    expect(contract.unchecked.map((u) => `${u.feature} at ${u.pointer}`)).toEqual([named]);
    const operation = contract.operations[0] as OperationContract;
    expect(only(operation).reading).toBe('unchecked');
    expect(readBack(operation, { path: {}, headers: {}, query: '', ...request })).toBe(passed);
    // Required or not, an unchecked parameter is not held to being there.
    expect(readBack(operation, { path: {}, headers: {}, query: '' })).toBe('absent');
  });
});

/** Strings a location can carry back unchanged by each style: headers are visible ASCII, trimmed, without the styles' commas and equals signs; the delimited styles' data holds no delimiter (OpenAPI 3.1.1, Appendix E). */
function textsFor(location: ParameterLocation, style: string): fc.Arbitrary<string> {
  if (location === 'header') return fc.stringMatching(/^[!-+\--<>-~]([ !-+\--<>-~]*[!-+\--<>-~])?$/);
  const any = fc.string({ unit: 'grapheme', maxLength: 8 });
  if (style === 'spaceDelimited') return any.filter((text) => !text.includes(' '));
  if (style === 'pipeDelimited') return any.filter((text) => !text.includes('|'));
  return any;
}

const INT64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

/** A value of `shape` whose texts come from `texts`, with a schema it is valid by: strings, integers past 2^53, booleans. */
function valueAndSchema(shape: ParameterShape, texts: fc.Arbitrary<string>): fc.Arbitrary<{ value: unknown; schema: object }> {
  const scalars = fc.oneof(
    texts.map((value) => ({ value: value, schema: { type: 'string' } })),
    INT64.map((value) => ({ value: value, schema: { type: 'integer', format: 'int64' } })),
    fc.boolean().map((value) => ({ value: value, schema: { type: 'boolean' } })),
  );
  if (shape === 'primitive') return scalars;
  if (shape === 'array') {
    const items = (schema: object, item: fc.Arbitrary<unknown>): fc.Arbitrary<{ value: unknown; schema: object }> => fc.array(item, { minLength: 1, maxLength: 4 }).map((value) => ({ value, schema: { type: 'array', items: schema } }));
    return fc.oneof(items({ type: 'string' }, texts), items({ type: 'integer', format: 'int64' }, INT64), items({ type: 'boolean' }, fc.boolean()));
  }
  return fc.record({ s: texts, i: INT64, b: fc.boolean() }).map((value) => ({ value, schema: { type: 'object', properties: { s: { type: 'string' }, i: { type: 'integer', format: 'int64' }, b: { type: 'boolean' } } } }));
}

describe('round trips: parse(serialise(v)) is v for every style, explode and value the style defines, where it is defined', () => {
  const combinations = PARAMETER_STYLES.flatMap((style) => style.locations.flatMap((location) => style.shapes.flatMap((shape) => [false, true].filter((explode) => style.explodeOnly === undefined || style.explodeOnly === explode).map((explode) => [style.name, location, shape, explode] as const))));

  it('covers every style of the registry', () => {
    expect(new Set(combinations.map(([style]) => style))).toEqual(new Set(['simple', 'form', 'matrix', 'label', 'spaceDelimited', 'pipeDelimited', 'deepObject']));
    expect(combinations.length).toBe(2 * 3 * 2 + 2 * 3 * 2 + 3 * 2 + 3 * 2 + 2 + 2 + 1);
  });

  it.each(combinations)('%s in the %s, %s, explode %s', (style, location, shape, explode) => {
    fc.assert(
      fc.property(valueAndSchema(shape, textsFor(location, style)), ({ value, schema }) => {
        const operation = operationWith({ name: 'color', in: location, style, explode, schema });
        const parameter = only(operation);
        expect(readBack(operation, requestWith(parameter, serialiseParameter(parameter, value)))).toBe(stringifyJson(value));
      }),
      fcParameters(`${style} ${location} ${shape} explode ${explode} round trip`, 60),
    );
  });
});

describe('the registry', () => {
  it('serves each style where section 4.8.12.4 defines it, with its defaults', () => {
    expect(PARAMETER_STYLES).toEqual([simpleStyle, formStyle, matrixStyle, labelStyle, spaceDelimitedStyle, pipeDelimitedStyle, deepObjectStyle]);
    expect(DEFAULT_STYLE).toEqual({ path: 'simple', query: 'form', header: 'simple', cookie: 'form' });
    const where = Object.fromEntries(PARAMETER_STYLES.map((style) => [style.name, (['path', 'query', 'header', 'cookie'] as const).filter((location) => parameterStyle(style.name, location) === style)]));
    expect(where).toEqual({ simple: ['path', 'header'], form: ['query', 'cookie'], matrix: ['path'], label: ['path'], spaceDelimited: ['query'], pipeDelimited: ['query'], deepObject: ['query'] });
  });

  it('defaults explode to true for form and false otherwise', () => {
    expect(only(operationWith({ name: 'c', in: 'cookie', schema: SCHEMAS.array })).explode).toBe(true);
    expect(only(operationWith({ name: 'c', in: 'query', schema: SCHEMAS.array })).explode).toBe(true);
    expect(only(operationWith({ name: 'c', in: 'path', schema: SCHEMAS.array })).explode).toBe(false);
    expect(only(operationWith({ name: 'c', in: 'header', schema: SCHEMAS.array })).explode).toBe(false);
  });
});
