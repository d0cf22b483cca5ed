/**
 * A run as one self-contained HTML page, for a person who opens a CI artifact: the verdict, the
 * replay command, a row per check and per operation, each finding with its request, response and curl command, and
 * plots of the response times. Nothing is loaded from anywhere (inline CSS, inline SVG drawn
 * here, no script; a Content-Security-Policy forbids loading anything at all), so the page opens
 * offline, years later, and prints. Everything the target sent is escaped by construction (html.ts).
 */
import { CHECKS } from '../../oracle/index.js';
import { histogramPlot, latencyPlot, phasesRun, type Marker } from './html-plots.js';
import { exactText, html, markedText, render, trusted, type Html } from './html.js';
import { replayLabel } from './replay-label.js';
import { contractName, howFound, humanMs, seconds, runStatus, timeAndCapacity, tokenHint, checkStatus } from './text.js';
import type { OperationRow, Report, ReportedFinding, ReportedOutcome, ReportedRequest } from '../run/record.js';
import { replayCommand } from '../run/reported.js';

/** Bodies longer than this (or of more lines) are folded into a `<details>`. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;
/** Slowest answers listed. */
const SLOWEST_LISTED = 10;

const STYLE = trusted(`
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --fail: #b3261e; --fail-bg: #fde7e6; --warn: #8a5a00; --warn-bg: #fff4d6; --ok: #1a7f37; --ok-bg: #dcf5e3;
  --bar: #3b6fb6; --median: #1a7f37; --p99: #b3261e; --canary: #8250df; --band-a: #eef3fa; --band-b: #f8f5ee; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #161b22; --line: #30363d;
  --fail: #ff7b72; --fail-bg: #3d1715; --warn: #e3b341; --warn-bg: #332701; --ok: #56d364; --ok-bg: #0f2d19;
  --bar: #6ea8fe; --median: #56d364; --p99: #ff7b72; --canary: #c297ff; --band-a: #151c27; --band-b: #1f1b12; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 76rem; padding: 1.5rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1.1rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h4 { font-size: 1rem; margin: 1rem 0 .25rem; }
.tool { color: var(--muted); margin: 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .875rem; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; }
pre.command { user-select: all; -webkit-user-select: all; cursor: text; }
.esc { color: var(--warn); background: var(--warn-bg); border-radius: 3px; }
.verdict { font-size: 1.15rem; padding: .75rem 1rem; border-radius: 6px; border-left: 6px solid; margin: 1rem 0; }
.verdict-broken { color: var(--fail); background: var(--fail-bg); }
.verdict-kept { color: var(--ok); background: var(--ok-bg); }
.verdict-warned { color: var(--warn); background: var(--warn-bg); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
a { color: var(--bar); }
table { border-collapse: collapse; width: 100%; margin: .25rem 0; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
.wide { overflow-x: auto; }
th code { white-space: nowrap; }
@media (max-width: 60rem) { th code { white-space: normal; } }
table.checks td:nth-child(2) { width: 50%; min-width: 10rem; }
td.n, th.n, th.nowrap { white-space: nowrap; width: 1%; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
table.headers th { font-weight: normal; color: var(--muted); width: 14rem; overflow-wrap: anywhere; }
table.headers td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .875rem; overflow-wrap: anywhere; }
tr.failed td:last-child { color: var(--fail); font-weight: 600; } tr.warned td:last-child { color: var(--warn); font-weight: 600; }
.finding { border: 1px solid var(--line); border-left: 6px solid var(--fail); border-radius: 6px; padding: 1rem; margin: 1rem 0; }
.finding.warning { border-left-color: var(--warn); }
.badge { display: inline-block; font-size: .8rem; font-weight: 700; padding: 0 .4rem; border-radius: 4px; color: var(--bg); background: var(--fail); vertical-align: middle; }
.warning .badge { background: var(--warn); }
.how { color: var(--muted); margin: 0 0 .5rem; }
.exchange { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 0 1.5rem; }
details > summary { cursor: pointer; color: var(--muted); }
figure { margin: 1rem 0; } figcaption { color: var(--muted); font-size: .9rem; }
svg.plot { max-width: 100%; height: auto; display: block; font: 11px system-ui, sans-serif; }
svg.plot text { fill: var(--fg); } svg.plot .axis line { stroke: var(--muted); } svg.plot .grid { stroke: var(--line); stroke-dasharray: 2 3; }
svg.plot .axis-title { fill: var(--muted); }
svg.plot .bar { fill: var(--bar); }
svg.plot .marker line { stroke: var(--fg); stroke-dasharray: 4 3; } svg.plot .marker-1 line, svg.plot .bound line { stroke: var(--p99); }
svg.plot .phase-even { fill: var(--band-a); } svg.plot .phase-odd { fill: var(--band-b); } svg.plot .phase-name { fill: var(--muted); }
svg.plot .line { fill: none; stroke-width: 1.2; } svg.plot .line.median { stroke: var(--median); } svg.plot .line.p99 { stroke: var(--p99); }
svg.plot .point.median { fill: var(--median); } svg.plot .point.p99 { fill: var(--p99); } svg.plot .point.canary { fill: var(--canary); }
footer { margin-top: 2rem; color: var(--muted); font-size: .9rem; }
@media print {
  :root { color-scheme: light; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  nav { display: none; }
  pre { white-space: pre-wrap; }
  .finding, figure, tr { break-inside: avoid; }
  h2, h3, h4 { break-after: avoid; }
  details:not([open])::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; }
}
`);

/** Text of a body with its size; folded when long. */
function body(textOf: string, bytes: number, what: string, encoding: 'utf8' | 'base64' = 'utf8'): Html {
  if (bytes === 0) return html`<p>(empty body)</p>`;
  const label = `${what}, ${bytes} byte${bytes === 1 ? '' : 's'}${encoding === 'base64' ? ', not UTF-8: shown in base64' : ''}`;
  const block = html`<pre>${markedText(textOf)}</pre>`;
  const long = textOf.length > FOLD_CHARS || textOf.split('\n').length > FOLD_LINES;
  return long ? html`<details><summary>${label}</summary>${block}</details>` : html`<p class="how">${label}</p>${block}`;
}

function headerTable(headers: Readonly<Record<string, string>>, extra: readonly (readonly [string, string])[] = []): Html {
  const rows = [...Object.entries(headers), ...extra];
  if (rows.length === 0) return html`<p>(no header fields)</p>`;
  return html`<table class="headers"><tbody>${rows.map(([name, value]) => html`<tr><th scope="row">${markedText(name)}</th><td>${markedText(value)}</td></tr>`)}</tbody></table>`;
}

function requestBlock(request: ReportedRequest): Html {
  return html`<p><code>${request.method} ${request.url}</code></p>${headerTable(request.headers, request.extraLines)}${body(request.body, request.bodyBytes, 'request body', request.bodyEncoding)}`;
}

function responseBlock(outcome: ReportedOutcome): Html {
  if (outcome.kind === 'failure') return html`<p><strong>No response</strong>: ${outcome.failure} after ${humanMs(outcome.durationMs)}: ${markedText(outcome.message)}</p>`;
  return html`<p><strong>HTTP ${outcome.status}</strong> after ${humanMs(outcome.durationMs)}</p>${headerTable(outcome.headers)}${body(outcome.body, outcome.bodyBytes, 'response body')}`;
}

/** A command to copy: the whole of it selected by one click (no script: user-select). */
function command(textOf: string, what: string): Html {
  const block = html`<pre class="command"><code>${exactText(textOf)}</code></pre>`;
  return textOf.length > FOLD_CHARS * 4 ? html`<details><summary>${what} (${textOf.length} characters)</summary>${block}</details>` : block;
}

function findingId(finding: ReportedFinding): string {
  return `${finding.severity}-${finding.check}`;
}

const SEVERITY_WORD = { failure: 'FAILED', warning: 'WARNING' } as const;

/** How often its request showed it again alone (replay-label.ts), where it was replayed. */
function replayParagraph(finding: ReportedFinding): Html | undefined {
  const label = replayLabel(finding);
  return label === undefined ? undefined : html`<p class="replays">Replayed alone: ${label}.</p>`;
}

function findingArticle(finding: ReportedFinding, report: Report): Html {
  const id = findingId(finding);
  const times = `${finding.occurrences} of ${report.requests} requests ${finding.severity === 'failure' ? 'broke' : 'warned of'} ${finding.check}`;
  const head = html`<h3 id="${id}-title"><span class="badge">${SEVERITY_WORD[finding.severity]}</span> <code>${finding.check}</code>: ${markedText(finding.message)}</h3>`;
  const { request, curl, response } = finding;
  if (request === undefined || curl === undefined || response === undefined) {
    return html`<article class="finding ${finding.severity}" id="${id}" aria-labelledby="${id}-title">${head}<p class="how">Found in the run as a whole (${times}, looked at together). Replay the run to see it again.</p></article>`;
  }
  const kind = `${request.kind} request${request.variant ? ` (${request.variant})` : ''}`;
  const setup =
    finding.setup.length === 0
      ? undefined
      : html`<details><summary>Sent before it in the same case: ${finding.setup.length} request${finding.setup.length === 1 ? '' : 's'}</summary>${finding.setup.map(requestBlock)}</details>`;
  return html`<article class="finding ${finding.severity}" id="${id}" aria-labelledby="${id}-title">${head}
<p class="how">${kind}, ${howFound(finding)}; ${times}${finding.fresh === true ? '; sent on a connection of its own' : ''}.</p>${replayParagraph(finding)}
<h4>As a curl command</h4>${command(curl, 'curl command')}${setup}
<div class="exchange"><section><h4>Request</h4>${requestBlock(request)}</section><section><h4>Response</h4>${responseBlock(response)}</section></div>
</article>`;
}

function checksTable(report: Report): Html {
  const findings = new Map([...report.failures, ...report.warnings].map((f) => [f.check, f]));
  const rows = CHECKS.map(({ name, description }) => {
    const { requests, failures, warnings, notApplicable } = report.checks[name];
    const verdict = checkStatus(report.checks[name]);
    const finding = findings.get(name);
    const cell = finding !== undefined ? html`<a href="#${findingId(finding)}">${verdict}</a>` : notApplicable === undefined ? html`${verdict}` : html`${verdict}: ${notApplicable}`;
    return html`<tr class="${failures > 0 ? 'failed' : warnings > 0 ? 'warned' : 'held'}"><th scope="row"><code>${name}</code></th><td>${description}</td><td class="n">${requests}</td><td class="n">${failures}</td><td class="n">${warnings}</td><td>${cell}</td></tr>`;
  });
  return html`<div class="wide"><table class="checks"><caption class="how">Every check of the run: the requests it judged and what it found.</caption><thead><tr><th scope="col">check</th><th scope="col">holds when</th><th scope="col" class="n">requests</th><th scope="col" class="n">failures</th><th scope="col" class="n">warnings</th><th scope="col" class="nowrap">verdict</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A row per operation (report.operations): requests, the checks that judged them, the ones that did not and why, what was not checked or not tested. */
function operationsTable(rows: readonly OperationRow[]): Html {
  const body = rows.map((row) => {
    const applied = Object.entries(row.checks).map(([name, judged]) => `${name} ${judged}`);
    const notApplicable = row.notApplicable.map(({ checks, reason }) => html`<li>${checks.join(', ')}: ${reason}</li>`);
    const notChecked = [...row.notChecked, ...(row.notTested === undefined ? [] : [`not tested: ${row.notTested}`])];
    return html`<tr class="${row.notTested === undefined && row.notChecked.length === 0 ? 'held' : 'warned'}"><th scope="row"><code>${row.operation}</code></th><td class="n">${row.requests}</td><td>${applied.length === 0 ? 'none' : html`<details><summary>${applied.length} checks</summary>${applied.join(', ')}</details>`}</td><td>${notApplicable.length === 0 ? 'none' : html`<details><summary>${row.notApplicable.reduce((n, group) => n + group.checks.length, 0)} checks</summary><ul>${notApplicable}</ul></details>`}</td><td>${notChecked.length === 0 ? 'nothing' : html`<ul>${notChecked.map((line) => html`<li>${line}</li>`)}</ul>`}</td></tr>`;
  });
  return html`<div class="wide"><table class="operations"><caption class="how">Every operation of the contract: the requests sent to it, the checks that judged them (requests judged), the ones that did not and why, and what the run could not check.</caption><thead><tr><th scope="col">operation</th><th scope="col" class="n">requests</th><th scope="col">checks applied</th><th scope="col">not applicable</th><th scope="col">not checked</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function verdictBlock(report: Report, strict: boolean): Html {
  const verdict = runStatus(report, strict);
  const warned = verdict.warned.length === 0 ? undefined : html` ${verdict.warned.length} warning${verdict.warned.length === 1 ? '' : 's'} (${verdict.warned.join(', ')}): hazards the contract allows${strict ? ', failing the run under --strict' : ''}.`;
  if (verdict.kept) {
    return html`<p class="verdict ${verdict.warned.length > 0 ? 'verdict-warned' : 'verdict-kept'}" role="status"><strong>The target kept the contract.</strong>${warned}</p>`;
  }
  const broken = verdict.broken.length > 0 ? html`: ${verdict.broken.join(', ')}` : undefined;
  const stopped = report.stoppedEarly === undefined ? undefined : html` The run stopped early: ${report.stoppedEarly}.`;
  return html`<p class="verdict verdict-broken" role="status"><strong>The target broke the contract</strong>${broken}.${warned}${stopped}</p>`;
}

function factsList(report: Report): Html {
  const phases = phasesRun(report.phases).map(({ phase }) => `${phase} ${report.phases[phase]?.requests ?? 0}`);
  const facts: [string, Html][] = [
    ['Contract', html`${contractName(report.contract)}`],
    ['Target', html`<code>${report.target}</code>`],
    ['Profile', html`${report.profile}`],
    ['Seed', html`${report.seed}`],
    ['Requests', html`${report.requests} in ${seconds(report.checkingMs)} (${Math.round(report.requestsPerSecond)} requests/s; ${phases.join(', ')})`],
    ['Run time', html`${seconds(report.durationMs)}, shrinking included`],
  ];
  return html`<dl class="facts">${facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}

function findingsSection(id: string, title: string, findings: readonly ReportedFinding[], report: Report): Html | undefined {
  if (findings.length === 0) return undefined;
  return html`<section id="${id}" aria-labelledby="${id}-heading"><h2 id="${id}-heading">${title} (${findings.length})</h2>${findings.map((f) => findingArticle(f, report))}</section>`;
}

function slowestTable(report: Report): Html | undefined {
  const slowest = report.responseTimes.slowest.slice(0, SLOWEST_LISTED);
  if (slowest.length === 0) return undefined;
  const rows = slowest.map(
    (e) =>
      html`<tr><td class="n">${humanMs(e.durationMs)}</td><td class="n">${seconds(e.startedMs)}</td><td>${e.phase}</td><td>${e.kind}${e.variant ? `: ${e.variant}` : ''}</td><td>${typeof e.status === 'number' ? String(e.status) : e.status}${e.fresh === true ? ' (own connection)' : ''}</td></tr>`,
  );
  return html`<h3>The slowest answers</h3><div class="wide"><table><thead><tr><th scope="col" class="n">time</th><th scope="col" class="n">sent at</th><th scope="col">phase</th><th scope="col">request</th><th scope="col">status</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function timesSection(report: Report): Html {
  const times = report.responseTimes;
  const markers: Marker[] = [
    { name: 'median', ms: times.medianMs },
    { name: 'p99', ms: times.p99Ms },
  ];
  const histogram = histogramPlot(times, markers);
  const bound = { name: 'bound', ms: times.boundMs };
  const latency = latencyPlot(times, phasesRun(report.phases), report.degradation.readings, bound);
  const figures =
    histogram === undefined || latency === undefined
      ? html`<p>No answer was timed: nothing to plot.</p>`
      : html`<figure>${histogram}<figcaption>The response time of every answer of the run, in buckets 9 % wide on a logarithmic scale, with the median and the 99th percentile. Hover a bar for its count.</figcaption></figure>
<figure>${latency}<figcaption>The median and the 99th percentile of the answers completed in each ${humanMs(times.windowMs)} window of the run, the phases behind them${report.degradation.readings.length > 0 ? ', and the canary: one valid request sent alone at intervals, the fastest of its sends (what the degradation check judges)' : ''}.</figcaption></figure>`;
  return html`<section id="times" aria-labelledby="times-heading"><h2 id="times-heading">Response times and capacity</h2><ul>${timeAndCapacity(report).map((line) => html`<li>${line}</li>`)}</ul>${figures}${slowestTable(report)}</section>`;
}

/** The report as one HTML page (`strict`: warnings break the run, as under `--strict`). */
export function toHtml(report: Report, options: { strict?: boolean } = {}): string {
  const strict = options.strict === true;
  const kept = runStatus(report, strict).kept;
  const hint = tokenHint(report);
  const sections: [string, string, boolean][] = [
    ['checks', 'Checks', true],
    ['operations', 'Operations', report.operations !== undefined],
    ['failures', 'Failures', report.failures.length > 0],
    ['warnings', 'Warnings', report.warnings.length > 0],
    ['times', 'Response times', true],
  ];
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${kept ? 'Kept' : 'Broken'}: plant-store conform of ${report.target} (seed ${report.seed})</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<p class="tool">plant-store conform · conformance report</p>
<h1>${report.contract.title} at ${report.target}</h1>
${verdictBlock(report, strict)}
${hint === undefined ? undefined : html`<p class="verdict verdict-warned">${hint}</p>`}
${factsList(report)}
<h2 id="replay">Replay this run</h2>
${command(replayCommand(report), 'replay command')}
<p class="how">Commands read your token from <code>$TOKEN</code>: the report never holds it. Click a command to select all of it.</p>
<nav aria-label="Sections"><ul>${sections.filter(([, , shown]) => shown).map(([id, title]) => html`<li><a href="#${id}">${title}</a></li>`)}</ul></nav>
</header>
<main>
<section id="checks" aria-labelledby="checks-heading"><h2 id="checks-heading">Checks</h2>${checksTable(report)}</section>
${report.operations === undefined ? undefined : html`<section id="operations" aria-labelledby="operations-heading"><h2 id="operations-heading">Operations</h2>${operationsTable(report.operations)}</section>`}
${findingsSection('failures', 'Failures', report.failures, report)}
${findingsSection('warnings', 'Warnings', report.warnings, report)}
${timesSection(report)}
</main>
<footer>Written by Plant Store Kit's <code>plant-store conform --html</code>. Self-contained: it loads nothing and runs no script.</footer>
</body>
</html>
`;
  return render(page);
}
