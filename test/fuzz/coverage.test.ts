/**
 * The coverage phase: every probe of the contract's request schema, every malformation and every
 * undeclared media type the engine knows, sent once in every run whatever the seed; valid or
 * invalid as the contract's validator says; and changed by a change to openapi.yaml. (The laws
 * every request obeys hold for the coverage requests too: test/fuzz/generators.test.ts.)
 */
import { METHODS } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { compileContract, exactInteger, INT64_MAX, INT64_MIN, isJsonObject, isLosslessNumber, loadContract, parseJson, type Contract, type JsonObject, type Schema } from '../../src/openapi/index.js';
import { capacityCases } from '../../fuzz/generation/capacity.js';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { kindContext } from '../../fuzz/generation/tables/context.js';
import { probeClass, PROBES_PER_RUN } from '../../fuzz/generation/tables/probes.js';
import { sharedEntries } from '../../fuzz/generation/tables/shares.js';
import { MALFORMATIONS } from '../../fuzz/generation/kinds/malformed-json.js';
import { undeclaredTypes } from '../../fuzz/generation/kinds/bad-media-type.js';
import { runConformance } from '../../fuzz/run/runner.js';
import { EDGE_STRINGS } from '../../fuzz/generation/values/edge-strings.js';
import { HOSTILE_KEYS } from '../../fuzz/generation/values/hostile-keys.js';
import { LONE_SURROGATE_LENIENCY } from '../../oracle/leniencies.js';
import { COLUMN_LENGTHS, probesOf } from '../../fuzz/generation/schema-probes.js';
import type { RequestCase } from '../../oracle/types.js';
import type { Probe } from '../../fuzz/generation/schema-probes.js';
import { errorResponse, objectBodyOf, responseObject, withBody } from '../faulty/helpers.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';

const contract = loadContract();
const operation = contract.findOperation('POST', '/plants');
if (!operation?.requestBody) throw new Error('POST /plants with a JSON body is not in the contract');
const TOKEN = 'plant-token';

function bodyOf(c: RequestCase): JsonObject | undefined {
  try {
    const value = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(c.body));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The exact integer of a property of a request's body, if it is one. */
function integerOf(c: RequestCase, key: string): bigint | undefined {
  const value = bodyOf(c)?.[key];
  return isLosslessNumber(value) ? exactInteger(value) : undefined;
}

/** The text a property's number was written with (`1e19`, `-0`). */
function numberText(c: RequestCase, key: string): string | undefined {
  const value = bodyOf(c)?.[key];
  return isLosslessNumber(value) ? value.value : undefined;
}

function stringOf(c: RequestCase, key: string): string | undefined {
  const value = bodyOf(c)?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The coverage requests of a contract, by kind. */
function phase(of: Contract = contract): { all: RequestCase[]; valid: RequestCase[]; invalid: RequestCase[] } {
  const all = coverageCases(of, { token: TOKEN });
  return { all, valid: all.filter((c) => c.kind === 'valid'), invalid: all.filter((c) => c.kind === 'invalid-body') };
}

const { all, valid, invalid } = phase();
const key = (c: RequestCase): string => `${c.method} ${c.path} ${JSON.stringify(c.headers)} ${Buffer.from(c.body).toString('base64')}`;

describe('the coverage phase of openapi.yaml', () => {
  it('sends every probe of the request schema once: valid where the contract validator accepts it, invalid-body where it does not', () => {
    const probes = probesOf(contract, operation.requestBody?.schema ?? {}).map((p) => `probe:${p.name}`);
    // The probes' own kinds; a double fault carries a body probe with bad credentials on top.
    const sent = all.filter((c) => c.kind !== 'double-fault').flatMap((c) => (c.tags ?? []).filter((t) => t.startsWith('probe:')));
    expect(sent.sort()).toEqual(probes.sort());
    expect(probes.length).toBeGreaterThan(250);
  });

  it('is the same list under the mock profile, less the credentials a mock accepts (any well-formed token)', () => {
    const mock = coverageCases(contract, { token: TOKEN, profile: 'mock' });
    // Requests with valid credentials are the same; bad credentials a subset (which ones a mock
    // cannot refuse is the credential table's business, tested in credentials.test.ts). Bodies are
    // numbered per kind, so bad credentials are compared by what they send, without the body.
    const sent = (c: RequestCase): string => `${c.kind} ${c.method} ${c.path} ${JSON.stringify(c.headers)} ${JSON.stringify(c.extraLines ?? [])}`;
    expect(mock.filter((c) => c.credentials === 'valid').map(key)).toEqual(all.filter((c) => c.credentials === 'valid').map(key));
    const referenceBad = new Set(all.filter((c) => c.credentials !== 'valid').map(sent));
    expect(mock.filter((c) => c.credentials !== 'valid').map(sent).filter((c) => !referenceBad.has(c))).toEqual([]);
    expect(mock.some((c) => c.credentials === 'wrong-token')).toBe(false);
    expect(all.some((c) => c.credentials === 'wrong-token')).toBe(true);
  });

  it('sends every malformation and every undeclared media type, and no request twice', () => {
    const context = kindContext(contract, operation, { token: TOKEN });
    const tags = new Set(all.flatMap((c) => c.tags ?? []));
    expect(MALFORMATIONS.filter((m) => !tags.has(`malformation:${m.name}`)).map((m) => m.name)).toEqual([]);
    expect(undeclaredTypes(context)).toEqual(expect.arrayContaining(['application/json-seq', 'application/jsonx', 'text/plain']));
    expect(undeclaredTypes(context).filter((t) => !tags.has(`media-type:${t}`))).toEqual([]);
    expect(new Set(all.map(key)).size).toBe(all.length);
  });

  it('int64: the bounds, the bounds ±1, 0, ±1 and the 2^53 cliff, in range valid and out of range invalid', () => {
    const ids = (cases: RequestCase[]): bigint[] => cases.map((c) => integerOf(c, 'id')).filter((n): n is bigint => n !== undefined);
    const cliff = 2n ** 53n;
    expect(ids(valid)).toEqual(expect.arrayContaining([INT64_MIN, INT64_MIN + 1n, INT64_MAX, INT64_MAX - 1n, 0n, 1n, -1n, cliff - 1n, cliff, cliff + 1n, 1n - cliff, -cliff, -cliff - 1n, 2n ** 31n, -(2n ** 31n) - 1n]));
    expect(ids(invalid)).toEqual(expect.arrayContaining([INT64_MIN - 1n, INT64_MAX + 1n, 2n ** 64n, 10n ** 19n]));
    expect(ids(valid).every((n) => n >= INT64_MIN && n <= INT64_MAX)).toBe(true);
  });

  it('int64: the engine\'s integer spellings at the bounds, each on the side of the bound its value is', () => {
    const texts = (cases: RequestCase[]): (string | undefined)[] => cases.map((c) => numberText(c, 'id'));
    expect(texts(valid)).toEqual(expect.arrayContaining(['9.223372036854775807e18', '-9.223372036854775808e18', '-0', '1.0', '0e0', '1E+0', '9223372036854775807.0']));
    expect(texts(invalid)).toEqual(expect.arrayContaining(['1e19', '9.223372036854775808e18', '-9223372036854775809.0', '1e400', '1.5', '9007199254740993.5']));
  });

  it('strings: every edge string in every string property, lone surrogates lenient (RFC 8259, section 8.2)', () => {
    for (const property of ['name', 'tag']) {
      const values = valid.map((c) => stringOf(c, property));
      expect(EDGE_STRINGS.filter((edge) => !values.includes(edge.value)).map((e) => e.name), property).toEqual([]);
      for (const edge of EDGE_STRINGS.filter((e) => e.family === 'surrogate')) {
        const c = valid.find((v) => stringOf(v, property) === edge.value);
        expect(c?.lenient, `${property}: ${edge.name}`).toBe(LONE_SURROGATE_LENIENCY);
        // Written as an escape, so the body stays UTF-8.
        expect(Buffer.from(c?.body ?? []).toString('latin1')).toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/);
      }
    }
    expect(all.filter((c) => c.lenient === LONE_SURROGATE_LENIENCY).every((c) => c.kind === 'valid')).toBe(true);
  });

  it('strings: empty, whitespace-only, and lengths around column limits and 10,000, as ASCII', () => {
    const lengths = valid.map((c) => stringOf(c, 'name')).filter((s): s is string => s !== undefined && /^[a-z0-9]+$/.test(s)).map((s) => s.length);
    expect(lengths).toEqual(expect.arrayContaining([...COLUMN_LENGTHS, 10_000]));
    expect(valid.some((c) => stringOf(c, 'name') === '')).toBe(true);
    expect(valid.some((c) => stringOf(c, 'name')?.trim() === '' && stringOf(c, 'name') !== '')).toBe(true);
  });

  it('objects: each required property missing, or under its key in another case (invalid); beside it (valid); hostile and pollution extras (valid); non-objects (invalid)', () => {
    const variants = (cases: RequestCase[]): string[] => cases.map((c) => c.variant);
    expect(variants(invalid)).toEqual(expect.arrayContaining(['name is missing', 'id is missing', 'name is missing, sent as "Name" (another case)', 'name is missing, sent as "NAME" (another case)', 'id is missing, sent as "ID" (another case)', 'id is missing, sent as "Id" (another case)']));
    const sentAs = invalid.find((c) => c.variant === 'name is missing, sent as "Name" (another case)');
    const keys = Object.keys((sentAs && bodyOf(sentAs)) ?? {});
    expect(keys).toContain('Name');
    expect(keys).not.toContain('name');
    expect(variants(valid)).toEqual(expect.arrayContaining(['name is sent, and "Name" after it with another value', 'id is sent, and "ID" after it with another value']));
    for (const hostile of HOSTILE_KEYS) expect(valid.some((c) => bodyOf(c) !== undefined && Object.hasOwn(bodyOf(c) ?? {}, hostile)), JSON.stringify(hostile)).toBe(true);
    expect(variants(invalid)).toEqual(
      expect.arrayContaining(['the body is null', 'the body is false (a boolean)', 'the body is a string', 'the body is the number 0', 'the body is an empty array', 'the body is an array holding a valid object', 'the body is a JSON string holding a valid object (JSON encoded twice)']),
    );
    expect(variants(invalid)).toEqual(expect.arrayContaining(['name is null', 'name is the number 42', 'tag is an empty object', 'id is the string "1000000" (digits, but a string)', 'id is an array']));
  });
});

/** openapi.yaml with changes made to its schemas. */
function modified(change: (schemas: Record<string, Schema>) => void): Contract {
  const document = structuredClone(contract.document);
  change((document.components as { schemas: Record<string, Schema> }).schemas);
  return compileContract(document);
}

describe('a change to openapi.yaml changes the coverage phase', () => {
  const plantProperties = (schemas: Record<string, Schema>): Record<string, Schema> => (schemas.Plant as { properties: Record<string, Schema> }).properties;
  const newPlantPart = (schemas: Record<string, Schema>): { required: string[]; properties: Record<string, Schema> } => (schemas.NewPlant as { allOf: Schema[] }).allOf[1] as { required: string[]; properties: Record<string, Schema> };

  it('a maxLength: 20 gets a name of 20 characters valid and of 21 invalid, and no valid name of 255 or more', () => {
    const changed = phase(modified((schemas) => void Object.assign(plantProperties(schemas).name ?? {}, { maxLength: 20 })));
    const names = (cases: RequestCase[]): number[] => cases.map((c) => stringOf(c, 'name')).filter((s): s is string => s !== undefined).map((s) => Array.from(s).length);
    expect(names(changed.valid)).toContain(20);
    expect(names(changed.valid)).toContain(19);
    expect(names(changed.invalid)).toContain(21);
    expect(Math.max(...names(changed.valid))).toBe(20);
    expect(names(changed.invalid)).toEqual(expect.arrayContaining([21, 255, 4096, 65536]));
    // The edge strings longer than 20 (the ReDoS probes) are now invalid bodies.
    expect(changed.invalid.map((c) => c.variant)).toContain('name is "aaaaaaaaaaaa"… (65 characters) (letters-then-symbol)');
    expect(phase().valid.map((c) => c.variant)).toContain('name is "aaaaaaaaaaaa"… (65 characters) (letters-then-symbol)');
  });

  it('a minimum: 1 moves the lower bound: 1 and its spellings valid, 0, -0 and -1 invalid', () => {
    const changed = phase(modified((schemas) => void Object.assign(newPlantPart(schemas).properties.id ?? {}, { minimum: 1 })));
    const ids = (cases: RequestCase[]): (bigint | undefined)[] => cases.map((c) => integerOf(c, 'id'));
    expect(ids(changed.valid)).toEqual(expect.arrayContaining([1n, 2n, INT64_MAX]));
    expect(ids(changed.valid).some((n) => n !== undefined && n < 1n)).toBe(false);
    expect(ids(changed.invalid)).toEqual(expect.arrayContaining([0n, -1n, INT64_MIN, INT64_MAX + 1n]));
    expect(changed.invalid.map((c) => numberText(c, 'id'))).toEqual(expect.arrayContaining(['-0', '0e0', '0.0']));
    expect(changed.valid.map((c) => numberText(c, 'id'))).toEqual(expect.arrayContaining(['1.0', '1e0']));
  });

  it('an enum on tag: each member valid, members in another case or with a space invalid, and no other tag valid', () => {
    const changed = phase(modified((schemas) => void Object.assign(plantProperties(schemas).tag ?? {}, { enum: ['tropical', 'Succulent'] })));
    const tags = (cases: RequestCase[]): (string | undefined)[] => cases.map((c) => stringOf(c, 'tag'));
    expect(tags(changed.valid)).toEqual(expect.arrayContaining(['tropical', 'Succulent']));
    expect(new Set(tags(changed.valid).filter((t) => t !== undefined && !t.startsWith('plant ')))).toEqual(new Set(['tropical', 'Succulent']));
    expect(tags(changed.invalid)).toEqual(expect.arrayContaining(['TROPICAL', 'tropical ', 'SUCCULENT', 'Succulent ']));
    expect(changed.invalid.map((c) => c.variant)).toContain('tag is null');
  });

  it('a new required property gets its own probes: missing, in another case, of each wrong type, every edge string', () => {
    const changed = phase(
      modified((schemas) => {
        newPlantPart(schemas).required.push('colour');
        newPlantPart(schemas).properties.colour = { type: 'string' };
      }),
    );
    const variants = changed.invalid.map((c) => c.variant);
    expect(variants).toEqual(expect.arrayContaining(['colour is missing', 'colour is missing, sent as "Colour" (another case)', 'colour is missing, sent as "COLOUR" (another case)', 'colour is null', 'colour is the number 42', 'colour is an empty array']));
    expect(changed.valid.map((c) => c.variant)).toEqual(expect.arrayContaining(['colour is "🌱" (astral)', 'colour is 65536 characters long', 'colour is sent, and "Colour" after it with another value']));
    // Every valid request carries the new property: the plain bodies are built from the schema.
    expect(changed.valid.every((c) => bodyOf(c) === undefined || stringOf(c, 'colour') !== undefined)).toBe(true);
    expect(changed.all.length).toBeGreaterThan(all.length + 80);
  });
});

/** The `framing` kind's spellings node:http answers itself: 400 (its llhttp parser, strict by default), 417 to an unknown expectation. */
const NODE_REFUSES = ['space-before-colon', 'obs-fold', 'field-name', 'nul-in-value', 'minor-version', 'separator', 'content-length-sign', 'content-lengths', 'length-and-chunked', 'unknown-expectation'].map((name) => `message:${name}`);

describe('the runner sends the coverage phase whatever the seed', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });

  it('sends the same coverage requests under two seeds (recorded by the server), each once', async () => {
    const seen = new Map<number, string[]>();
    let seed = 0;
    const cases = capacityCases(contract, { token: TEST_TOKEN });
    const canary = Buffer.from(cases.canary.body).toString('base64');
    const otherClients = Buffer.from(cases.otherClient?.(0).body ?? '').toString('base64');
    const server = await startFaulty((request, correct) => {
      const body = Buffer.from(request.body ?? '').toString('base64');
      // The canary is read at intervals of time: how often depends on the machine, not on the seed (so are its other clients).
      if (body !== canary && body !== otherClients) seen.set(seed, [...(seen.get(seed) ?? []), `${String(request.headers.authorization)} ${String(request.headers['content-type'])} ${body}`]);
      return correct();
    });
    closers.push(() => server.close());
    const reports = [];
    for (seed of [1, 987654321]) reports.push(await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed, phases: ['coverage'] }));
    const expected = coverageCases(contract, { token: TEST_TOKEN });
    const setups = expected.reduce((n, c) => n + c.setup.length, 0);
    for (const report of reports) {
      expect(report.failures).toEqual([]);
      // Requests by kind leave the canary out.
      expect(Object.values(report.kinds).reduce((n, count) => n + count, 0)).toBe(expected.length + setups);
    }
    const [first = [], second = []] = [...seen.values()];
    // node:http answers some requests itself, before any handler: without Host (400, RFC 9112, section
    // 3.2), the message spellings it refuses (NODE_REFUSES), a method outside its table or in lower
    // case, a target with a space or a control character (400); a CONNECT it closes (no 'connect'
    // listener). They never reach the store. A request sent second on its connection
    // (RequestFraming.after) has a first one before it, which does.
    const beforeHandler = (c: RequestCase): boolean =>
      c.framing?.noHost === true || c.tags?.some((tag) => NODE_REFUSES.includes(tag)) === true || !METHODS.includes(c.method) || c.method === 'CONNECT' || /[^\x21-\x7e]/.test(c.framing?.target ?? '');
    const firsts = expected.filter((c) => c.framing?.after !== undefined).length;
    expect(first.length).toBe(expected.length + setups - expected.filter(beforeHandler).length + firsts);
    // Concurrent requests arrive in any order; the requests themselves are the same.
    expect([...second].sort()).toEqual([...first].sort());
  });
});

describe('what RFC 8259 leaves open about lone surrogates is a warning, not a failure', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });
  const lone = /\p{Surrogate}/u;
  const holdsLoneSurrogate = (body: JsonObject | undefined): boolean => Object.values(body ?? {}).some((v) => typeof v === 'string' && lone.test(v));

  const refuses: Fault = (request, correct) => (holdsLoneSurrogate(objectBodyOf(request)) && correct().status === 200 ? errorResponse(400, 'name: must be valid Unicode') : correct());
  const replaces: Fault = (_request, correct) => {
    const answer = correct();
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    return plant ? withBody(answer, Object.fromEntries(Object.entries(plant).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/\p{Surrogate}/gu, '\ufffd') : v]))) : answer;
  };

  it.each([
    ['refuses them with 400', refuses, 'accepts-valid'],
    ['stores U+FFFD in their place', replaces, 'echo'],
  ] as const)('a target that %s keeps the contract, with a %s warning', async (_what, behaviour, check) => {
    const server = await startFaulty(behaviour);
    closers.push(() => server.close());
    const report = await runConformance({ baseUrl: server.url, token: TEST_TOKEN, seed: 11, runs: 300 });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.warnings.map((w) => w.check)).toEqual([check]);
    expect(report.warnings[0]?.message).toContain(LONE_SURROGATE_LENIENCY);
    expect(report.warnings[0]?.phase).toBe('coverage');
  });
});

describe('a contract of many bodies shares the coverage probes out (issue 29)', () => {
  // 150 operations with a body of 10 properties: some hundreds of probes a body, more than PROBES_PER_RUN in all.
  const properties = Object.fromEntries(Array.from({ length: 10 }, (_v, i) => [`p${i}`, i % 2 === 0 ? { type: 'integer', format: 'int64' } : { type: 'string', maxLength: 40 }]));
  const item = { type: 'object', required: ['p0'], properties };
  const paths = Object.fromEntries(Array.from({ length: 150 }, (_v, i) => [`/r${i}`, { post: { requestBody: { required: true, content: { 'application/json': { schema: item } } }, responses: { '200': { description: 'ok' }, '400': { description: 'bad' } } } }]));
  const many = compileContract({ openapi: '3.1.0', info: { title: 'many', version: '1' }, paths });

  it('each body sends the same share of its probes, PROBES_PER_RUN over the bodies: every class on every body, every probe on some body', () => {
    const cases = coverageCases(many, { token: TOKEN, kinds: ['valid', 'invalid-body'] });
    const sentBy = new Map<string, Set<string>>();
    for (const c of cases) {
      for (const tag of c.tags ?? []) if (tag.startsWith('probe:')) sentBy.set(c.path, new Set([...(sentBy.get(c.path) ?? []), tag.slice('probe:'.length)]));
    }
    const all = probesOf(many, item);
    const classes = new Set(all.map(probeClass));
    const share = Math.floor(PROBES_PER_RUN / 150);
    expect(share).toBeGreaterThan(classes.size);
    expect(all.length).toBeGreaterThan(share);
    expect(sentBy.size).toBe(150);
    for (const sent of sentBy.values()) expect(sent.size >= share && sent.size <= share + classes.size).toBe(true);
    const byName = new Map(all.map((probe) => [probe.name, probe]));
    for (const sent of sentBy.values()) expect(new Set([...sent].map((name) => probeClass(byName.get(name) as Probe)))).toEqual(classes);
    // 150 shares cover the list more than once: no probe is left out of the run.
    const anywhere = new Set([...sentBy.values()].flatMap((sent) => [...sent]));
    expect(all.filter((probe) => !anywhere.has(probe.name))).toEqual([]);
  });

  it('sharedEntries keeps a table that fits whole, and otherwise a window that moves on and one of each class it lacks', () => {
    const table = Array.from({ length: 12 }, (_v, i) => i);
    const classOf = (n: number): string => (n < 2 ? 'small' : 'large');
    expect(sharedEntries(table, classOf, { index: 0, count: 1 }, 20)).toEqual(table);
    const shares = Array.from({ length: 4 }, (_v, index) => sharedEntries(table, classOf, { index, count: 4 }, 12));
    for (const share of shares) {
      expect(share.length >= 3 && share.length <= 5).toBe(true);
      expect(share).toEqual([...share].sort((a, b) => a - b));
      expect(share.some((n) => n < 2) && share.some((n) => n >= 2)).toBe(true);
    }
    expect(new Set(shares.flat())).toEqual(new Set(table));
  });
});
