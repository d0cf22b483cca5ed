/**
 * The start-up bench's large contract (bench/large-contract.ts): the same document on every call,
 * about 600 KB of YAML, 170 operations, and a contract the kit reads whole - upgraded from 3.0,
 * compiled, nothing refused - so that its start-up figure is the figure of a contract that serves.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeContract, writeLargeContract } from '../../bench/large-contract.js';
import { openContract } from '../../src/openapi/index.js';

describe('the large contract of the start-up bench', () => {
  it('is deterministic, about 600 KB, and read whole as 170 operations', async () => {
    expect(largeContract()).toEqual(largeContract());
    const file = writeLargeContract();
    const again = writeLargeContract();
    try {
      const size = statSync(file).size;
      expect(size).toBeGreaterThan(550_000);
      expect(size).toBeLessThan(650_000);
      expect(readFileSync(file, 'utf8')).toBe(readFileSync(again, 'utf8'));
      const contract = await openContract(file);
      expect(contract.operations).toHaveLength(170);
      expect(contract.writtenIn).toBe('OpenAPI 3.0.3, read as 3.1');
      expect(contract.unchecked).toEqual([]);
    } finally {
      for (const written of [file, again]) rmSync(dirname(written), { recursive: true, force: true });
    }
  });
});

