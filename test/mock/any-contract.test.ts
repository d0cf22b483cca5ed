/**
 * The mock on contracts as people write them (issue 28, item 8): Swagger 2.0, OpenAPI 3.0 with a
 * server URL under a path prefix, 3.1's `type: [T, "null"]`, files split by `$ref`, the repository's
 * examples, and a contract given as data. Each starts, and each operation answers one
 * well-formed request (test/support/operation-requests.ts) with a status its contract declares,
 * over a socket. Where Prism cannot write what the guard lets through (XML without a text
 * example) the mock names it and answers the reference's placeholder, never refusing the contract;
 * where Prism's own answer would break the contract (no response declared, a success without
 * content it answers 200, an HTML answer it has nothing of) the mock answers as the contract says.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { unwritableAnswers } from '../../mock/index.js';
import { compileContract, openContract, type Contract } from '../../src/openapi/index.js';
import { exampleContractFiles } from '../support/contracts.js';
import { operationRequests, sendEach } from '../support/operation-requests.js';
import { startMock } from '../support/servers.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Written for this test: 3.0 as public contracts are, under a server path prefix, with an API key, nullable, problem+json and an XML alternative without an example. */
const SHED_30 = `
openapi: 3.0.3
info: {title: Tool shed, version: '1.0'}
servers: [{url: 'https://shed.example/api/v3'}]
security: [{key: []}]
paths:
  /tools/{toolId}:
    get:
      operationId: getTool
      parameters:
        - {name: toolId, in: path, required: true, schema: {type: integer, format: int64}}
        - {name: colour, in: query, schema: {type: string, nullable: true}}
      responses:
        '200':
          description: a tool
          content:
            application/json: {schema: {$ref: '#/components/schemas/Tool'}}
            application/xml: {schema: {$ref: '#/components/schemas/Tool'}}
        '404':
          description: none
          content:
            application/problem+json: {schema: {type: object, properties: {title: {type: string}, status: {type: integer}}}}
  /tools:
    post:
      operationId: addTool
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Tool'}}
      responses:
        '201': {description: added, content: {application/json: {schema: {$ref: '#/components/schemas/Tool'}}}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Shed-Key}
  schemas:
    Tool:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string, example: spade}
        owner: {type: string, nullable: true}
`;

/** Written for this test: 3.1 with nullable types in a query parameter and in the body. */
const POTS_31 = `
openapi: 3.1.0
info: {title: Pots, version: '1.0'}
paths:
  /pots:
    get:
      operationId: listPots
      parameters: [{name: size, in: query, schema: {type: [integer, 'null']}}]
      responses:
        '200':
          description: pots
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {size: {type: [integer, 'null']}, glaze: {type: [string, 'null']}}}}
`;

/** Written for this test: an answer with an example and no schema, as many public contracts have. */
const VERSIONS_31 = `
openapi: 3.1.0
info: {title: Versions, version: '1.0'}
paths:
  /:
    get:
      operationId: listVersions
      responses:
        '200':
          description: the versions
          content:
            application/json:
              example: {versions: [v1, v2]}
`;

/** Written for this test: what Prism alone answers against the contract, as public contracts write it. */
const ODD_31 = `
openapi: 3.1.0
info: {title: Odd answers, version: '1.0'}
paths:
  /pings:
    post:
      operationId: ping
  /numbers:
    post:
      operationId: buyNumber
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {area: {type: string}}}
      responses:
        '201': {description: Created}
        '400': {description: none found}
  /pages/{name}:
    get:
      operationId: page
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: a page
          content:
            application/html: {}
`;

function written(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'plant-store-mock-')), name);
  writeFileSync(file, text);
  return file;
}

/** Starts the mock on the contract and sends one request per operation; the statuses. */
async function statusesOf(contract: Contract, dynamic: boolean): Promise<{ operation: string; status: number; body: string }[]> {
  const server = await startMock({ contract, dynamic, seed: 'any-contract' });
  try {
    return await sendEach(server.url, operationRequests(contract));
  } finally {
    await server.close();
  }
}

describe('the mock starts on every contract and answers each operation', () => {
  const files = {
    ...Object.fromEntries(exampleContractFiles().map((file) => [relative(here('../..'), file), file])),
    'a Swagger 2.0 contract': here('../openapi/fixtures/swagger-2.yaml'),
    'an OpenAPI 3.0 contract under a server path prefix': written('shed.yaml', SHED_30),
    "3.1's nullable types": written('pots.yaml', POTS_31),
  };

  it.for(Object.entries(files))('%s, from its examples and generated', async ([name, file]) => {
    const contract = await openContract(file);
    // The Swagger 2.0 one has an exclusive bound, which Prism's generator reaches (below).
    for (const dynamic of name.includes('Swagger') ? [false] : [false, true]) {
      for (const { operation, status, body } of await statusesOf(contract, dynamic)) {
        expect({ operation, dynamic, status, body: status < 300 ? '' : body }).toEqual({ operation, dynamic, status: expect.any(Number) as number, body: '' });
        expect(status, `${operation}: ${body}`).toBeGreaterThanOrEqual(200);
        expect(status, `${operation}: ${body}`).toBeLessThan(300);
      }
    }
  });

  it('--dynamic on an answer with examples and no schema: its example, Prism having nothing to generate from', async () => {
    const contract = compileContract(parseYaml(VERSIONS_31) as Record<string, unknown>, '<versions, in memory>');
    expect(await statusesOf(contract, true)).toEqual([{ operation: 'GET listVersions', status: 200, body: '{"versions":["v1","v2"]}' }]);
  });

  it('a contract given as data, without a file: Prism reads its 3.1 document', async () => {
    const contract = compileContract(parseYaml(POTS_31) as Record<string, unknown>, '<pots, in memory>');
    expect(await statusesOf(contract, false)).toEqual([{ operation: 'GET listPots', status: 200, body: expect.any(String) as string }]);
  });
});

describe('where Prism and the guard disagree, the mock names it', () => {
  it("generated data on an exclusive bound (json-schema-faker reaches it): a 500 in the contract's error shape naming the bound, the contract served", async () => {
    const contract = await openContract(here('../openapi/fixtures/swagger-2.yaml'));
    const answers = await statusesOf(contract, true);
    const broken = answers.filter(({ status }) => status === 500);
    expect(broken.map(({ body }) => JSON.parse(body) as unknown)).toEqual(broken.map(() => ({ message: expect.stringMatching(/^internal: Prism's 20\d answer breaks the contract \(germination: must be < 100\)/) as string })));
    expect(answers.filter(({ status }) => status !== 500).every(({ status }) => status >= 200 && status < 300)).toBe(true);
  });


  it("answers as the contract says where Prism alone would not: no responses declared, a 201 without content, HTML it has nothing of", async () => {
    const server = await startMock({ contract: await openContract(written('odd.yaml', ODD_31)) });
    try {
      const ping = await fetch(`${server.url}/pings`, { method: 'POST' });
      expect([ping.status, await ping.text()]).toEqual([200, '']);
      const bought = await fetch(`${server.url}/numbers`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'area=415' });
      expect([bought.status, await bought.text()]).toEqual([201, '']);
      const page = await fetch(`${server.url}/pages/home`, { headers: { accept: 'application/html' } });
      expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([200, 'application/html', '']);
    } finally {
      await server.close();
    }
  });

  it('names the XML answer without a text example, answers a request for it alone with an empty XML document, as the reference does, and one that also takes JSON with JSON', async () => {
    const contract = await openContract(written('shed.yaml', SHED_30));
    expect(unwritableAnswers(contract.operations)).toEqual(['GET /tools/{toolId} 200 application/xml']);
    const server = await startMock({ contract });
    // Prism read a copy of the upgraded document: the kit's own is as it was, its $refs in place.
    expect(JSON.stringify(contract.document)).toContain('"$ref":"#/components/schemas/Tool"');
    try {
      // Not JSON labelled XML (what Prism writes from the schema): the smallest well-formed XML document, its root the schema's name.
      const xml = await fetch(`${server.url}/tools/1`, { headers: { accept: 'application/xml', 'x-shed-key': 'k' } });
      expect([xml.status, xml.headers.get('content-type'), await xml.text()]).toEqual([200, 'application/xml', '<?xml version="1.0" encoding="UTF-8"?>\n<Tool/>\n']);
      // The same operation still answers JSON, and the guard still holds: no key, a 401.
      expect((await fetch(`${server.url}/tools/1`, { headers: { accept: 'application/json', 'x-shed-key': 'k' } })).status).toBe(200);
      // A browser's Accept prefers XML (q=0.9) but takes anything (*/*;q=0.8): the mock answers the
      // JSON it can write, as RFC 9110, section 12.5.1 lets it, not a 406 (Prism alone picks the XML).
      for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xml, application/json;q=0.1']) {
        const answer = await fetch(`${server.url}/tools/1`, { headers: { accept, 'x-shed-key': 'k' } });
        expect([accept, answer.status, answer.headers.get('content-type')]).toEqual([accept, 200, 'application/json']);
      }
      expect((await fetch(`${server.url}/tools/1`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

/** Written for this test: errors shaped `{code, message}`, with an example, as many public contracts have them. */
const CODES_31 = `
openapi: 3.1.0
info: {title: Codes, version: '1.0'}
paths:
  /bulbs/{bulbId}:
    get:
      operationId: getBulb
      parameters: [{name: bulbId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: a bulb
          content: {application/json: {schema: {type: object, required: [id], properties: {id: {type: integer}}}, example: {id: 3}}}
        '404':
          description: none
          content: {application/json: {schema: {$ref: '#/components/schemas/Failure'}, example: {code: 17, message: no such bulb}}}
components:
  schemas:
    Failure:
      type: object
      required: [code, message]
      properties: {code: {type: integer}, message: {type: string}}
`;

describe("the guard holds error answers to the contract's own shape", () => {
  it('a declared 404 example shaped {code, message} goes out as it is (decision 4 is the kit Error’s); a refusal takes the same shape', async () => {
    const contract = compileContract(parseYaml(CODES_31) as Record<string, unknown>, '<codes, in memory>');
    const server = await startMock({ contract });
    try {
      const asked = await fetch(`${server.url}/bulbs/3`, { headers: { prefer: 'code=404' } });
      expect(asked.status).toBe(404);
      expect(await asked.json()).toEqual({ code: 17, message: 'no such bulb' });
      // The guard still holds the answer to its schema: a path the schema refuses is the contract's refusal, not Prism's.
      const refused = await fetch(`${server.url}/bulbs/three`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ code: 400, message: expect.stringContaining('bulbId') as string });
    } finally {
      await server.close();
    }
  });
});

describe('a contract of webhooks alone (OpenAPI 3.1, section 4.8.1: paths are optional)', () => {
  it('starts the mock, which names the webhook and answers every request 404', async () => {
    const contract = compileContract(
      parseYaml(`
openapi: 3.1.0
info: {title: Hooks, version: '1.0'}
webhooks:
  newBulb:
    post:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {'200': {description: taken}}
`) as Record<string, unknown>,
      '<hooks, in memory>',
    );
    expect(contract.unchecked.map((u) => u.pointer)).toEqual(['/webhooks/newBulb']);
    const server = await startMock({ contract });
    try {
      const answer = await fetch(`${server.url}/bulbs`);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ error: 404, message: expect.any(String) as string });
    } finally {
      await server.close();
    }
  });
});
