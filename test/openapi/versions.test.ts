/**
 * Contracts as people write them, read in process: Swagger 2.0 and OpenAPI 3.0 upgraded to 3.1
 * (each construct the upgrade must get right, and the kit's named fix-ups), OpenAPI 3.2 with what
 * the kit does not serve named, contracts split over files bundled, remote $refs refused without
 * a fetch, $refs into other operations, callbacks and webhooks named, and no library's chatter.
 * The fixtures are written for these tests (test/openapi/fixtures/).
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract, formatFeatures, loadContract, openContract, parseJson, UnsupportedContractError, type Contract, type Schema } from '../../src/openapi/index.js';
import { upgradeDocument } from '../../src/openapi/upgrade.js';
import { generateTypesOf } from '../../contracts/generate-types.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const valid = (contract: Contract, component: string, value: unknown): boolean => contract.validatorForComponent(component)(parseJson(JSON.stringify(value))).valid;
const operation = (contract: Contract, id: string) => {
  const found = contract.operationById(id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

const dir = mkdtempSync(join(tmpdir(), 'plant-store-versions-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('OpenAPI 3.0, upgraded to 3.1 by @scalar/openapi-upgrader', async () => {
  const contract = await openContract(fixture('openapi-3.0.yaml'));
  const reading = { sensor: 'GH-01', celsius: 20, humidity: 50 };

  it('names the version it was written in', () => {
    expect(contract.writtenIn).toBe('OpenAPI 3.0.3, read as 3.1');
    expect(contract.document.openapi).toMatch(/^3\.1\./);
  });

  it('nullable: true beside a type admits null; nullable without a type is dropped, not an ajv error', () => {
    expect(valid(contract, 'NewReading', { ...reading, note: null })).toBe(true);
    expect(valid(contract, 'NewReading', { ...reading, note: 3 })).toBe(false);
    expect(valid(contract, 'NewReading', { ...reading, extra: null })).toBe(true);
    expect(JSON.stringify(contract.document)).not.toContain('"nullable"');
  });

  it('boolean exclusiveMinimum and exclusiveMaximum become the bound (true) or go (false)', () => {
    expect(valid(contract, 'NewReading', { ...reading, celsius: -40 })).toBe(false);
    expect(valid(contract, 'NewReading', { ...reading, celsius: -39.5 })).toBe(true);
    expect(valid(contract, 'NewReading', { ...reading, celsius: 60 })).toBe(true);
    expect(valid(contract, 'NewReading', { ...reading, humidity: 100 })).toBe(false);
    expect(valid(contract, 'NewReading', { ...reading, humidity: 99 })).toBe(true);
  });

  it('example: a media type keeps it as the answer, a schema gets examples', () => {
    expect(operation(contract, 'addReading').response(201)?.example).toEqual(parseJson('{"id":1,"sensor":"GH-01","celsius":21.5,"humidity":55,"note":null,"room":"BE"}'));
    const schemas = (contract.document.components as { schemas: Record<string, { properties: Record<string, Schema> }> }).schemas;
    expect(schemas.NewReading?.properties.sensor).toEqual({ type: 'string', examples: ['GH-01'] });
  });

  it('an unknown format is accepted as its type and named once as unchecked', () => {
    expect(valid(contract, 'NewReading', { ...reading, room: 'anything' })).toBe(true);
    expect(valid(contract, 'NewReading', { ...reading, room: 7 })).toBe(false);
    expect(contract.unchecked).toEqual([{ feature: 'the format greenhouse-room-code (accepted as its type: the kit does not check it)', pointer: '/components/schemas/NewReading/properties/room/format' }]);
  });

  it("a format under a specification extension (APIs.guru's x-origin) is the vendor's, not named; a property named x-… is a schema's", () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'x', version: '1', 'x-origin': [{ format: 'swagger', url: 'https://example.test/s.json' }] },
      paths: {},
      components: { schemas: { Tag: { type: 'object', properties: { 'x-code': { type: 'string', format: 'shelf-code' } } } } },
    };
    expect(compileContract(document, '<extensions>').unchecked.map((u) => u.pointer)).toEqual(['/components/schemas/Tag/properties/x-code/format']);
  });

  it('is then what loadContract gives too; before that, loadContract says to read it with openContract', () => {
    expect(loadContract(fixture('openapi-3.0.yaml'))).toBe(contract);
    const copy = join(dir, 'copy-3.0.yaml');
    writeFileSync(copy, "openapi: 3.0.3\ninfo: { title: c, version: '1' }\npaths: {}\n");
    expect(() => loadContract(copy)).toThrow(/is OpenAPI 3\.0\.3: read it with `await openContract\(file\)`/);
  });
});

describe('Swagger 2.0, upgraded to 3.1', async () => {
  const contract = await openContract(fixture('swagger-2.yaml'));

  it('names the version it was written in and serves its operations', () => {
    expect(contract.writtenIn).toBe('Swagger 2.0, read as 3.1');
    expect(contract.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['POST /seeds', 'GET /seeds/{seedId}']);
    expect(operation(contract, 'storeSeed').requestBody?.mediaTypes).toEqual(['application/json']);
    expect(operation(contract, 'seedById').parameters.map((p) => [p.name, p.in, p.scalar])).toEqual([['seedId', 'path', 'integer']]);
  });

  it('x-nullable: true admits null (the kit\'s fix-up 1: the upgrader ignores it)', () => {
    expect(valid(contract, 'NewSeed', { species: 'x', origin: null })).toBe(true);
    expect(valid(contract, 'NewSeed', { species: 'x', origin: 3 })).toBe(false);
  });

  it('exclusiveMaximum: true excludes the bound; the response examples are kept', () => {
    expect(valid(contract, 'NewSeed', { species: 'x', germination: 100 })).toBe(false);
    expect(valid(contract, 'NewSeed', { species: 'x', germination: 99.5 })).toBe(true);
    expect(operation(contract, 'storeSeed').response(201)?.example).toEqual(parseJson('{"id":7,"species":"Helianthus annuus","origin":null}'));
  });

  it('generate:types writes its types from the upgraded document: x-nullable is `| null`', async () => {
    const types = await generateTypesOf(contract);
    expect(types).toMatch(/origin\?: string \| null;/);
    expect(types).toContain('storeSeed: {');
  });

  const swagger = (extra: Record<string, unknown>): Record<string, unknown> => ({ swagger: '2.0', info: { title: 't', version: '1' }, ...extra });

  it('formData parameters become a form request body under the types consumes names', async () => {
    const upgraded = await upgradeDocument(
      swagger({
        paths: {
          '/pots': {
            post: {
              consumes: ['application/x-www-form-urlencoded'],
              parameters: [
                { in: 'formData', name: 'size', type: 'integer', required: true },
                { in: 'formData', name: 'glaze', type: 'string' },
              ],
              responses: { '204': { description: 'ok' } },
            },
          },
        },
      }),
    );
    const body = (upgraded.paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>)['/pots']?.post?.requestBody;
    expect(Object.keys(body?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(body?.content['application/x-www-form-urlencoded']?.schema).toMatchObject({ type: 'object', properties: { size: { type: 'integer' }, glaze: { type: 'string' } }, required: ['size'] });
  });

  it("consumes and produces become the content types; an operation's own produces wins over the document's (the kit's fix-up 2)", async () => {
    const upgraded = await upgradeDocument(
      swagger({
        consumes: ['application/json'],
        produces: ['application/json'],
        paths: {
          '/a': {
            post: {
              consumes: ['application/vnd.a+json'],
              parameters: [{ in: 'body', name: 'b', schema: { type: 'object' } }],
              responses: { '200': { description: 'ok', schema: { type: 'object' } } },
            },
            get: { produces: ['text/csv', 'application/xml'], responses: { '200': { description: 'ok', schema: { type: 'string' } } } },
          },
        },
      }),
    );
    const a = (upgraded.paths as Record<string, Record<string, Schema>>)['/a'];
    const content = (object: unknown): string[] => Object.keys((object as { content: Schema }).content);
    expect(content(a?.post?.requestBody)).toEqual(['application/vnd.a+json']);
    expect(content((a?.post?.responses as Schema)['200'])).toEqual(['application/json']);
    expect(content((a?.get?.responses as Schema)['200'])).toEqual(['text/csv', 'application/xml']);
    expect(upgraded.produces).toBeUndefined();
  });
});

describe('OpenAPI 3.2', () => {
  it('loads, and names each 3.2 feature the kit does not serve', () => {
    const contract = loadContract(fixture('openapi-3.2.yaml'));
    expect(contract.writtenIn).toBe('OpenAPI 3.2.0');
    expect(contract.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /heaps']);
    expect(contract.unchecked.map((u) => u.pointer)).toEqual(['/$self', '/paths/~1heaps/query', '/paths/~1heaps/additionalOperations/LINK', '/paths/~1heaps/query/responses/200/content/application~1jsonl/itemSchema']);
    expect(contract.unchecked.map((u) => u.feature).join('\n')).toMatch(/QUERY method \(OpenAPI 3\.2; not served/);
  });
});

describe('contracts over several files', () => {
  it('are bundled at load: schemas, responses and parameters from the files beside it, and a file they refer to', async () => {
    const contract = await openContract(fixture('split/openapi.yaml'));
    expect(contract.writtenIn).toBeUndefined();
    const add = operation(contract, 'addTray');
    expect(add.requestBody?.validate(parseJson('{"cells":24}')).valid).toBe(true);
    expect(add.requestBody?.validate(parseJson('{"cells":0}')).valid).toBe(false);
    expect(add.response(400)?.validateBody?.(parseJson('{"message":"no"}')).valid).toBe(true);
    expect(add.response(400)?.validateBody?.(parseJson('{}')).valid).toBe(false);
    expect(add.response(201)?.validateBody?.(parseJson('{"id":1,"cells":2}')).valid).toBe(true);
    expect(add.response(201)?.validateBody?.(parseJson('{"cells":2}')).valid).toBe(false);
    const read = operation(contract, 'trayById');
    expect(read.parameters.map((p) => `${p.in} ${p.name}`)).toEqual(['path trayId']);
    expect(read.parseParameters({ path: { trayId: '0' }, query: '', headers: {} })).toHaveProperty('problem');
  });

  it('Swagger 2.0 split over files: a file met twice is bundled once and still read where the upgrade moves it', async () => {
    // The bundler points the second $ref to Tray.yaml at the first place it put it, inside an operation
    // (a 2.0 `schema`); the upgrade then moves that under `content`: the kit copies it there first.
    const split = mkdtempSync(join(dir, 'split-2.0-'));
    writeFileSync(join(split, 'Tray.yaml'), 'type: object\nrequired: [cells]\nproperties:\n  cells: { type: integer, minimum: 1 }\n');
    writeFileSync(
      join(split, 'swagger.yaml'),
      `swagger: '2.0'\ninfo: { title: Trays, version: '1' }\nproduces: [application/json]\nconsumes: [application/json]\npaths:\n  /trays:\n    post:\n      operationId: addTray\n      parameters: [{ name: tray, in: body, required: true, schema: { $ref: 'Tray.yaml' } }]\n      responses:\n        '200': { description: stored, schema: { $ref: 'Tray.yaml' } }\n    get:\n      operationId: listTrays\n      responses:\n        '200': { description: trays, schema: { type: array, items: { $ref: 'Tray.yaml' } } }\n`,
    );
    const contract = await openContract(join(split, 'swagger.yaml'));
    expect(contract.writtenIn).toBe('Swagger 2.0, read as 3.1');
    for (const [id, valid, invalid] of [['addTray', '{"cells":2}', '{"cells":0}'], ['listTrays', '[{"cells":2}]', '[{"cells":0}]']] as const) {
      const response = operation(contract, id).response(200);
      expect(response?.validateBody?.(parseJson(valid)).valid).toBe(true);
      expect(response?.validateBody?.(parseJson(invalid)).valid).toBe(false);
    }
    expect(operation(contract, 'addTray').requestBody?.validate(parseJson('{"cells":0}')).valid).toBe(false);
  });

  it('a remote $ref is refused with its URL, and nothing is fetched, in the contract or in a file it refers to', async () => {
    let requests = 0;
    const server = createServer((_, response) => {
      requests++;
      response.end('{"type":"object"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/pot.json`;
      writeFileSync(join(dir, 'remote.yaml'), `openapi: 3.1.0\ninfo: { title: r, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200': { $ref: 'part.yaml#/Ok' }\n`);
      writeFileSync(join(dir, 'part.yaml'), `Ok:\n  description: ok\n  content:\n    application/json:\n      schema: { $ref: '${url}' }\n`);
      await expect(openContract(join(dir, 'remote.yaml'))).rejects.toThrow(`  - the remote $ref ${url} (the kit fetches nothing; save it beside the contract and refer to the file) at part.yaml#/Ok/content/application~1json/schema`);
      await expect(openContract(fixture('remote-ref.yaml'))).rejects.toSatisfy((error: unknown) => {
        const refused = (error as UnsupportedContractError).unsupported.map((u) => `${u.feature} at ${u.pointer}`);
        return refused.length === 2 && refused[0]?.startsWith('the remote $ref http://127.0.0.1:9/schemas/pot.yaml#/Pot') === true && refused[1]?.includes('https://example.invalid/problem.json') === true;
      });
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('every local $ref resolves, wherever it points', () => {
  const contract = loadContract(fixture('cross-refs.yaml'));

  it('a response, a request body and a parameter of another operation, and a schema inside one', () => {
    const refresh = operation(contract, 'refresh');
    expect(refresh.requestBody?.validate(parseJson('{"user":"u"}')).valid).toBe(true);
    expect(refresh.requestBody?.validate(parseJson('{}')).valid).toBe(false);
    expect(refresh.response(200)?.validateBody?.(parseJson('{"token":"t"}')).valid).toBe(true);
    expect(refresh.response(200)?.validateBody?.(parseJson('{}')).valid).toBe(false);
    expect(refresh.response(200)?.example).toEqual(parseJson('{"token":"abc"}'));
    expect(refresh.parameters.map((p) => p.pointer)).toEqual(['/paths/~1users~1login/post/parameters/0']);
    expect(refresh.parseParameters({ path: {}, query: '', headers: { 'x-bench': 'far-too-long' } })).toHaveProperty('problem');
    const whoami = operation(contract, 'whoami');
    expect(whoami.response(200)?.validateBody?.(parseJson('{"token":1}')).valid).toBe(false);
  });
});

describe('callbacks and webhooks', () => {
  it('load, and are named as not exercised', () => {
    const contract = loadContract(fixture('callbacks-webhooks.yaml'));
    expect(contract.operations.map((o) => o.operationId)).toEqual(['subscribe']);
    expect(formatFeatures(contract.unchecked)).toBe(
      [
        '  - webhooks (not exercised: the kit sends no requests of its own) at 2 places: /webhooks/plantWatered, /webhooks/plantWilted',
        '  - callbacks (not exercised: the kit sends no requests of its own) at /paths/~1subscriptions/post/callbacks/dry',
      ].join('\n'),
    );
  });
});

describe("no library's chatter", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reaches the console or standard error while a contract with unknown formats and loose schemas loads', async () => {
    const written: string[] = [];
    for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(args.join(' ')));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const file = join(dir, 'loose.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.1',
        "info: { title: loose, version: '1' }",
        'paths:',
        '  /a:',
        '    post:',
        '      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Loose" } } } }',
        "      responses: { '200': { description: ok } }",
        'components:',
        '  schemas:',
        '    Loose:',
        '      properties:',
        '        country: { type: string, format: iso-country-code }',
        '        list: { minItems: 1 }',
        '        either: { oneOf: [ { required: [x] }, { type: integer } ] }',
      ].join('\n'),
    );
    const contract = await openContract(file);
    contract.validatorForComponent('Loose');
    expect(written).toEqual([]);
    expect(contract.unchecked.map((u) => u.feature)).toEqual(['the format iso-country-code (accepted as its type: the kit does not check it)']);
  });
});

describe('a refusal', () => {
  it('lists each feature once, with its count of places and the first three pointers', () => {
    const paths = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`/p${index}`, { get: { security: [{ nowhere: [] }], responses: { '200': { description: 'x' } } } }]));
    let message = '';
    try {
      compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }, 'many.yaml');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('the contract many.yaml uses what the kit cannot serve exactly (docs/contracts.md):\n  - the undeclared security scheme nowhere at 40 places: /paths/~1p0/get/security/0, /paths/~1p1/get/security/0, /paths/~1p2/get/security/0 and 37 more');
  });

  it('names a schema ajv cannot compile with where it is, instead of throwing from inside ajv', () => {
    const schema = { type: 'object', properties: { x: { nullable: true } } };
    const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': { post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } } };
    expect(() => compileContract(document, 'n.yaml')).toThrow('  - a schema ajv cannot compile as JSON Schema 2020-12 ("nullable" cannot be used without "type") at /paths/~1a/post/requestBody/content/application~1json/schema');
  });

  it('compiled with schemas later, the same schema is named by compileSchemas, and its validator throws rather than pass a body', () => {
    const schema = { type: 'object', properties: { x: { nullable: true } } };
    const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': { post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'integer' } } } } } } } } };
    const contract = compileContract(document, 'n.yaml', { schemas: 'later' });
    const operation = contract.findOperation('POST', '/a');
    // The answer's schema compiles on first use while the request body's is still to compile.
    expect(operation?.response(200)?.variants[0]?.validate?.(parseJson('1')).valid).toBe(true);
    expect(operation?.response(200)?.variants[0]?.validate?.('1').valid).toBe(false);
    expect(() => contract.compileSchemas()).toThrow('  - a schema ajv cannot compile as JSON Schema 2020-12 ("nullable" cannot be used without "type") at /paths/~1a/post/requestBody/content/application~1json/schema');
    expect(() => operation?.requestBody?.variants[0]?.validate?.(parseJson('{"x":1}'))).toThrow('cannot be compiled');
  });

  it('compiled with schemas later, a contract whose schemas all compile has none left after compileSchemas, in batches', () => {
    const paths = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`/p${index}`, { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'array', items: { type: 'integer', minimum: index } } } } } } } }]));
    const contract = compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }, 'five.yaml', { schemas: 'later' });
    expect(contract.compileSchemas(2)).toBe(3);
    expect(contract.compileSchemas(2)).toBe(1);
    expect(contract.compileSchemas()).toBe(0);
    expect(contract.findOperation('GET', '/p4')?.response(200)?.variants[0]?.validate?.(parseJson('[3]')).valid).toBe(false);
    // A contract compiled now has nothing left.
    expect(compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }, 'five.yaml').compileSchemas()).toBe(0);
  });

  it('the fixtures are written for these tests: each parses as the version it claims', () => {
    for (const [name, key, version] of [['swagger-2.yaml', 'swagger', '2.0'], ['openapi-3.0.yaml', 'openapi', '3.0.3'], ['openapi-3.2.yaml', 'openapi', '3.2.0']] as const) {
      expect((parseYaml(readFileSync(fixture(name), 'utf8')) as Schema)[key]).toBe(version);
    }
  });
});
