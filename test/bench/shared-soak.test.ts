/**
 * `npm run soak -- --store redis://…` (bench/shared-soak.ts) for two seconds against a real
 * redis-server: two `serve --store` processes, every write read through the other one; it passes
 * only with no mismatch, and says so in its figure. The bench's own build (dist/bench) is run, as
 * `npm run soak` runs it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_REDIS, REDIS_SKIP, startRedis, type RunningRedis } from '../support/redis.js';

const SOAK = fileURLToPath(new URL('../../dist/bench/soak.js', import.meta.url));
const GARDENS = fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url));

function soak(args: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SOAK, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      resolve({ code, out });
    });
  });
}

describe.skipIf(!HAS_REDIS)(HAS_REDIS ? 'the shared store\'s soak' : `the shared store's soak: skipped, ${REDIS_SKIP}`, () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    if (!existsSync(SOAK)) throw new Error('dist/bench is missing: run `npm run build` (npm test does)');
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it.each([
    ['the full store (a client int64 key; create, replace, delete)', []],
    ['the garden journal (a server UUID; PATCH too; the nested beds named as skipped)', ['--contract', GARDENS]],
  ] as const)('%s: every write is read through the other process as acknowledged, and the figure says so', async (_name, extra) => {
    const { code, out } = await soak(['--store', redis.url, '--duration', '2', '--connections', '4', '--seed', '7', ...extra]);
    expect(out).toMatch(/\d+ operations in [\d.]+ s = \d+ operations\/s through two processes, [1-9]\d* of them reads through the other process/);
    expect(out).toContain('mismatches 0; 5xx 0, connection failures 0, valid writes refused 0');
    expect(out).toContain('PASS  every write read through the other process as acknowledged');
    expect(code, out).toBe(0);
  });
});
