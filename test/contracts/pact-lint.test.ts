import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/openapi/index.js';
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
});
