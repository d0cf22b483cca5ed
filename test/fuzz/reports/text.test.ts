/** A finished run as text and as JUnit XML: every check a line, each finding with its request, response and replay command. */
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, type CheckName } from '../../../oracle/index.js';
import { toJUnit } from '../../../fuzz/reports/conform-junit.js';
import { formatReport } from '../../../fuzz/reports/text.js';
import type { CheckSummary, Report, ReportedFinding } from '../../../fuzz/run/record.js';



/** Every check of the registry exercised without a finding, but for the ones given. */
function checks(overrides: Partial<Record<CheckName, Partial<CheckSummary>>>): Record<CheckName, CheckSummary> {
  return Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 1100, failures: 0, warnings: 0, ...overrides[name] }])) as Record<CheckName, CheckSummary>;
}

const echoFailure: ReportedFinding = {
  check: 'echo',
  severity: 'failure',
  message: 'name was sent as "a\u0000<b>" but came back as "a"',
  phase: 'random',
  request: { method: 'POST', url: 'http://127.0.0.1:3000/plants', kind: 'valid', variant: 'a valid body', content: 'valid', credentials: 'valid', headers: {}, body: '{"name":"a\u0000<b>","id":0}', bodyEncoding: 'utf8', bodyBytes: 24 },
  setup: [],
  curl: "curl -sS -i -X POST 'http://127.0.0.1:3000/plants'",
  response: { kind: 'response', status: 200, headers: { 'content-type': 'application/json' }, body: '{"name":"a","id":0}', bodyBytes: 19, durationMs: 1 },
  occurrences: 3,
  reproduced: true,
  shrinks: 12,
  seed: 42,
  path: '17:1:2',
};

const report: Report = {
  target: 'http://127.0.0.1:3000/',
  contract: { title: 'OpenAPI Plant Store', version: '1.0.0', file: '/kit/openapi.yaml', bundled: true },
  profile: 'reference',
  seed: 42,
  runs: 1000,
  requests: 1100,
  kinds: { valid: 500, 'invalid-body': 300, 'malformed-json': 100, 'bad-media-type': 80, 'bad-auth': 120 },
  phases: { coverage: { requests: 100, startedMs: 0, durationMs: 100 }, random: { requests: 1000, startedMs: 100, durationMs: 900 } },
  checkingMs: 1000,
  durationMs: 1500,
  requestsPerSecond: 1100,
  freshConnections: 1375,
  capacity: { target: 5000, sent: 5000, stored: 5000, refused: 0, replacementsSent: 500, replaced: 500, budgetMs: 5000, budgetHit: false, stores: true },
  responseTimes: { responses: 1100, medianMs: 0.8, p90Ms: 1.5, p99Ms: 4, maxMs: 20, histogram: [], windowMs: 100, windows: [], boundMs: 1000, maxResponseTimeMs: 1000, factor: 10, unconfirmed: 0, slowest: [] },
  degradation: { intervalMs: 150, sends: 5, readings: [] },
  checks: checks({ 'accepts-valid': { requests: 500 }, 'requires-auth': { requests: 120 }, echo: { requests: 500, failures: 3 } }),
  failures: [echoFailure],
  warnings: [],
  passed: false,
};

/** A run that kept the contract but for one hazard the contract allows. */
const warned: Report = {
  ...report,
  checks: checks({ 'accepts-valid': { requests: 500, warnings: 2 } }),
  failures: [],
  warnings: [{ ...echoFailure, check: 'accepts-valid', severity: 'warning', message: 'valid request (a lone surrogate) got 400, expected 200 (allowed: RFC 8259, section 8.2)', phase: 'coverage', occurrences: 2, shrinks: 0 }],
  passed: true,
};

describe('formatReport and toJUnit', () => {
  it('summarise every check and show each failure with its request, response and the command to replay the run', () => {
    const text = formatReport(report);
    expect(text).toMatch(/^echo\s+500\s+3\s+0\s+FAILED$/m);
    expect(text).toMatch(/^requires-auth\s+120\s+0\s+0\s+ok$/m);
    expect(text).toContain('FAILED echo: name was sent as');
    expect(text).toContain('shrunk in 12 steps');
    expect(text).toContain("curl -sS -i -X POST 'http://127.0.0.1:3000/plants'");
    expect(text).toContain('HTTP 200  content-type: application/json');
    expect(text).toContain('plant-store conform --base-url http://127.0.0.1:3000 --token "$TOKEN" --runs 1000 --seed 42');
  });

  it('say which checks do not apply and why, a line per reason, and keep "not exercised" for one that could apply', () => {
    const reason = 'the contract declares no read linked from a create';
    const none = { requests: 0, failures: 0, warnings: 0 };
    const summaries = { ...report.checks, 'resource-available': { ...none, notApplicable: reason }, 'deleted-stays-deleted': { ...none, notApplicable: reason }, 'replacement-visible': none };
    const text = formatReport({ ...report, checks: summaries });
    expect(text).toMatch(/^resource-available\s+0\s+0\s+0\s+does not apply$/m);
    expect(text).toMatch(/^replacement-visible\s+0\s+0\s+0\s+not exercised$/m);
    expect(text).toContain(`\nresource-available, deleted-stays-deleted do not apply: ${reason}\n`);
    const xml = toJUnit({ ...report, checks: summaries });
    expect(xml).toContain(`<testcase classname="plant-store.conform" name="resource-available" time="0">\n      <skipped message="does not apply: ${reason}"/>`);
    expect(xml).toContain('<testcase classname="plant-store.conform" name="replacement-visible" time="0">\n      <skipped message="no request exercised this check"/>');
    expect(formatReport(report)).not.toContain('not apply');
  });

  it('name a contract other than the kit\'s own with its file, and replay the run with it', () => {
    const contract = { title: 'Orchard', version: '0.3.0', file: "/home/a b/it's.yaml", bundled: false };
    const text = formatReport({ ...report, contract });
    expect(text.split('\n')[0]).toBe(`Orchard 0.3.0 (/home/a b/it's.yaml) at http://127.0.0.1:3000/ (profile reference, seed 42)`);
    expect(text).toContain(`plant-store conform --base-url http://127.0.0.1:3000 --token "$TOKEN" --contract '/home/a b/it'\\''s.yaml' --runs 1000 --seed 42`);
    const plain = formatReport({ ...report, contract: { ...contract, file: '/srv/orchard.yaml' } });
    expect(plain).toContain('--token "$TOKEN" --contract /srv/orchard.yaml --runs 1000 --seed 42');
    expect(toJUnit({ ...report, contract })).toContain('--contract');
    expect(formatReport(report)).not.toContain('--contract');
  });

  it('say how often a finding\'s request showed it again when replayed alone: reproduced k of n, or seen once', () => {
    const steady = formatReport({ ...report, failures: [{ ...echoFailure, replays: { reproduced: 3, of: 3 } }] });
    expect(steady).toContain('3 of 1100 requests broke echo; reproduced 3 of 3; replay with:');
    const once = { ...echoFailure, occurrences: 1, replays: { reproduced: 0, of: 3 } };
    expect(formatReport({ ...report, failures: [once] })).toContain('1 of 1100 requests broke echo; seen once (reproduced 0 of 3 replays); replay with:');
    const overlapOnly = { ...echoFailure, occurrences: 18, replays: { reproduced: 0, of: 3 } };
    expect(formatReport({ ...report, failures: [overlapOnly] })).toContain('seen 18 times in the run, reproduced 0 of 3 alone');
    const xml = toJUnit({ ...report, failures: [{ ...echoFailure, replays: { reproduced: 2, of: 3 } }] });
    expect(xml).toContain('reproduced 2 of 3');
    expect(JSON.parse(JSON.stringify({ ...report, failures: [once] })) as Report).toMatchObject({ failures: [{ replays: { reproduced: 0, of: 3 } }] });
  });

  it('say what the capacity phase stored, the connections it opened, the response times and the canary, and replay the settings a run changed', () => {
    const readings = Array.from({ length: 12 }, (_, i) => ({ afterExchanges: i * 500, startedMs: i * 150, phase: 'random' as const, durationMs: 0.4, samples: 5 }));
    const trend = { readings: 12, quartersMs: [0.4, 0.4, 0.4, 0.4], firstMs: 0.4, lastMs: 0.4, ratio: 1, z: -0.5, tau: -0.1, firstHalfZ: 0, secondHalfZ: 0, lineDeviationMs: 0, stepDeviationMs: 0, stepAt: 6, msPer1000: 0, controlled: false, degraded: false };
    const text = formatReport({ ...report, degradation: { ...report.degradation, readings, trend } });
    expect(text).toContain('capacity: 5000 plants stored, 0 refused (all 5000 sent within the 5.00 s budget); then 500 of 500 replaced\n');
    const readBack = formatReport({ ...report, capacity: { ...(report.capacity as NonNullable<Report['capacity']>), readBack: 45 } });
    expect(readBack).toContain('then 500 of 500 replaced; 45 stored plants read back (resource-available)\n');
    expect(text).toContain('connections: 1375 opened for one request each (Connection: close), besides the kept-alive ones');
    expect(text).toContain('response times: median 0.80 ms, p99 4.0 ms, slowest 20 ms (bound 1000 ms)');
    expect(text).toContain('canary: 0.40 ms at first, 0.40 ms at last (12 readings, Mann–Kendall z = -0.50)');
    const budgeted = formatReport({ ...report, capacity: { ...(report.capacity as NonNullable<Report['capacity']>), sent: 2100, stored: 2100, budgetHit: true, stores: false }, responseTimes: { ...report.responseTimes, maxResponseTimeMs: 300, unconfirmed: 2 } });
    expect(budgeted).toContain('capacity: 2100 plants answered (a mock stores nothing), 0 refused (the 5.00 s budget ran out after 2100 of 5000)');
    expect(budgeted).toContain('2 over it during the run but not when replayed alone');
    expect(budgeted).toContain('--runs 1000 --max-response-time 300 --seed 42');
    const without: Report = { ...report };
    Reflect.deleteProperty(without, 'capacity');
    expect(formatReport(without)).toContain('--runs 1000 --capacity 0 --seed 42');
  });

  it('asks about the token when every valid request got 401', () => {
    const refused: Report = {
      ...report,
      checks: { ...report.checks, 'accepts-valid': { requests: 500, failures: 500, warnings: 0 } },
      failures: [{ ...(report.failures[0] as Report['failures'][number]), check: 'accepts-valid', response: { kind: 'response', status: 401, headers: {}, body: '{}', bodyBytes: 2, durationMs: 1 } }],
    };
    expect(formatReport(refused)).toContain('Every valid request got 401: is --token a token the implementation accepts?');
    expect(formatReport(report)).not.toContain('is --token');
  });

  it('writes JUnit XML with a test case per check, escaped, without characters XML cannot carry', () => {
    const xml = toJUnit(report);
    expect(xml).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?>\n<testsuites name="plant-store conform" tests="${CHECK_NAMES.length}" failures="1" errors="0"`));
    expect(xml.match(/<testcase /g)).toHaveLength(CHECK_NAMES.length);
    expect(xml).toContain('<failure message="name was sent as &quot;a\\u0000&lt;b&gt;&quot; but came back as &quot;a&quot;" type="echo">');
    // eslint-disable-next-line no-control-regex -- the point: none of them may appear
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).toContain('<property name="seed" value="42"/>');
  });

  it('prints warnings after failures, passes a run with warnings only, and fails it under strict', () => {
    const text = formatReport(warned);
    expect(text).toMatch(/^accepts-valid\s+500\s+0\s+2\s+warning$/m);
    expect(text).toContain('WARNING accepts-valid: valid request (a lone surrogate) got 400');
    expect(text).toContain('a coverage request, sent in every run');
    expect(text).toMatch(/The target kept the contract \(seed 42; [\d.]+ s\)\. 1 warning \(accepts-valid\): hazards the contract allows\.$/);
    expect(formatReport(warned, { strict: true })).toMatch(/The target broke the contract: accepts-valid .*failing the run under --strict/);
  });

  it('writes a warning to the system-out of its case in JUnit, and as a failure under strict', () => {
    const xml = toJUnit(warned);
    expect(xml).toContain('failures="0"');
    expect(xml).toMatch(/<testcase classname="plant-store.conform" name="accepts-valid" time="0">\n {6}<system-out>WARNING accepts-valid/);
    const strict = toJUnit(warned, { strict: true });
    expect(strict).toContain('failures="1"');
    expect(strict).toContain('type="accepts-valid (warning, --strict)"');
  });
});
