/**
 * The operation model: path templates matched literal-first, parameters read into typed values
 * (int64 exact, arrays in their OpenAPI 3.1 default styles), links, and the refusal at load of
 * every contract feature the kit cannot serve exactly, named with where it is.
 */
import { describe, expect, it } from 'vitest';
import { compileContract, isLosslessNumber, isParameterProblem, UnsupportedContractError, type ParsedParameters, type ParameterProblem } from '../../src/openapi/index.js';
import { fullStore, trees } from '../support/contracts.js';

const ok = { '200': { description: 'ok' } };

function contractOf(paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra });
}

function refusals(document: Record<string, unknown>): string[] {
  try {
    compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, ...document });
  } catch (error) {
    if (error instanceof UnsupportedContractError) return error.unsupported.map((u) => `${u.feature} at ${u.pointer}`);
    throw error;
  }
  return [];
}

describe('path templates', () => {
  const path = (...names: string[]) => names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const contract = contractOf({ '/a/{x}': { get: { parameters: path('x'), responses: ok } }, '/a/mine': { get: { responses: ok } }, '/a/{x}/b/{y}': { delete: { parameters: path('x', 'y'), responses: ok } } });

  it('match literal segments before templated ones, and give the templated segments raw', () => {
    expect(contract.matchPath('/a/mine')).toEqual({ template: '/a/mine', values: {} });
    expect(contract.matchPath('/a/m%20e')).toEqual({ template: '/a/{x}', values: { x: 'm%20e' } });
    expect(contract.matchPath('/a/1/b/2')).toEqual({ template: '/a/{x}/b/{y}', values: { x: '1', y: '2' } });
    expect(contract.matchPath('/a/')).toBeUndefined();
    expect(contract.matchPath('/a/1/b')).toBeUndefined();
  });

  it('list each template with its operations by method', () => {
    expect([...fullStore().operationsAt('/plants/{id}').keys()]).toEqual(['GET', 'PUT', 'DELETE']);
  });
});

describe('parameters', () => {
  const contract = contractOf({
    '/things/{ids}': {
      get: {
        parameters: [
          { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer', format: 'int64' } } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'csv', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'flag', in: 'query', required: true, schema: { type: 'boolean' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string', minLength: 3 } },
          { name: 'Accept', in: 'header', schema: { type: 'integer' } },
        ],
        responses: ok,
      },
    },
  });
  const operation = contract.operations[0];
  const parse = (path: string, query: string, headers: Record<string, string> = {}): ParsedParameters | ParameterProblem =>
    operation?.parseParameters({ path: { ids: path }, query, headers }) ?? { problem: 'no operation' };

  it('reads simple-style path arrays, exploded and comma-separated query arrays, booleans and headers, int64 exactly', () => {
    const parsed = parse('1,9223372036854775807', 'tag=a&tag=b%20c&csv=1,2&flag=true', { 'x-trace': 'abcd' });
    if (isParameterProblem(parsed)) throw new Error(parsed.problem);
    const ids = parsed.path.ids as unknown[];
    expect(ids.every(isLosslessNumber)).toBe(true);
    expect(ids.map(String)).toEqual(['1', '9223372036854775807']);
    expect(parsed.query.tag).toEqual(['a', 'b c']);
    expect((parsed.query.csv as unknown[]).map(String)).toEqual(['1', '2']);
    expect(parsed.query.flag).toBe(true);
    expect(parsed.header['x-trace']).toBe('abcd');
  });

  it('names the parameter of every problem; ignores the header parameters OpenAPI says to ignore', () => {
    expect(parse('1,x', 'flag=true')).toEqual({ problem: 'path parameter ids item 1: must be an integer' });
    expect(parse('1', '')).toEqual({ problem: 'query parameter flag: is required' });
    expect(parse('1', 'flag=yes')).toEqual({ problem: 'query parameter flag: must be a boolean' });
    expect(parse('1', 'flag=true&flag=false')).toEqual({ problem: 'query parameter flag: given 2 times; give it once' });
    expect(parse('1', 'flag=true', { 'x-trace': 'ab' })).toEqual({ problem: 'header parameter X-Trace: must NOT have fewer than 3 characters' });
    expect(parse('%E0%A4%A', 'flag=true')).toEqual({ problem: 'path parameter ids: not valid percent-encoding' });
    expect(isParameterProblem(parse('1', 'flag=false', { accept: 'text/html' }))).toBe(false);
  });
});

describe('links and security', () => {
  it('reads the links of a response, by operationId or local operationRef', () => {
    const created = fullStore().findOperation('POST', '/plants')?.response(200);
    expect(created?.links.map((link) => [link.name, link.operationId, link.parameters.id])).toEqual([
      ['GetPlantById', 'getPlant', { source: 'response.body', pointer: '/id' }],
      ['ReplacePlantById', 'replacePlant', { source: 'response.body', pointer: '/id' }],
      ['DeletePlantById', 'deletePlant', { source: 'response.body', pointer: '/id' }],
    ]);
  });

  it('an operation with security: [] is open', () => {
    expect(trees().findOperation('GET', '/trees')?.security).toEqual([]);
    expect(trees().findOperation('POST', '/trees')?.security).toEqual([[{ name: 'token', type: 'http', scheme: 'bearer' }]]);
  });
});

describe('a contract the kit cannot serve exactly is refused at load, every feature named with where it is', () => {
  it.each([
    // Cookie parameters, every style, objects and `content` are read now (test/openapi/parameter-styles.test.ts); a location OpenAPI does not have is still refused.
    [{ paths: { '/a': { get: { parameters: [{ name: 's', in: 'body', schema: { type: 'string' } }], responses: ok } } } }, 'a parameter in body at /paths/~1a/get/parameters/0'],
    [{ paths: { '/a': { get: { security: [{ key: [] }], responses: ok } } }, components: { securitySchemes: { key: { type: 'mutualTLS' } } } }, 'the security scheme key (mutualTLS; the kit serves http bearer, http basic, apiKey, oauth2, openIdConnect only) at /components/securitySchemes/key'],
    [{ paths: { '/a': { get: { security: [{ nowhere: [] }], responses: ok } } } }, 'the undeclared security scheme nowhere at /paths/~1a/get/security/0'],
    // A segment mixing text and parameters is served now (test/openapi/paths.test.ts); braces that are no parameter are refused.
    [{ paths: { '/a/{}.json': { get: { responses: ok } } } }, 'the path segment {}.json, whose braces are not a parameter at /paths/~1a~1{}.json'],
    [{ paths: { '/a/{x}': { get: { responses: ok } } } }, 'the path parameter x without a declaration at /paths/~1a~1{x}/get'],
    [{ paths: { '/a': { get: { parameters: [{ name: 'Plant-Store-Session', in: 'header', schema: { type: 'string' } }], responses: ok } } } }, 'the header parameter Plant-Store-Session, reserved by the kit for sessions at /paths/~1a/get/parameters/0'],
    // compileContract takes a parsed 3.1 or 3.2 document; loadContract and openContract upgrade 3.0 first (test/openapi/versions.test.ts).
    [{ openapi: '3.0.3', paths: {} }, 'OpenAPI 3.0.3, given as it is (openContract upgrades it to 3.1; compileContract reads 3.1 and 3.2) at /openapi'],
    [{ openapi: '4.0.0', paths: {} }, 'OpenAPI 4.0.0 (the kit reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2) at /openapi'],
  ])('%#: %s', (document, expected) => {
    expect(refusals(document)).toEqual([expected]);
  });

  it('names every feature at once, with the file: each feature once, with its count of places and the first three', () => {
    const places = Array.from({ length: 5 }, (_, index) => ({ name: `c${index}`, in: `place${index}` }));
    const refusing = { openapi: '3.1.0', paths: { '/a': { get: { parameters: [{ name: 'q', in: 'body' }, ...places], security: [{ nowhere: [] }], responses: { '200': { description: 'x' } } } }, '/b': { get: { security: [{ nowhere: [] }], responses: { '200': { description: 'x' } } } } } };
    expect(() => compileContract(refusing, 'c.yaml')).toThrow(
      [
        'the contract c.yaml uses what the kit cannot serve exactly (docs/contracts.md):',
        '  - a parameter in body at /paths/~1a/get/parameters/0',
        ...places.map((_, index) => `  - a parameter in place${index} at /paths/~1a/get/parameters/${index + 1}`),
        '  - the undeclared security scheme nowhere at 2 places: /paths/~1a/get/security/0, /paths/~1b/get/security/0',
      ].join('\n'),
    );
  });

  it('a link the kit cannot follow is named unchecked and not followed, never a refusal', () => {
    const links = {
      Lost: { operationId: 'missing' },
      Embedded: { operationId: 'a', parameters: { p: 'x{$response.body#/id}' } },
      WithBody: { operationId: 'a', parameters: { p: '$response.body#/id' }, requestBody: '$response.body' },
    };
    const contract = compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { operationId: 'a', parameters: [{ name: 'p', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'x', links } } } } } });
    expect(contract.unchecked.map((u) => `${u.feature} at ${u.pointer}`)).toEqual([
      'the link Lost to an operation the kit cannot find in the document (not followed) at /paths/~1a/get/responses/200/links/Lost',
      'the runtime expression x{$response.body#/id} of link Embedded (the link is not followed) at /paths/~1a/get/responses/200/links/Embedded/parameters/p',
      'the requestBody of link WithBody (its parameters are followed, its body is not) at /paths/~1a/get/responses/200/links/WithBody/requestBody',
    ]);
    expect(contract.operations[0]?.responses[0]?.links.map((link) => link.name)).toEqual(['WithBody']);
  });

  it('loads callbacks and webhooks, naming them as not exercised rather than refusing them', () => {
    const contract = compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { callbacks: { c: {} }, responses: ok } } }, webhooks: { w: {} } });
    expect(contract.unchecked.map((u) => `${u.feature} at ${u.pointer}`)).toEqual([
      'webhooks (not exercised: the kit sends no requests of its own) at /webhooks/w',
      'callbacks (not exercised: the kit sends no requests of its own) at /paths/~1a/get/callbacks/c',
    ]);
  });

  it('the bundled contract and the examples are served whole', () => {
    expect(refusals({ paths: {} })).toEqual([]);
    expect(fullStore().operations).toHaveLength(5);
  });
});
