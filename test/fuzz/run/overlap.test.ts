import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../fuzz/reports/text.js';
import { runConformance } from '../../../fuzz/run/runner.js';
import { OVERLAP_REQUESTS } from '../../../fuzz/run/overlap.js';
import { OVERLAP_FAULTS } from '../../faulty/overlap-faults.js';
import type { ServerResponse } from 'node:http';
import { stringifyJson, type JsonObject, type JsonValue } from '../../../src/openapi/index.js';
import { objectBodyOf, responseObject, withBody } from '../../faulty/helpers.js';
import { fullStore } from '../../support/contracts.js';
import { startFaulty, startReference, TEST_TOKEN, type Fault } from '../../support/servers.js';

const SEEDS = [1, 7, 20240611];

async function overlapRun(url: string, seed: number): ReturnType<typeof runConformance> {
  return runConformance({ baseUrl: url, token: TEST_TOKEN, seed, phases: ['overlap'], timeoutMs: 2500 });
}

describe('the overlap phase', () => {
  for (const fault of OVERLAP_FAULTS) {
    it(`catches ${fault.name} by ${fault.caughtBy} (seeds ${SEEDS.join(', ')})`, async () => {
      const server = await fault.start();
      try {
        for (const seed of SEEDS) {
          const report = await overlapRun(server.url, seed);
          const finding = report.failures.find((f) => f.check === fault.caughtBy);
          expect(finding, `seed ${seed}`).toMatchObject({ phase: 'overlap' });
          // Alone, there is no overlap: the label says so rather than hiding it.
          expect(finding?.replays?.reproduced, `seed ${seed}`).toBe(0);
          expect(formatReport(report)).toMatch(/seen \d+ times in the run, reproduced 0 of \d alone/);
        }
      } finally {
        await server.close();
      }
    }, 60_000);
  }

  it('passes the reference, every request of every group answered', async () => {
    const server = await startReference();
    try {
      const report = await overlapRun(server.url, 1);
      expect(report.failures).toEqual([]);
      // The canary's readings besides.
      expect(report.phases.overlap?.requests).toBeGreaterThanOrEqual(OVERLAP_REQUESTS);
      expect(report.checks['accepts-valid'].requests).toBeGreaterThanOrEqual(OVERLAP_REQUESTS);
    } finally {
      await server.close();
    }
  }, 60_000);

  describe('with a contract whose create links to a read (the example full store)', () => {
    const contract = fullStore();
    const run = (url: string): ReturnType<typeof runConformance> => runConformance({ baseUrl: url, token: TEST_TOKEN, contract, seed: 3, phases: ['overlap'], timeoutMs: 2500 });

    it('reads the resource after the writes in flight together: the reference answers one of them', async () => {
      const server = await startReference({ contract });
      try {
        const report = await run(server.url);
        expect(report.failures, formatReport(report)).toEqual([]);
        expect(report.checks['resource-available'].requests).toBe(1);
      } finally {
        await server.close();
      }
    }, 60_000);

    it('catches a store that answers each write as sent but stores its fields apart: the read shows a mix (resource-available)', async () => {
      const server = await startFaulty(storedFieldByField(), { contract });
      try {
        const report = await run(server.url);
        const finding = report.failures.find((f) => f.check === 'resource-available');
        expect(finding?.message, formatReport(report)).toMatch(/a mix of them/);
        expect(report.failures.map((f) => f.check)).toEqual(['resource-available']);
      } finally {
        await server.close();
      }
    }, 60_000);
  });
});

/**
 * A create answered as sent, but stored with two UPDATEs in parallel, not in one transaction: the
 * name (15 ms for a tagged plant, 5 ms for an untagged one) and the tag (10 ms to set it, 20 ms to
 * delete it). Writes of one id in flight together leave a tagged plant's name without a tag. A
 * read answers the stored fields.
 */
function storedFieldByField(): Fault {
  const rows = new Map<string, { name?: JsonValue | undefined; tag?: JsonValue | undefined }>();
  const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  return (request, correct) => {
    const answer = correct();
    if (request.method === 'GET') {
      const row = rows.get(request.url.split('/').pop() ?? '');
      const plant = responseObject(answer);
      if (row === undefined || plant === undefined || answer.status !== 200) return answer;
      const read: JsonObject = { ...plant, name: row.name ?? null };
      delete read.tag;
      return withBody(answer, row.tag === undefined ? read : { ...read, tag: row.tag });
    }
    const sent = objectBodyOf(request);
    if (request.method !== 'POST' || answer.status !== 200 || sent?.id === undefined) return answer;
    const row = rows.get(stringifyJson(sent.id)) ?? {};
    rows.set(stringifyJson(sent.id), row);
    const tagged = Object.hasOwn(sent, 'tag');
    const name = after(tagged ? 15 : 5).then(() => {
      row.name = sent.name;
    });
    const tag = after(tagged ? 10 : 20).then(() => {
      if (tagged) row.tag = sent.tag;
      else delete row.tag;
    });
    return (res: ServerResponse) => {
      void Promise.all([name, tag]).then(() => {
        res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
        res.end(answer.body);
      });
    };
  };
}
