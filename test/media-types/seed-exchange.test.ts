/**
 * `serve --contract` and `mock --contract` (Prism) on examples/contracts/seed-exchange.yaml, an
 * OpenAPI 3.0.3 contract with API keys in a header and the query, a form create, a multipart
 * upload with a binary part and problem+json errors, over real sockets: both start and answer
 * each operation as declared. The reference also stores a form as sent (int64 exact), nothing of
 * one that breaks a constraint, and takes an upload a real client's FormData encodes.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContract, parseJson, type Contract } from '../../src/openapi/index.js';
import { listening, stopped, type Listening } from '../support/cli.js';

const FILE = fileURLToPath(new URL('../../examples/contracts/seed-exchange.yaml', import.meta.url));
const KEYS = ['--auth', 'swapKey=k1', '--auth', 'swapQueryKey=k2'];
const PNG = Uint8Array.from({ length: 256 }, (_, i) => i);

let contract: Contract;
beforeAll(async () => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  contract = await openContract(FILE);
});

async function started(command: 'serve' | 'mock'): Promise<Listening> {
  return listening([command, '--port', '0', ...KEYS, '--contract', FILE]);
}

/** The form a browser would post for an offer. */
function offer(id: string, packets: string): URLSearchParams {
  return new URLSearchParams([['id', id], ['variety', 'Cherokee Purple & Brandywine +1'], ['packets', packets], ['organic', 'true'], ['sowingMonths', '3,4,5']]);
}

/** An upload as undici's FormData encodes it: a binary file part, a caption, a JSON part. */
function upload(): FormData {
  const form = new FormData();
  form.append('photo', new Blob([PNG], { type: 'image/png' }), 'packet.png');
  form.append('caption', 'Saved from 2024, still sprouting');
  form.append('grownAt', new Blob(['{"town":"Hebden Bridge","altitudeMetres":120}'], { type: 'application/json' }));
  return form;
}

describe.each(['serve', 'mock'] as const)('%s --contract examples/contracts/seed-exchange.yaml', (command) => {
  let server: Listening | undefined;
  beforeAll(async () => {
    server = await started(command);
  }, 40_000);
  afterAll(() => stopped([server?.ran]));

  /** An answer, checked against what the operation declares for its status (a body its schema accepts). */
  const call = async (operationId: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> => {
    const answer = await fetch(`${server?.url ?? ''}${path}`, init);
    const text = await answer.text();
    const operation = contract.operations.find((candidate) => candidate.operationId === operationId);
    const declared = operation?.response(answer.status);
    expect(declared, `${operationId} answered ${answer.status}: ${text}`).toBeDefined();
    const value = text === '' ? undefined : parseJson(text);
    const validation = declared?.validateBody?.(value ?? null);
    expect(validation?.valid ?? true, `${operationId} ${answer.status}: ${text}`).toBe(true);
    return { status: answer.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const withKey = { 'x-swap-key': 'k1' };

  it('answers each operation as declared, with the key in a header or the query', async () => {
    expect((await call('offerSeed', '/seeds', { method: 'POST', headers: withKey, body: offer('9007199254740993', '3') })).status).toBe(201);
    expect((await call('listSeeds', '/seeds?key=k2')).status).toBe(200);
    expect((await call('getSeed', command === 'serve' ? '/seeds/9007199254740993' : '/seeds/1', { headers: withKey })).status).toBe(200);
    expect((await call('uploadPacketPhoto', '/seeds/1/packet-photo?key=k2', { method: 'POST', body: upload() })).status).toBe(202);
    expect((await call('listSeeds', '/seeds')).status).toBe(401);
  });

  it('refuses a form that breaks a constraint, and a multipart body without its boundary', async () => {
    // The reason, in whichever property the error body gives it (the refusal's shape is the contract's).
    const broken = await call('offerSeed', '/seeds', { method: 'POST', headers: withKey, body: offer('12', '0') });
    expect([broken.status, JSON.stringify(broken.body)]).toEqual([400, expect.stringContaining('packets: must be >= 1')]);
    const missing = await call('uploadPacketPhoto', '/seeds/1/packet-photo', { method: 'POST', headers: { ...withKey, 'content-type': 'multipart/form-data' }, body: '--x\r\n\r\n--x--' });
    expect([missing.status, JSON.stringify(missing.body)]).toEqual([400, expect.stringContaining('no boundary parameter')]);
  });

  it.runIf(command === 'serve')('stores the form as sent, int64 exact, and nothing of a refused one', async () => {
    const stored = await fetch(`${server?.url ?? ''}/seeds/9007199254740993?key=k2`);
    expect(await stored.text()).toBe('{"id":9007199254740993,"variety":"Cherokee Purple & Brandywine +1","packets":3,"organic":true,"sowingMonths":[3,4,5]}');
    expect((await call('getSeed', '/seeds/12', { headers: withKey })).status).toBe(404);
  });
});
