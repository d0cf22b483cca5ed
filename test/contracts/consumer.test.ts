/**
 * Consumer tests: the typed client against Pact's mock server, one interaction at a time. Each
 * run starts from an empty contracts/pacts/ and leaves there the pact that `npm run pact:publish`
 * publishes; the last test checks that pact (it runs after the others: tests of a file run in order).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadContract, parseJson, type Contract } from '../../src/openapi/index.js';
import { createPlant, type AnyResult } from '../../contracts/client.js';
import { consumerInteractions, consumerPact, defaultPactDir, pactFileIn, runAgainstMock, type ConsumerInteraction } from '../../contracts/consumer-contract.js';
import { lintPactFiles, formatFindings, pactFiles } from '../../contracts/pact-lint.js';

const pactDir = defaultPactDir();
// Only this file writes contracts/pacts/, so cleaning it cannot race another test file.
rmSync(pactDir, { recursive: true, force: true });
const pact = consumerPact(pactDir);
/** A token that exists only in this run: the pact must not contain it. */
const token = randomBytes(12).toString('base64url');

const interactions = consumerInteractions();

function interaction(description: string, among: readonly ConsumerInteraction[] = interactions): ConsumerInteraction {
  const found = among.find((i) => i.description === description);
  if (!found) throw new Error(`no interaction "${description}"`);
  return found;
}

function exercise(description: string): Promise<AnyResult | undefined> {
  return runAgainstMock(interaction(description), pact, token);
}

describe('the typed client, against Pact mock server', () => {
  it('creates a plant with a tag and gets the plant as stored', async () => {
    expect(await exercise('a request to create a plant with a tag')).toEqual({ status: 200, body: { name: 'Monstera', tag: 'tropical' } });
  });

  it('creates a plant without a tag', async () => {
    expect(await exercise('a request to create a plant without a tag')).toEqual({ status: 200, body: { name: 'Fern' } });
  });

  it('replaces a stored plant (provider state "a plant is stored")', async () => {
    expect(await exercise('a request to replace a stored plant')).toEqual({ status: 200, body: { name: 'Fiddle-leaf fig', tag: 'indoor tree' } });
  });

  it('gets a 400 Error for an id beyond int64, its error a number', async () => {
    expect(await exercise('a request with an id beyond int64')).toEqual({ status: 400, body: { error: 400, message: 'id: must be an int64 integer' } });
  });

  it('gets a 401 Error without credentials', async () => {
    expect(await exercise('a request without credentials')).toEqual({ status: 401, body: { error: 401, message: 'authorization: missing bearer credentials' } });
  });

  it('wrote one pact: every interaction, no real token, inside openapi.yaml', () => {
    const files = pactFiles(pactDir);
    expect(files).toEqual([pactFileIn(pactDir)]);
    const text = readFileSync(pactFileIn(pactDir), 'utf8');
    expect(text).not.toContain(token);
    const written = parseJson(text) as { interactions: { description: string }[] };
    expect(written.interactions.map((i) => i.description).sort()).toEqual(interactions.map((i) => i.description).sort());
    const findings = lintPactFiles(files);
    expect(findings, formatFindings(findings)).toEqual([]);
  });
});

describe('the consumer contract of the full-store example: an interaction per operation', () => {
  const contract: Contract = loadContract(fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url)));
  const full = consumerInteractions(contract);
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
  let fullPact: ReturnType<typeof consumerPact>;
  beforeAll(() => {
    fullPact = consumerPact(dir);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const run = (description: string): Promise<AnyResult | undefined> => runAgainstMock(interaction(description, full), fullPact, token);

  it("keeps the create operation's interactions and adds list, read, replace and delete", () => {
    expect(full.map((i) => i.description)).toEqual([
      ...interactions.map((i) => i.description),
      'a request to list the plants',
      'a request to read a stored plant',
      'a request to read a plant that is not stored',
      'a request to replace a stored plant at its own path',
      'a request to delete a stored plant',
    ]);
  });

  it.each<[string, AnyResult]>([
    ['a request to create a plant with a tag', { status: 200, body: { name: 'Monstera', tag: 'tropical' } }],
    ['a request without credentials', { status: 401, body: { error: 401, message: 'authorization: missing bearer credentials' } }],
    // int64 as bigint in the typed answer; the list's query is sent typed (limit an int32, tag a string).
    ['a request to list the plants', { status: 200, body: [{ name: 'Ficus', id: 3n, tag: 'indoor' }] }],
    ['a request to read a stored plant', { status: 200, body: { name: 'Ficus', id: 3n, tag: 'indoor' } }],
    ['a request to read a plant that is not stored', { status: 404, body: { error: 404, message: 'id: no plant 1 in the store' } }],
    ['a request to replace a stored plant at its own path', { status: 200, body: { name: 'Fiddle-leaf fig', id: 3n, tag: 'indoor tree' } }],
    ['a request to delete a stored plant', { status: 204, body: undefined }],
  ])('%s: the typed client gets what the pact promises', async (description, expected) => {
    expect(await run(description)).toEqual(expected);
  });

  it('wrote a pact inside the full-store contract, and outside the bundled one', () => {
    const findings = lintPactFiles(pactFiles(dir), contract);
    expect(findings, formatFindings(findings)).toEqual([]);
    const outside = lintPactFiles(pactFiles(dir)).filter((f) => f.rule === 'operation-declared');
    expect(outside.map((f) => f.interaction).sort()).toEqual(['a request to delete a stored plant', 'a request to list the plants', 'a request to read a plant that is not stored', 'a request to read a stored plant', 'a request to replace a stored plant at its own path']);
    const written = readFileSync(pactFileIn(dir), 'utf8');
    const listed = (parseJson(written) as { interactions: { description: string; request: { query?: unknown } }[] }).interactions.find((i) => i.description === 'a request to list the plants');
    expect(listed?.request.query).toEqual({ limit: ['1'], tag: ['indoor'] });
  });
});

describe('a consumer test fails when the client does not do what the pact says', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
  let other: ReturnType<typeof consumerPact>;
  beforeAll(() => {
    other = consumerPact(elsewhere);
  });
  afterAll(() => {
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('reports a request whose body is not the one declared, with the mismatch', async () => {
    const run = interaction('a request to create a plant with a tag')
      .addTo(other)
      .executeTest(async (mock) => {
        // Pact's mock answers an unexpected request with a 500, which the client rejects as outside the contract.
        await expect(createPlant(mock.url, token, { name: 'Monstera', id: 1n, tag: 'temperate' })).rejects.toThrow(/answered 500/);
      });
    await expect(run).rejects.toThrow(/\$\.tag: Expected 'temperate' \(String\) to be equal to 'tropical'/);
  });
});
