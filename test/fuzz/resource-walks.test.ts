/**
 * The pieces of the resource walks (oracle/resource-walks.ts) the engine and the checks share: a
 * key from a create's answer (its body, else its Location, absolute or relative), a list's items
 * and next page, the resource after an update; and the walks of the example garden journal.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyFromAnswer, listedIn, nextPage, resourceWalksOf, updatedResource, type AnswerBinding, type HttpOutcome } from '../../oracle/index.js';
import { judgeExchange } from '../../fuzz/index.js';
import fc from 'fast-check';
import { resourceSequence, resourceSequenceArbitrary } from '../../fuzz/generation/resource-sequences.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { compileContract, loadContract } from '../../src/openapi/index.js';
import { TEST_TOKEN } from '../support/servers.js';

const garden = loadContract(fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url)));
const answer = (status: number, body: string, headers: Record<string, string> = {}): HttpOutcome => ({ kind: 'response', status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body), durationMs: 1 });
const binding: AnswerBinding = { placeholder: '__key0__', step: 0, property: 'id', item: '/gardens/{gardenId}', parameter: 'gardenId' };

describe('the key a create answers', () => {
  it('is its body\'s key property, an int64 digit for digit', () => {
    expect(keyFromAnswer(binding, answer(201, '{"id":"a1b2"}'))).toBe('a1b2');
    expect(keyFromAnswer({ ...binding, property: 'n' }, answer(201, '{"n":9223372036854775807}'))).toBe('9223372036854775807');
  });

  it('is else its Location, absolute or relative, under a base path, percent-decoded (RFC 9110, section 10.2.2)', () => {
    expect(keyFromAnswer(binding, answer(201, '{}', { location: 'https://api.example/v1/gardens/g%201' }))).toBe('g 1');
    expect(keyFromAnswer(binding, answer(201, '', { location: '/gardens/abc/' }))).toBe('abc');
    expect(keyFromAnswer(binding, answer(201, '', { location: 'gardens/abc' }))).toBe('abc');
    const nested: AnswerBinding = { ...binding, item: '/gardens/{gardenId}/beds/{bedId}', parameter: 'bedId' };
    expect(keyFromAnswer(nested, answer(201, '', { location: '/gardens/abc/beds/7' }))).toBe('7');
  });

  it('is none for a refusal, or a Location elsewhere', () => {
    expect(keyFromAnswer(binding, answer(400, '{"id":"x"}'))).toBeUndefined();
    expect(keyFromAnswer(binding, answer(201, '{}', { location: '/plants/abc' }))).toBeUndefined();
  });
});

describe('a list', () => {
  const key = { property: 'id', text: '7' };
  it('holds an item with the key in a bare array or in an envelope', () => {
    expect(listedIn(answer(200, '[{"id":7}]'), key)).toBe(true);
    expect(listedIn(answer(200, '{"data":[{"id":"7"}],"links":{}}'), key)).toBe(true);
    expect(listedIn(answer(200, '{"data":[{"id":8}]}'), key)).toBe(false);
  });

  it('has a next page from its Link header or its envelope, only on the same path', () => {
    expect(nextPage(answer(200, '[]', { link: '</gardens?page=2>; rel="next"' }), '/gardens')).toBe('/gardens?page=2');
    expect(nextPage(answer(200, '{"links":{"self":"/gardens","next":"/gardens?after=x"}}'), '/gardens')).toBe('/gardens?after=x');
    expect(nextPage(answer(200, '{"next":"http://elsewhere/gardens?page=2"}'), '/gardens?page=1')).toBe('/gardens?page=2');
    expect(nextPage(answer(200, '{"links":{"next":"/other"}}'), '/gardens')).toBeUndefined();
    expect(nextPage(answer(200, '{"links":{"self":"/gardens"}}'), '/gardens')).toBeUndefined();
  });
});

describe('the resource after an update', () => {
  it('merges a merge patch (RFC 7396: null removes), and a partial object member by member (a null left out)', () => {
    expect(JSON.parse(updatedResource('{"name":"A","soil":"loam","notes":"n"}', '{"name":"B","soil":null}', true))).toEqual({ name: 'B', notes: 'n' });
    expect(JSON.parse(updatedResource('{"name":"A","soil":"loam"}', '{"soil":null,"notes":"m"}', false))).toEqual({ name: 'A', notes: 'm' });
  });
});

describe('the garden journal\'s resource walks', () => {
  it('are the gardens (their key from a link) and the beds under them (inferred, the garden created first)', () => {
    expect(resourceWalksOf(garden).map((w) => [w.pattern.collection, w.parents.map((p) => p.collection), w.inferred])).toEqual([
      ['/gardens', [], false],
      ['/gardens/{gardenId}/beds', ['/gardens'], true],
    ]);
  });

  it('make a sequence whose later steps wait for the keys the server assigns', () => {
    const beds = resourceWalksOf(garden)[1];
    if (beds === undefined) throw new Error('the garden journal nests beds');
    const read = resourceSequence(garden, beds, 'update-then-read', { parents: ['{"name":"Plot"}'], created: '{"label":"North","crop":"beans"}', second: '{"crop":"peas"}' }, { token: TEST_TOKEN, profile: 'reference' });
    expect(read.setup.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gardens', 'POST /gardens/__key0__/beds', 'PATCH /gardens/__key0__/beds/__key1__']);
    expect(read.setup[2]?.headers['content-type']).toBe('application/merge-patch+json');
    expect([read.path, read.link?.expects, read.link?.resource, read.link?.key]).toEqual(['/gardens/__key0__/beds/__key1__', 'updated', '{"label":"North","crop":"peas"}', { property: 'id', text: '__key1__' }]);
    expect(read.bindings?.map((b) => b.step)).toEqual([0, 1]);
  });

  it('judge a PATCH that replaced, and a key that changed on read', () => {
    const gardens = resourceWalksOf(garden)[0];
    if (gardens === undefined) throw new Error('the garden journal has gardens');
    const sequence = resourceSequence(garden, gardens, 'update-then-read', { parents: [], created: '{"name":"Plot","soil":"loam"}', second: '{"name":"Bed"}' }, { token: TEST_TOKEN, profile: 'reference' });
    const read = { ...sequence, path: '/gardens/0a', link: { ...(sequence.link as NonNullable<typeof sequence.link>), key: { property: 'id', text: '0a' } } };
    expect(judgeExchange('update-visible', read, answer(200, '{"id":"0a","name":"Bed","soil":"loam","createdAt":"2026-01-01T00:00:00Z"}'), garden)).toEqual([]);
    expect(judgeExchange('update-visible', read, answer(200, '{"id":"0a","name":"Bed","createdAt":"2026-01-01T00:00:00Z"}'), garden).map((f) => f.message)).toEqual([expect.stringContaining('soil is "loam" but came back as nothing')]);
    expect(judgeExchange('update-visible', read, answer(200, '{"id":"0b","name":"Bed","soil":"loam","createdAt":"2026-01-01T00:00:00Z"}'), garden).map((f) => f.message)).toEqual([expect.stringContaining('a resource\'s key changed')]);
  });
});

describe("the walk's patch", () => {
  const options = { token: TEST_TOKEN, profile: 'reference' } as const;
  const gardens = resourceWalksOf(garden)[0];
  if (gardens === undefined) throw new Error('the garden journal has gardens');
  const patchOf = (sequence: ReturnType<typeof resourceSequence>): Record<string, unknown> => JSON.parse(Buffer.from(sequence.setup.at(-1)?.body ?? []).toString()) as Record<string, unknown>;

  it('leaves out a member the garden holds where it drew them all, so that a replace shows', () => {
    const sequence = resourceSequence(garden, gardens, 'update-then-read', { parents: [], created: '{"name":"Plot","soil":"loam"}', second: '{"name":"Bed","soil":"clay","notes":"n"}' }, options);
    // name is the create's required member: soil, optional in both, is the one left out.
    expect(patchOf(sequence)).toEqual({ name: 'Bed', notes: 'n' });
    expect(JSON.parse(sequence.link?.resource ?? '{}')).toEqual({ name: 'Bed', soil: 'loam', notes: 'n' });
    // A patch that already leaves one out is sent as drawn; one of required members only too.
    expect(patchOf(resourceSequence(garden, gardens, 'update-then-read', { parents: [], created: '{"name":"Plot","soil":"loam"}', second: '{"notes":"m"}' }, options))).toEqual({ notes: 'm' });
    expect(patchOf(resourceSequence(garden, gardens, 'update-then-read', { parents: [], created: '{"name":"Plot"}', second: '{"name":"Bed"}' }, options))).toEqual({ name: 'Bed' });
  });

  it('leaves out a member whose null would leave a bed the item schema refuses, where the stored bed is known', () => {
    // The journal with its beds patched by a partial JSON object only: a null crop may be stored,
    // and a bed's crop is a string, so a server must refuse it (oracle/patch-results.ts).
    const document = parseYaml(readFileSync(fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url)), 'utf8')) as { paths: Record<string, { patch: { requestBody: { content: Record<string, unknown> } } }> };
    const update = document.paths['/gardens/{gardenId}/beds/{bedId}']?.patch.requestBody.content ?? {};
    Reflect.deleteProperty(update, 'application/merge-patch+json');
    const jsonOnly = compileContract(document, '<garden journal, beds patched by JSON only>');
    const beds = resourceWalksOf(jsonOnly)[1];
    if (beds === undefined) throw new Error('the garden journal nests beds');
    const sequence = resourceSequence(jsonOnly, beds, 'update-then-read', { parents: ['{"name":"Plot"}'], created: '{"label":"North","crop":"beans","lengthCm":3}', second: '{"label":"South","crop":null}' }, options);
    expect(sequence.setup.at(-1)?.headers['content-type']).toBe('application/json');
    expect(patchOf(sequence)).toEqual({ label: 'South' });
    expect(JSON.parse(sequence.link?.resource ?? '{}')).toEqual({ label: 'South', crop: 'beans', lengthCm: 3 });
    // Under a merge patch the null deletes the optional crop: a bed all the same, sent as drawn.
    const merged = resourceSequence(garden, resourceWalksOf(garden)[1] ?? beds, 'update-then-read', { parents: ['{"name":"Plot"}'], created: '{"label":"North","crop":"beans","lengthCm":3}', second: '{"label":"South","crop":null}' }, options);
    expect(patchOf(merged)).toEqual({ label: 'South', crop: null });
  });

  it('for any seed, names a strict subset of the created garden\'s members whenever it holds an optional one', () => {
    const seed = Date.now() % 100_000;
    console.log(`the walk's patch: seed ${seed}`);
    const arbitrary = resourceSequenceArbitrary(garden, [{ walk: gardens, shape: 'update-then-read' }], options);
    fc.assert(
      fc.property(arbitrary, (sequence) => {
        const created = JSON.parse(Buffer.from(sequence.setup[0]?.body ?? []).toString()) as Record<string, unknown>;
        const optional = Object.keys(created).filter((name) => name !== 'name');
        return optional.length === 0 || Object.keys(created).some((name) => !Object.hasOwn(patchOf(sequence), name));
      }),
      { seed, numRuns: 200 },
    );
  });
});
