/**
 * Pact on bodies other than JSON (issue 29, item 5): `plant-store verify --contract` records an
 * interaction per operation whose body Pact V4 can hold - a form (seed-exchange's offerSeed,
 * media.yaml's postForm), text (media.yaml's addNote) - and verifies it against the target; for an
 * operation it cannot hold (multipart, binary, a media type no codec writes) it says so, by
 * operation, in the output. The CLI runs from dist/ (npx tsc -p tsconfig.build.json first).
 */
import { once } from 'node:events';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, openContract, type Contract } from '../../src/openapi/index.js';
import { recordPacts } from '../../contracts/consumer-contract.js';
import { run as runCli } from '../support/cli.js';
import { startFaulty, startReference, type Fault } from '../support/servers.js';

const SEEDS = resolve(import.meta.dirname, '../../examples/contracts/seed-exchange.yaml');
const MEDIA = resolve(import.meta.dirname, '../media-types/fixtures/media.yaml');
const KEYS = { swapKey: 'k1', swapQueryKey: 'k1' };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
}

/** `plant-store verify <args>` (test/support/cli.ts), read once its output is closed. */
async function verify(args: readonly string[]): Promise<Run> {
  const started = runCli(['verify', ...args]);
  const [code] = (await once(started.child, 'close')) as [number | null];
  return { code, stdout: started.stdout() };
}

const summary = (run: Run): string => run.stdout.slice(run.stdout.indexOf('plant-store verify:'));

let seeds: Contract;
let media: Contract;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  seeds = await openContract(SEEDS);
  media = loadContract(MEDIA);
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function served(contract: Contract, fault?: Fault): Promise<string> {
  const options = { contract, ...(contract === seeds ? { credentials: KEYS } : {}) };
  const server = fault === undefined ? await startReference(options) : await startFaulty(fault, options);
  closers.push(() => server.close());
  return server.url;
}

/** The JSON answer to a form post with one member left out: the field taken from the form and dropped. */
const dropsVariety: Fault = (_request, correct) => {
  const answer = correct();
  if (answer.status !== 201) return answer;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  delete body.variety;
  return { ...answer, body: JSON.stringify(body) };
};

/** Text answered as JSON: the right words, labelled with another media type. */
const textAsJson: Fault = (request, correct) => {
  const answer = correct();
  return request.url.startsWith('/notes') ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' } } : answer;
};

describe('plant-store verify --contract on bodies other than JSON', () => {
  it('records the form operation of seed-exchange and verifies it; names the multipart operation as not recorded', { timeout: 120_000 }, async () => {
    const url = await served(seeds);
    const run = await verify(['--base-url', url, '--contract', SEEDS, '--auth', 'swapKey=k1']);
    expect(summary(run), run.stdout).toContain(`plant-store verify: the one interaction holds against ${url}`);
    expect(run.stdout).toContain('a request to offerSeed with a body of application/x-www-form-urlencoded');
    expect(run.stdout).toContain('Operations the consumer contract holds no interaction of:\n  uploadPacketPhoto (POST /seeds/{id}/packet-photo): Pact V4 matches multipart/form-data only as a single file part');
    expect(run.code).toBe(0);
  });

  it('fails a target that drops a form field from what it keeps', { timeout: 120_000 }, async () => {
    const run = await verify(['--base-url', await served(seeds, dropsVariety), '--contract', SEEDS, '--auth', 'swapKey=k1']);
    expect(summary(run), run.stdout).toMatch(/1 of 1 interactions failed[\s\S]*body \$: Actual map is missing the following keys: variety/);
    expect(run.code).toBe(1);
  });

  it('records a text and a form operation, verifies both, and names the binary and */* operations as not recorded', { timeout: 120_000 }, async () => {
    const url = await served(media);
    const run = await verify(['--base-url', url, '--contract', MEDIA]);
    expect(summary(run), run.stdout).toContain(`plant-store verify: all 2 interactions hold against ${url}`);
    expect(run.stdout).toContain('putBlob (PUT /blobs): Pact V4 compares a binary body (application/octet-stream) by its content type only');
    expect(run.stdout).toContain('getAnything (GET /anything): its 200 answer: the kit has no codec that writes */*');
    expect(run.code).toBe(0);
    const broken = await verify(['--base-url', await served(media, textAsJson), '--contract', MEDIA]);
    expect(summary(broken)).toMatch(/1 of 2 interactions failed[\s\S]*a request to addNote with a body of text\/plain[\s\S]*header Content-Type/i);
    expect(broken.code).toBe(1);
  });

  it('writes the bodies into the pact as the media type carries them: form fields and text, not JSON', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-media-pacts-'));
    try {
      const pact = JSON.parse(readFileSync(await recordPacts(dir, media), 'utf8')) as { interactions: { description: string; request: { body?: { contentType: string; content: string } } }[] };
      const bodies = Object.fromEntries(pact.interactions.map((i) => [i.description, i.request.body]));
      expect(bodies['a request to postForm with a body of application/x-www-form-urlencoded']).toMatchObject({ contentType: 'application/x-www-form-urlencoded', content: expect.stringMatching(/^name=[^&]*$/) as unknown });
      expect(bodies['a request to addNote with a body of text/plain']?.contentType).toBe('text/plain');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
