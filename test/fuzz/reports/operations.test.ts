/**
 * A row per operation in every report (issue 29, item 9), from real runs against the kit's
 * reference: the requests sent to each operation, the checks that judged them, the ones that did
 * not and why, the media types not checked and the operations not reached for lack of credentials.
 * The JSON report holds the rows (report.operations); text, JUnit and HTML show the same rows.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/openapi/index.js';
import { formatReport, runConformance, type Report } from '../../../fuzz/index.js';
import { toJUnit } from '../../../fuzz/reports/conform-junit.js';
import { toHtml } from '../../../fuzz/reports/html-report.js';
import { startReference, TEST_TOKEN } from '../../support/servers.js';

const shed = loadContract(resolve(import.meta.dirname, '../../conformance/fixtures/shed-keys.yaml'));
const media = loadContract(resolve(import.meta.dirname, '../../media-types/fixtures/media.yaml'));
const credentials = { shedKey: 'shed-key-4711', shedBasic: 'ann:pw-1' };
const seed = 20240611;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** A short run: the coverage phase only, which sends each operation its requests. */
async function coverageRun(contract: typeof shed, given: Readonly<Record<string, string>>, served: Readonly<Record<string, string>> = given): Promise<Report> {
  const server = await startReference({ contract, credentials: served });
  closers.push(() => server.close());
  console.log(`seed ${seed}`);
  return runConformance({ baseUrl: server.url, contract, credentials: given, ...(Object.keys(given).length === 0 ? { token: TEST_TOKEN } : {}), seed, runs: 10, phases: ['coverage'], shrinkTimeMs: 1000, timeoutMs: 2500 });
}

let unreached: Report;
let unchecked: Report;
beforeAll(async () => {
  // Without the basic credentials deleteTool, which needs both schemes, cannot be reached.
  unreached = await coverageRun(shed, { shedKey: credentials.shedKey }, credentials);
  unchecked = await coverageRun(media, {});
}, 120_000);

const rowOf = (report: Report, operationId: string) => report.operations?.find((row) => row.operation.startsWith(`${operationId} (`));

describe('report.operations: a row per operation of the contract', () => {
  it('counts the requests each operation got, and the checks that judged them, adding up to the run', () => {
    const rows = unreached.operations ?? [];
    expect(rows.map((row) => row.operation)).toEqual(shed.operations.map((op) => `${op.operationId} (${op.method} ${op.path})`));
    const addTool = rowOf(unreached, 'addTool');
    expect(addTool?.requests).toBeGreaterThan(0);
    expect(addTool?.checks['rejects-invalid']).toBeGreaterThan(0);
    // No row counts more requests than the run sent, and each check's requests are within the run's.
    expect(rows.reduce((n, row) => n + row.requests, 0)).toBeLessThanOrEqual(unreached.requests);
    for (const [name, judged] of Object.entries(addTool?.checks ?? {})) expect(judged).toBeLessThanOrEqual(unreached.checks[name as keyof Report['checks']].requests);
  });

  it('names an operation the run could not reach as not tested, its checks not applicable for that reason', () => {
    const row = rowOf(unreached, 'deleteTool');
    expect(row?.notTested).toContain('shedKey and shedBasic');
    expect(row?.requests).toBe(0);
    expect(row?.notApplicable.some(({ reason }) => reason.startsWith('not tested: '))).toBe(true);
    expect(rowOf(unreached, 'addTool')?.notTested).toBeUndefined();
  });

  it('names, per operation, each declared media type the kit cannot check', () => {
    expect(rowOf(unchecked, 'getReport')?.notChecked).toEqual(["the 200 answer's application/xml body is not checked (no codec reads it)"]);
    expect(rowOf(unchecked, 'getCount')?.notChecked).toEqual([]);
  });

  it('the text report has a line per operation', () => {
    const text = formatReport(unreached);
    expect(text).toMatch(/Per operation:\n {2}addTool \(POST \/tools\): \d+ requests, \d+ checks applied/);
    expect(text).toContain('deleteTool (DELETE /tools/{toolId}): 0 requests, 0 checks applied; not tested: ');
    expect(formatReport(unchecked)).toMatch(/getReport \(GET [^)]*\): \d+ requests, \d+ checks applied; not checked: the 200 answer's application\/xml body/);
  });

  it('JUnit has a suite of a case per operation: skipped where not tested, the row printed where tested', () => {
    const xml = toJUnit(unreached);
    const operations = xml.slice(xml.indexOf('<testsuite name="operations"'));
    expect(operations).toMatch(/^<testsuite name="operations" tests="3" failures="0" errors="0" skipped="1"/);
    expect(operations).toMatch(/<testcase classname="plant-store\.conform\.operation" name="deleteTool \(DELETE \/tools\/\{toolId\}\)" time="0">\n\s*<skipped message="not tested: [^"]*shedKey and shedBasic/);
    expect(operations).toMatch(/name="addTool \(POST \/tools\)" time="0">\n\s*<system-out>\d+ requests sent\nchecks applied \(requests judged\): [^\n]*rejects-invalid \d+/);
    // The suites' total counts both suites; the checks' suite is as before.
    expect(xml).toContain(`<testsuites name="plant-store conform" tests="${Object.keys(unreached.checks).length + 3}"`);
    expect(toJUnit(unchecked)).toContain("not checked: the 200 answer's application/xml body");
  });

  it('HTML has an operations table: a row each, with its requests, checks, reasons and what was not checked', () => {
    const page = toHtml(unreached);
    const table = page.slice(page.indexOf('<table class="operations">'), page.indexOf('</table>', page.indexOf('<table class="operations">')));
    expect(table.match(/<tr class="/g)).toHaveLength(3);
    expect(table).toMatch(/<th scope="row"><code>addTool \(POST \/tools\)<\/code><\/th><td class="n">[1-9]\d*<\/td>/);
    expect(table).toContain('not tested: ');
    expect(page).toContain('<a href="#operations">Operations</a>');
    expect(toHtml(unchecked)).toContain('application/xml body is not checked');
  });
});
