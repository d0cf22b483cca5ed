import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseJson } from '../../src/openapi/index.js';
import { recordPacts } from '../../contracts/consumer-contract.js';
import { lintPact, lintPactFiles, formatFindings, type PactRule } from '../../contracts/pact-lint.js';

const brokenPact = fileURLToPath(new URL('fixtures/broken-pact.json', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
let recorded: string;

beforeAll(async () => {
  // A pact of its own: contracts/pacts/ belongs to the consumer tests, which may be running now.
  recorded = await recordPacts(scratch);
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the pact lint (pacts against openapi.yaml)', () => {
  it("passes the kit's consumer contract", () => {
    const findings = lintPactFiles([recorded]);
    expect(findings, formatFindings(findings)).toEqual([]);
  });

  it.each<[string, PactRule, RegExp]>([
    ['expects a status the contract does not declare', 'status-declared', /201 is not declared for POST \/plants \(declared: 200, 400, 401\)/],
    ['expects a 200 body without the required name', 'response-body', /name: is required/],
    ['expects an Error whose error is a string', 'response-body', /error: must be an integer/],
    ['expects an invalid body to be accepted', 'invalid-request-rejected', /the body is not valid: id: is required\), so it must expect a declared 4xx, not 200/],
    ['expects a request without credentials to be accepted', 'invalid-request-rejected', /no credentials/],
    ['writes the token into the pact', 'credentials-matched', /written literally/],
    ['expects a plain-text 401', 'response-media-type', /text\/plain is not declared for 401/],
    ['calls an operation the contract does not have', 'operation-declared', /GET \/plants\/1 is not an operation/],
  ])('fails the broken fixture: "%s" breaks %s', (interaction, rule, message) => {
    const findings = lintPactFiles([brokenPact]).filter((f) => f.interaction === interaction);
    expect(findings).toContainEqual(expect.objectContaining({ file: brokenPact, rule, message: expect.stringMatching(message) as unknown }));
  });

  it('finds nothing in an empty pact, and something in every interaction of the broken fixture', () => {
    const pact = parseJson(JSON.stringify({ interactions: [] }));
    expect(lintPact(pact)).toEqual([]);
    const findings = lintPactFiles([brokenPact]);
    expect(new Set(findings.map((f) => f.interaction)).size).toBe(8);
  });

  it('reads V3 pacts (bodies as is, headers as strings) and V2 matching rules', () => {
    const v3 = parseJson(
      JSON.stringify({
        interactions: [
          {
            description: 'v3 valid',
            request: { method: 'POST', path: '/plants', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' }, body: { name: 'a', id: 1 }, matchingRules: { header: { Authorization: { matchers: [{ match: 'type' }] } } } },
            response: { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: { name: 'a' } },
          },
          {
            description: 'v2 rules, body without id',
            request: { method: 'POST', path: '/plants', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' }, body: { name: 'a' }, matchingRules: { '$.headers.Authorization': { match: 'type' } } },
            response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { name: 'a' } },
          },
        ],
        metadata: { pactSpecification: { version: '3.0.0' } },
      }),
    );
    expect(lintPact(v3).map((f) => [f.interaction, f.rule])).toEqual([['v2 rules, body without id', 'invalid-request-rejected']]);
  });

  it('keeps every digit of an int64 example', () => {
    const pact = (id: string) =>
      parseJson(
        `{"metadata":{"pactSpecification":{"version":"4.0"}},"interactions":[{"type":"Synchronous/HTTP","description":"d","request":{"method":"POST","path":"/plants","headers":{"Authorization":["Bearer x"]},"matchingRules":{"header":{"Authorization":{}}},"body":{"contentType":"application/json","encoded":false,"content":{"name":"a","id":${id}}}},"response":{"status":200,"headers":{"Content-Type":["application/json"]},"body":{"contentType":"application/json","encoded":false,"content":{"name":"a"}}}}]}`,
      );
    expect(lintPact(pact('9223372036854775807'))).toEqual([]);
    // 2^63 as a double would be 9223372036854775808 too; parsed exactly it is one past INT64_MAX.
    expect(lintPact(pact('9223372036854775808')).map((f) => f.rule)).toEqual(['invalid-request-rejected']);
  });

  it('reports a file that is not a pact', () => {
    expect(lintPact(parseJson('{"consumer":{}}'), undefined, 'x.json')).toEqual([{ file: 'x.json', interaction: '', rule: 'pact-format', message: 'not a pact: no interactions array' }]);
    expect(lintPactFiles([fileURLToPath(import.meta.url)])[0]?.rule).toBe('pact-format');
  });

  describe('against a contract with path templates, methods without bodies and query parameters', () => {
    const full = loadContract(fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url)));
    const interaction = (description: string, method: string, path: string, status: number, query?: Record<string, string[]>) => ({
      type: 'Synchronous/HTTP',
      description,
      request: { method, path, ...(query ? { query } : {}), headers: { Authorization: ['Bearer x'] }, matchingRules: { header: { Authorization: {} } } },
      response: { status },
    });
    const lint = (...interactions: unknown[]) => lintPact(parseJson(JSON.stringify({ metadata: { pactSpecification: { version: '4.0' } }, interactions })), full).map((f) => [f.interaction, f.rule, f.message]);

    it('passes reads, deletes and lists the contract declares, the query as V4 writes it or in the path', () => {
      expect(lint(interaction('read', 'GET', '/plants/3', 404), interaction('delete', 'DELETE', '/plants/9223372036854775807', 204), interaction('list', 'GET', '/plants', 200, { limit: ['1'], tag: ['indoor'] }), interaction('list in path', 'GET', '/plants?limit=2', 200))).toEqual([]);
    });

    it.each<[string, string, string, Record<string, string[]> | undefined, RegExp]>([
      ['a key that is not an integer', 'GET', '/plants/abc', undefined, /path parameter id: must be an integer/],
      ['a key beyond int64', 'GET', '/plants/9223372036854775808', undefined, /path parameter id: must be an int64 integer/],
      ['a limit below its minimum (V4 query)', 'GET', '/plants', { limit: ['0'] }, /query parameter limit: must be >= 1/],
      ['a limit that is no integer (query in the path)', 'GET', '/plants?limit=many', undefined, /query parameter limit: must be an integer/],
    ])('expects a 4xx for a request with %s', (description, method, path, query, message) => {
      expect(lint(interaction(description, method, path, 200, query))).toEqual([[description, 'invalid-request-rejected', expect.stringMatching(message) as unknown]]);
    });

    it('names a method the path does not declare', () => {
      expect(lint(interaction('patch', 'PATCH', '/plants/3', 200))).toEqual([['patch', 'operation-declared', expect.stringMatching(/PATCH \/plants\/3 is not an operation/) as unknown]]);
    });
  });
});
