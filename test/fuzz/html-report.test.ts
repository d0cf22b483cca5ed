/**
 * The HTML report (fuzz/reports/html-report.ts): everything from the target escaped, every finding with
 * its curl command, the plots drawn from the run's timeline, and nothing loaded from anywhere.
 * (test/browser/html-report.test.ts opens a real run's page in Chromium.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, type CheckName } from '../../oracle/index.js';
import { toHtml } from '../../fuzz/reports/html-report.js';
import { exactText, html, markedText, render, text, trusted } from '../../fuzz/reports/html.js';
import { RunTimeline } from '../../fuzz/run/timeline.js';
import type { CheckSummary, Report, ReportedFinding } from '../../fuzz/run/record.js';
import type { Phase } from '../../oracle/types.js';

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>\u0000\u202eevil\u2066';

/** A run's timeline: steady answers through three phases, a slow tail, and canary readings. */
function timelineOf(): RunTimeline {
  const timeline = new RunTimeline();
  const phaseAt = (ms: number): Phase => (ms < 200 ? 'coverage' : ms < 1200 ? 'capacity' : 'random');
  for (let i = 0; i < 2000; i++) {
    const startedMs = i;
    timeline.add({ phase: phaseAt(startedMs), index: i, kind: 'valid', content: 'valid', credentials: 'valid', startedMs, durationMs: i % 100 === 0 ? 40 + (i % 7) : 0.4 + (i % 13) / 10, status: 200 });
  }
  for (let i = 0; i < 12; i++) timeline.addCanary({ afterExchanges: i * 150, startedMs: i * 160, phase: phaseAt(i * 160), durationMs: 0.3 + i / 100, samples: 5 });
  return timeline;
}

function checks(overrides: Partial<Record<CheckName, Partial<CheckSummary>>>): Record<CheckName, CheckSummary> {
  return Object.fromEntries(CHECK_NAMES.map((name) => [name, { requests: 2000, failures: 0, warnings: 0, ...overrides[name] }])) as Record<CheckName, CheckSummary>;
}

const echoFailure: ReportedFinding = {
  check: 'echo',
  severity: 'failure',
  message: `name was sent as "${HOSTILE}" but came back as "a"`,
  phase: 'random',
  request: { method: 'POST', url: 'http://127.0.0.1:3000/plants', kind: 'valid', variant: 'a valid body', content: 'valid', credentials: 'valid', headers: { authorization: 'Bearer <token>' }, body: '{"name":"a<b>","id":0}', bodyEncoding: 'utf8', bodyBytes: 22 },
  setup: [],
  curl: `curl -sS -i -X POST 'http://127.0.0.1:3000/plants' -H "authorization: Bearer \${TOKEN}" --data-binary '{"name":"a<b>&amp;","id":0}'`,
  response: { kind: 'response', status: 200, headers: { 'content-type': 'application/json', 'x-evil': HOSTILE }, body: `{"name":"${HOSTILE}","id":0}`, bodyBytes: 80, durationMs: 1 },
  occurrences: 3,
  reproduced: true,
  shrinks: 12,
  seed: 42,
};

const serverError: ReportedFinding = {
  ...echoFailure,
  check: 'no-server-error',
  message: 'status 500',
  phase: 'coverage',
  shrinks: 0,
  curl: "curl -sS -i -X POST 'http://127.0.0.1:3000/plants' --data-binary '{}'",
  response: { kind: 'response', status: 500, headers: { 'content-type': 'text/html' }, body: `<html>${'<p>stack frame</p>\n'.repeat(40)}</html>`, bodyBytes: 800, durationMs: 2 },
};

const degradationWarning: ReportedFinding = { check: 'degradation', severity: 'warning', message: 'the canary got slower', setup: [], occurrences: 12, reproduced: true, shrinks: 0, seed: 42 };

function reportOf(timeline: RunTimeline): Report {
  const summary = timeline.summary();
  return {
    target: 'http://127.0.0.1:3000/',
    contract: { title: 'OpenAPI Plant Store', version: '1.0.0', file: '/kit/openapi.yaml', bundled: true },
    profile: 'reference',
    seed: 42,
    runs: 1000,
    requests: 2000,
    kinds: { valid: 2000 },
    phases: { coverage: { requests: 200, startedMs: 0, durationMs: 200 }, capacity: { requests: 1000, startedMs: 200, durationMs: 1000 }, random: { requests: 800, startedMs: 1200, durationMs: 800 } },
    checkingMs: 2000,
    durationMs: 2500,
    requestsPerSecond: 1000,
    freshConnections: 250,
    responseTimes: { ...summary, boundMs: 1000, maxResponseTimeMs: 1000, factor: 10, unconfirmed: 0, slowest: timeline.slowest(12) },
    degradation: { intervalMs: 150, sends: 5, readings: timeline.canary },
    checks: checks({ echo: { failures: 3 }, 'no-server-error': { failures: 1 }, degradation: { requests: 12, warnings: 1 } }),
    failures: [serverError, echoFailure],
    warnings: [degradationWarning],
    passed: false,
  };
}

const timeline = timelineOf();
const report = reportOf(timeline);
const page = toHtml(report);

/** The names of the elements of a page (a script or an image would be among them). */
function elementNames(source: string): Set<string> {
  return new Set([...source.matchAll(/<\/?([A-Za-z][\w-]*)/g)].map((m) => (m[1] ?? '').toLowerCase()));
}

function count(source: string, needle: string): number {
  return source.split(needle).length - 1;
}

describe('html: text from a target can only be text', () => {
  it('escapes markup, and writes invisible and reordering characters as escapes, marked in element content', () => {
    expect(render(text(HOSTILE))).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;\\u0000\\u202eevil\\u2066');
    expect(render(markedText(HOSTILE))).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;<span class="esc" title="U+0000">\\u0000</span><span class="esc" title="U+202E">\\u202e</span>evil<span class="esc" title="U+2066">\\u2066</span>',
    );
    expect(render(text('\ud800 \udfff 🌱 é\t\n\u0085'))).toBe('\\ud800 \\udfff 🌱 é\t\n\\u0085');
  });

  it('keeps a command exact: only the markup characters change', () => {
    expect(render(exactText(`a'b"c<d>&e \u202e\u0085`))).toBe('a&#39;b&quot;c&lt;d&gt;&amp;e \u202e\u0085');
    // But for what HTML cannot carry at all.
    expect(render(exactText('\u0000\ud800'))).toBe('\\u0000\\ud800');
  });

  it('the template escapes what is put into it, and inserts only markup it built as markup', () => {
    const name = '<b>';
    expect(render(html`<p title="${name}">${name}${[html`<i>${1}</i>`]}${undefined}${false}${trusted('<br>')}</p>`)).toBe('<p title="&lt;b&gt;">&lt;b&gt;<i>1</i><br></p>');
  });

  it('for any text a target sends, the page holds no element and no invisible character more than a plain page', () => {
    const plain = elementNames(page);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (hostile) => {
        const answered: Report = { ...report, failures: [{ ...echoFailure, message: hostile, response: { kind: 'response', status: 200, headers: { [hostile.replace(/[^a-z]/g, '') || 'x']: hostile }, body: hostile, bodyBytes: hostile.length, durationMs: 1 } }] };
        const out = toHtml(answered);
        for (const name of elementNames(out)) expect(plain, `<${name}> in the page`).toContain(name);
        // eslint-disable-next-line no-control-regex -- the point: none of them may reach the page
        expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }),
      { numRuns: 100 },
    );
  });
});

describe('toHtml', () => {
  it('is one page that loads nothing: no script, no external resource, links only within the page', () => {
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`);
    for (const element of ['script', 'img', 'link', 'iframe', 'object', 'embed', 'image', 'use', 'foreignobject']) expect(elementNames(page)).not.toContain(element);
    // No tag loads anything or runs anything (the escaped "<img src=x onerror=...>" of a body is text, not a tag).
    for (const [tag] of page.matchAll(/<[A-Za-z][^>]*>/g)) expect(tag).not.toMatch(/\s(src|srcset|action|formaction|xlink:href|on\w+)=/i);
    expect(page).not.toMatch(/url\(|@import/i);
    const links = [...page.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^#[\w-]+$/);
    // URLs appear as text only (the target's, the requests'), never inside an attribute.
    for (const [, value] of page.matchAll(/\b[\w-]+="([^"]*)"/g)) expect(value).not.toMatch(/https?:/);
  });

  it('escapes a target URL in the title, the heading and the replay command', () => {
    const out = toHtml({ ...report, target: `http://h/${HOSTILE}` });
    expect(out).toContain('<title>Broken: plant-store conform of http://h/&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;\\u0000\\u202eevil\\u2066 (seed 42)</title>');
    expect(elementNames(out)).toEqual(elementNames(page));
    // eslint-disable-next-line no-control-regex -- the point: NUL cannot reach the page
    expect(out).not.toMatch(/\u0000/);
  });

  it('names a contract other than the kit\'s own with its file, and replays the run with it', () => {
    const out = toHtml({ ...report, contract: { title: 'Orchard', version: '0.3.0', file: '/srv/orchard.yaml', bundled: false } });
    expect(out).toContain('<dt>Contract</dt><dd>Orchard 0.3.0 (/srv/orchard.yaml)</dd>');
    expect(out).toContain('<pre class="command"><code>plant-store conform --base-url http://127.0.0.1:3000 --token &quot;$TOKEN&quot; --contract /srv/orchard.yaml --runs 1000 --capacity 0 --seed 42</code></pre>');
  });

  it('says in the check\'s row that it does not apply and why; "not exercised" where it could apply', () => {
    const out = toHtml({ ...report, checks: checks({ 'resource-available': { requests: 0, notApplicable: 'the contract declares no read linked from a create' }, 'replacement-visible': { requests: 0 } }) });
    expect(out).toMatch(/<th scope="row"><code>resource-available<\/code><\/th><td>[^<]*<\/td><td class="n">0<\/td><td class="n">0<\/td><td class="n">0<\/td><td>does not apply: the contract declares no read linked from a create<\/td><\/tr>/);
    expect(out).toMatch(/<th scope="row"><code>replacement-visible<\/code><\/th><td>[^<]*<\/td><td class="n">0<\/td><td class="n">0<\/td><td class="n">0<\/td><td>not exercised<\/td><\/tr>/);
  });

  it('says the verdict, the target, the seed and the command that replays the run', () => {
    expect(page).toContain('<title>Broken: plant-store conform of http://127.0.0.1:3000/ (seed 42)</title>');
    expect(page).toContain('<p class="verdict verdict-broken" role="status"><strong>The target broke the contract</strong>: no-server-error, echo. 1 warning (degradation): hazards the contract allows.</p>');
    expect(page).toContain('<dt>Seed</dt><dd>42</dd>');
    expect(page).toContain('<pre class="command"><code>plant-store conform --base-url http://127.0.0.1:3000 --token &quot;$TOKEN&quot; --runs 1000 --capacity 0 --seed 42</code></pre>');
  });

  it('has a row per check with its counts, linking to its finding', () => {
    const rows = [...page.matchAll(/<tr class="(failed|warned|held)"><th scope="row"><code>([\w-]+)<\/code><\/th><td>[^<]*<\/td><td class="n">(\d+)<\/td><td class="n">(\d+)<\/td><td class="n">(\d+)<\/td><td>(.*?)<\/td><\/tr>/g)];
    expect(rows.map((r) => r[2])).toEqual(CHECK_NAMES);
    const row = (name: string) => rows.find((r) => r[2] === name)?.slice(1);
    expect(row('echo')).toEqual(['failed', 'echo', '2000', '3', '0', '<a href="#failure-echo">FAILED</a>']);
    expect(row('degradation')).toEqual(['warned', 'degradation', '12', '0', '1', '<a href="#warning-degradation">warning</a>']);
    expect(row('status-declared')).toEqual(['held', 'status-declared', '2000', '0', '0', 'ok']);
  });

  it('shows every failure and warning with its request, response and curl command', () => {
    for (const finding of [...report.failures, ...report.warnings]) expect(page).toContain(`<article class="finding ${finding.severity}" id="${finding.severity}-${finding.check}"`);
    for (const finding of report.failures) expect(page).toContain(`<pre class="command"><code>${render(exactText(finding.curl ?? ''))}</code></pre>`);
    expect(page).toContain('valid request (a valid body), shrunk in 12 steps; 3 of 2000 requests broke echo.');
    expect(page).toContain('valid request (a valid body), a coverage request, sent in every run; 3 of 2000 requests broke no-server-error.');
    expect(page).toContain('Found in the run as a whole (12 of 2000 requests warned of degradation, looked at together).');
    expect(page).toContain('<p><strong>HTTP 500</strong> after 2.0 ms</p>');
    expect(page).toContain('<th scope="row">x-evil</th><td>&lt;script&gt;');
    expect(page.indexOf('id="failure-no-server-error"')).toBeLessThan(page.indexOf('id="warning-degradation"'));
  });

  it('says how often each finding\'s request showed it again when replayed alone, and nothing for one about the whole run', () => {
    const replayed = toHtml({ ...report, failures: [{ ...echoFailure, replays: { reproduced: 3, of: 3 } }, { ...serverError, occurrences: 1, replays: { reproduced: 0, of: 3 } }] });
    expect(replayed).toContain('<p class="replays">Replayed alone: reproduced 3 of 3.</p>');
    expect(replayed).toContain('<p class="replays">Replayed alone: seen once (reproduced 0 of 3 replays).</p>');
    expect(replayed.match(/class="replays"/g)).toHaveLength(2);
  });

  it('folds long bodies into <details>, short ones stay open', () => {
    expect(page).toMatch(/<details><summary>response body, 800 bytes<\/summary><pre>&lt;html&gt;&lt;p&gt;stack frame/);
    expect(page).toContain('<p class="how">request body, 22 bytes</p><pre>{&quot;name&quot;:&quot;a&lt;b&gt;&quot;,&quot;id&quot;:0}</pre>');
  });

  it('draws the histogram as a bar per bucket, the median and the p99 marked', () => {
    const histogram = /<svg class="plot" id="histogram" role="img"[^]*?<\/svg>/.exec(page)?.[0] ?? '';
    expect(count(histogram, '<rect class="bar"')).toBe(report.responseTimes.histogram.length);
    expect(report.responseTimes.histogram.length).toBeGreaterThan(5);
    expect(histogram).toContain('<title id="histogram-title">Response times: how many answers took how long</title>');
    expect(count(histogram, '<g class="marker marker-')).toBe(2);
    // The slow tail (40 to 46 ms) is drawn right of the bulk (0.4 to 1.6 ms): a logarithmic axis.
    const bars = [...histogram.matchAll(/<rect class="bar" x="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(bars).toEqual([...bars].sort((a, b) => a - b));
  });

  it('draws latency over the run: a point per window for the median and the p99, the canary, the phases behind', () => {
    const latency = /<svg class="plot" id="latency" role="img"[^]*?<\/svg>/.exec(page)?.[0] ?? '';
    const windows = report.responseTimes.windows.filter((w) => w.responses > 0).length;
    expect(windows).toBeGreaterThan(10);
    expect(count(latency, '<circle class="point median"')).toBe(windows + 1); // one in the legend
    expect(count(latency, '<rect class="point p99"')).toBe(windows + 1);
    expect(count(latency, '<path class="point canary"')).toBe(report.degradation.readings.length + 1);
    expect([...latency.matchAll(/data-phase="(\w+)"/g)].map((m) => m[1])).toEqual(['coverage', 'capacity', 'random']);
    expect(count(latency, '<polyline class="line median"')).toBe(1);
  });

  it('plots nothing for a run without answers, and says so', () => {
    const empty = new RunTimeline();
    const out = toHtml({ ...reportOf(empty), failures: [], warnings: [], checks: checks({}), passed: true });
    expect(out).not.toContain('<svg');
    expect(out).toContain('No answer was timed: nothing to plot.');
    expect(out).toContain('<p class="verdict verdict-kept" role="status"><strong>The target kept the contract.</strong></p>');
  });

  it('has a row per operation where the run has them, its texts escaped; no operations table for a report without them', () => {
    const operations = [
      { operation: `listPlants (GET /plants/${HOSTILE})`, requests: 7, checks: { 'status-declared': 7 }, notApplicable: [{ checks: ['echo' as const], reason: 'no exchange of this operation was one it judges' }], notChecked: ["the 200 answer's application/xml body is not checked (no codec reads it)"] },
      { operation: 'deletePlant (DELETE /plants/{id})', requests: 0, checks: {}, notApplicable: [], notChecked: [], notTested: 'no credentials for basicAuth' },
    ];
    const withRows = toHtml({ ...report, operations });
    const table = withRows.slice(withRows.indexOf('<table class="operations">'), withRows.indexOf('</table>', withRows.indexOf('<table class="operations">')));
    expect(table.match(/<tr class="/g)).toHaveLength(2);
    expect(table).toContain('<td class="n">7</td>');
    expect(table).toContain('not tested: no credentials for basicAuth');
    expect(table).toContain('application/xml body is not checked');
    expect(table).not.toContain('<script>');
    expect(page).not.toContain('id="operations"');
  });

  it('keeps a run with warnings only, and breaks it under strict', () => {
    const warned: Report = { ...report, failures: [], checks: checks({ degradation: { requests: 12, warnings: 1 } }), passed: true };
    expect(toHtml(warned)).toContain('<p class="verdict verdict-warned" role="status"><strong>The target kept the contract.</strong> 1 warning (degradation): hazards the contract allows.</p>');
    expect(toHtml(warned, { strict: true })).toContain('<strong>The target broke the contract</strong>: degradation. 1 warning (degradation): hazards the contract allows, failing the run under --strict.');
  });
});
