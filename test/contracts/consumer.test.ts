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
import { parseJson } from '../../src/openapi/index.js';
import { createPlant, type CreatePlantResult } from '../../contracts/client.js';
import { consumerPact, defaultPactDir, interactions, pactFileIn, runAgainstMock, type ConsumerInteraction } from '../../contracts/consumer-contract.js';
import { lintPactFiles, formatFindings, pactFiles } from '../../contracts/pact-lint.js';

const pactDir = defaultPactDir();
// Only this file writes contracts/pacts/, so cleaning it cannot race another test file.
rmSync(pactDir, { recursive: true, force: true });
const pact = consumerPact(pactDir);
/** A token that exists only in this run: the pact must not contain it. */
const token = randomBytes(12).toString('base64url');

function interaction(description: string): ConsumerInteraction {
  const found = interactions.find((i) => i.description === description);
  if (!found) throw new Error(`no interaction "${description}"`);
  return found;
}

function exercise(description: string): Promise<CreatePlantResult | undefined> {
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
