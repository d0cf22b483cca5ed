/**
 * The stateful phase's parts: the walks found in a contract (links, else the collection/item
 * pattern, else none), sequences made from the seed and made again from their index, link values
 * carried digit for digit, and the phase's checks on answers a correct target may give and on
 * those it may not. Runs over real sockets for the pattern without links (warnings only).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, judgeExchange, runConformance, type HttpOutcome, type RequestCase } from '../../fuzz/index.js';
import { sequenceCase, walksOf } from '../../fuzz/generation/sequences.js';
import { qualify } from '../../fuzz/run/options.js';
import { statefulNotApplicable, statefulPlan } from '../../fuzz/run/stateful-plan.js';
import { compileContract, loadContract } from '../../src/openapi/index.js';
import { parse as parseYaml } from 'yaml';
import { fullStore, trees } from '../support/contracts.js';
import { startFaulty, startReference, TEST_TOKEN } from '../support/servers.js';

const full = fullStore();
/** Notes whose id the server assigns: the create's body has none, its answer links the read by it. */
const SERVER_KEYS = `
openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
paths:
  /notes:
    post:
      operationId: addNote
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [text], properties: { text: { type: string } } } } } }
      responses:
        '201':
          description: added
          content: { application/json: { schema: { type: object, properties: { id: { type: integer }, text: { type: string } } } } }
          links: { ReadNote: { operationId: note, parameters: { noteId: $response.body#/id } } }
  /notes/{noteId}:
    get:
      operationId: note
      parameters: [ { name: noteId, in: path, required: true, schema: { type: integer } } ]
      responses:
        '200': { description: the note, content: { application/json: { schema: { type: object } } } }
`;
const options = { token: TEST_TOKEN, profile: 'reference' as const };
const answer = (status: number, body: string): HttpOutcome => ({ kind: 'response', status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), durationMs: 1 });
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

function fullWalk() {
  const [walk] = walksOf(full);
  if (walk === undefined) throw new Error('the example full store declares links');
  return walk;
}

describe('walks', () => {
  it('follow the example full store\'s links: a read, a replace and a delete from the create', () => {
    const walk = fullWalk();
    expect([walk.create.operationId, walk.read?.operation.operationId, walk.replace?.operation.operationId, walk.remove?.operation.operationId, walk.inferred]).toEqual(['addPlant', 'getPlant', 'replacePlant', 'deletePlant', false]);
    expect([walk.read?.name, walk.status]).toEqual(['GetPlantById', '200']);
  });

  it('follow the collection/item pattern where no link is declared, as inferred', () => {
    const walks = walksOf(trees());
    expect(walks.map((w) => [w.create.operationId, w.read?.operation.operationId, w.remove?.operation.operationId, w.replace, w.inferred])).toEqual([['plantTree', 'tree', 'fellTree', undefined, true]]);
  });

  it('leave out a link whose key the server assigns: the sequence cannot be made before it is sent', () => {
    const assigned = compileContract(parseYaml(SERVER_KEYS) as Record<string, unknown>, '<notes>');
    expect(walksOf(assigned)).toEqual([]);
  });

  it('are none for the bundled contract: a default run has no stateful phase, one that asks for it sends nothing', () => {
    const bundled = loadContract();
    expect(walksOf(bundled)).toEqual([]);
    expect(qualify({ baseUrl: 'http://127.0.0.1:1', token: TEST_TOKEN, contract: bundled }).phases).not.toContain('stateful');
    expect(qualify({ baseUrl: 'http://127.0.0.1:1', token: TEST_TOKEN, contract: full }).phases).toContain('stateful');
    expect(qualify({ baseUrl: 'http://127.0.0.1:1', token: TEST_TOKEN, contract: full, profile: 'mock' }).phases).not.toContain('stateful');
    const plan = statefulPlan(bundled, 1, options);
    expect([plan.total(), plan.next()]).toEqual([0, undefined]);
  });
});

describe('the stateful checks a contract gives nothing to judge', () => {
  it('are all of them without a walk (the bundled contract), each with why', () => {
    const reasons = statefulNotApplicable(loadContract());
    expect(Object.keys(reasons).sort()).toEqual(['deleted-stays-deleted', 'listed-after-create', 'replacement-visible', 'resource-available', 'server-assigns-key', 'update-visible']);
    expect(reasons['resource-available']).toBe('the contract declares no read linked from a create, nor a collection/item pattern with a create and a read');
  });

  it('leave a link whose key the server assigns to the resource walks: its read is judged, the key read from the answer', () => {
    const reasons = statefulNotApplicable(compileContract(parseYaml(SERVER_KEYS) as Record<string, unknown>, '<notes>'));
    expect(reasons['resource-available']).toBeUndefined();
    expect(reasons['server-assigns-key']).toBeUndefined();
  });

  it('are, for the full store whose create links a read, a replace and a delete, those only the patterns make: it has no PATCH and no key the server assigns', () => {
    expect(statefulNotApplicable(full)).toEqual({
      'update-visible': 'no collection/item pattern has an update (PATCH with a JSON body) and a read',
      'server-assigns-key': 'no collection/item pattern has a key the server assigns that a create may validly send (readOnly, or undeclared where other properties are allowed)',
    });
  });

  it('are those whose operation the walks lack: the pattern of trees has no replace; links to a read alone have no delete nor replace', () => {
    const noPatch = 'no collection/item pattern has an update (PATCH with a JSON body) and a read';
    const noServerKey = 'no collection/item pattern has a key the server assigns that a create may validly send (readOnly, or undeclared where other properties are allowed)';
    expect(statefulNotApplicable(trees())).toEqual({ 'replacement-visible': 'the collection/item pattern (the contract declares no link) has no replace (with a request body)', 'update-visible': noPatch, 'server-assigns-key': noServerKey });
    const readOnly = structuredClone(full.document) as { paths: Record<string, Record<string, { responses?: Record<string, { links?: Record<string, unknown> }> }>> };
    const links = readOnly.paths['/plants']?.post?.responses?.['200']?.links ?? {};
    for (const name of Object.keys(links).filter((name) => name !== 'GetPlantById')) Reflect.deleteProperty(links, name);
    const reasons = statefulNotApplicable(compileContract(readOnly, '<read link only>'));
    expect(reasons).toEqual({ 'deleted-stays-deleted': "the create's links lead to no delete", 'replacement-visible': "the create's links lead to no replace (with a request body)", 'update-visible': noPatch, 'server-assigns-key': noServerKey });
  });

  it('are said in the report of a run; one that could apply but got no request is not exercised', async () => {
    const reference = await startReference();
    closing.push(() => reference.close());
    const bundled = await runConformance({ baseUrl: reference.url, token: TEST_TOKEN, seed: 3, phases: ['coverage'] });
    expect(bundled.checks['resource-available']).toEqual({ requests: 0, failures: 0, warnings: 0, notApplicable: statefulNotApplicable(loadContract())['resource-available'] });
    expect(bundled.checks.echo.notApplicable).toBeUndefined();
    const store = await startReference({ contract: full });
    closing.push(() => store.close());
    const coverageOnly = await runConformance({ baseUrl: store.url, token: TEST_TOKEN, contract: full, seed: 3, phases: ['coverage'] });
    expect(coverageOnly.checks['resource-available']).toEqual({ requests: 0, failures: 0, warnings: 0 });
    expect(formatReport(coverageOnly)).toMatch(/^resource-available\s+0\s+0\s+0\s+not exercised$/m);
  }, 60_000);
});

describe('sequences', () => {
  it('carry an int64 key beyond 2^53 through the link digit for digit', () => {
    const request = sequenceCase(full, fullWalk(), 'delete-then-read', '{"name":"Fern","id":9007199254740993}', undefined, options);
    expect([...request.setup, request].map((step) => `${step.method} ${step.path}`)).toEqual(['POST /plants', 'DELETE /plants/9007199254740993', 'GET /plants/9007199254740993']);
    expect(request.link?.expects).toBe('gone');
  });

  it('are made again from the seed and their index (replayable)', () => {
    const once = statefulPlan(full, 42, options);
    const again = statefulPlan(full, 42, options);
    const other = statefulPlan(full, 43, options);
    const pathsOf = (request: RequestCase | undefined): string[] => (request === undefined ? [] : [...request.setup, request].map((s) => `${s.method} ${s.path} ${Buffer.from(s.body).toString()}`));
    for (const index of [0, 7, 31]) expect(pathsOf(again.caseAt(index)?.request)).toEqual(pathsOf(once.caseAt(index)?.request));
    expect([0, 1, 2].map((i) => pathsOf(other.caseAt(i)?.request))).not.toEqual([0, 1, 2].map((i) => pathsOf(once.caseAt(i)?.request)));
  });
});

describe('the phase\'s checks', () => {
  const created = sequenceCase(full, fullWalk(), 'read', '{"name":"Fern","id":9007199254740993}', undefined, options);
  const gone = sequenceCase(full, fullWalk(), 'delete-then-read', '{"name":"Fern","id":9007199254740993}', undefined, options);
  const replaced = sequenceCase(full, fullWalk(), 'replace-then-read', '{"name":"Fern","id":5}', '{"name":"Palm"}', options);

  it('accept the resource with extra properties, or its int64 key as the string of its digits', () => {
    expect(judgeExchange('resource-available', created, answer(200, '{"name":"Fern","id":9007199254740993,"createdAt":"today"}'), full)).toEqual([]);
    expect(judgeExchange('resource-available', created, answer(200, '{"name":"Fern","id":"9007199254740993"}'), full)).toEqual([]);
  });

  it('fail a read that rounds the key, or that does not find what was created', () => {
    expect(judgeExchange('resource-available', created, answer(200, '{"name":"Fern","id":9007199254740992}'), full).map((f) => f.severity)).toEqual(['failure']);
    expect(judgeExchange('resource-available', created, answer(404, '{"error":404,"message":"no"}'), full).map((f) => f.severity)).toEqual(['failure']);
  });

  it('accept 404 or another 4xx after a delete, fail the resource; a 5xx is no-server-error\'s', () => {
    expect(judgeExchange('deleted-stays-deleted', gone, answer(404, '{"error":404,"message":"no"}'), full)).toEqual([]);
    expect(judgeExchange('deleted-stays-deleted', gone, answer(410, '{"error":410,"message":"gone"}'), full)).toEqual([]);
    expect(judgeExchange('deleted-stays-deleted', gone, answer(200, '{"name":"Fern","id":9007199254740993}'), full).map((f) => f.severity)).toEqual(['failure']);
    expect(judgeExchange('deleted-stays-deleted', gone, answer(500, '{"error":500,"message":"oops"}'), full)).toEqual([]);
    expect(judgeExchange('accepts-valid', gone, answer(404, '{"error":404,"message":"no"}'), full)).toEqual([]);
  });

  it('see the replacement, not the resource as created', () => {
    expect(judgeExchange('replacement-visible', replaced, answer(200, '{"name":"Palm","id":5}'), full)).toEqual([]);
    expect(judgeExchange('replacement-visible', replaced, answer(200, '{"name":"Fern","id":5}'), full).map((f) => f.message)).toEqual([expect.stringContaining('name is "Palm" but came back as "Fern"')]);
  });
});

describe('without links, along the collection/item pattern', () => {
  const contract = trees();

  it('the reference passes; a delete that keeps the resource is a warning, not a failure', async () => {
    const reference = await startReference({ contract });
    closing.push(() => reference.close());
    const passed = await runConformance({ baseUrl: reference.url, token: TEST_TOKEN, contract, seed: 7, phases: ['stateful'], shrinkTimeMs: 2_000 });
    expect(passed.checks['resource-available'].requests).toBeGreaterThan(0);
    for (const check of ['resource-available', 'deleted-stays-deleted'] as const) expect(passed.checks[check].failures + passed.checks[check].warnings, check).toBe(0);
    const fell = contract.operationById('fellTree');
    const keeps = await startFaulty((request, correct) => (contract.findOperation(request.method, request.url) === fell ? { status: 204, headers: {}, body: '' } : correct()), { contract });
    closing.push(() => keeps.close());
    const caught = await runConformance({ baseUrl: keeps.url, token: TEST_TOKEN, contract, seed: 7, phases: ['stateful'], shrinkTimeMs: 2_000 });
    expect([caught.checks['deleted-stays-deleted'].failures, caught.checks['deleted-stays-deleted'].warnings > 0]).toEqual([0, true]);
  });
});
