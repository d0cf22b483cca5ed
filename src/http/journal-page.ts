/**
 * The request journal's live page (`GET /__plant-store/`): one HTML document with its style and
 * script inline - no external asset, so it works offline and from any server that keeps a
 * journal. It polls `GET /__plant-store/requests?after=<last id>` every second and lists each
 * request, newest first, with its verdict and the answer; a row opens to its headers and bodies.
 * The same page serves the kit's servers (the pipeline's verdicts) and the checking proxy (its
 * verdicts: the findings on the upstream's answer).
 *
 * Everything a request brought is written with `textContent`/`append`, never as HTML, and the
 * Content-Security-Policy allows only this page's own script and style (by hash) and requests to
 * its own origin: a request body cannot run script on the page.
 */
import { sha256Base64 } from './sha256.js';

const STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --muted: #6e7781; --line: #d0d7de80; --soft: #8c959f1a; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; }
header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: Canvas; }
h1 { font-size: 1rem; margin: 0; }
#status { color: var(--muted); font-size: .85em; margin-right: auto; }
button { font: inherit; padding: .2rem .8rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .75em; text-transform: uppercase; letter-spacing: .04em; }
tr.entry { cursor: pointer; }
tr.entry:hover, tr.open { background: var(--soft); }
code, pre, .mono { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.accepted { color: var(--ok); }
.refused, .defect, .violated { color: var(--bad); }
.warned { color: #9a6700; }
.preflight, .muted { color: var(--muted); }
.message { display: block; color: var(--muted); font-size: .9em; }
.unsent { text-decoration: line-through; color: var(--muted); }
.badge { display: inline-block; margin-left: .4em; padding: 0 .4em; border: 1px solid currentColor; border-radius: 3px; font-size: .8em; }
.fault { color: var(--bad); }
tr.details > td { background: var(--soft); }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5rem; }
h2 { font-size: .8em; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: .5rem 0 .2rem; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0 0 .5rem; max-height: 24rem; overflow: auto; }
#empty { padding: 2rem 1rem; color: var(--muted); }
`;

const SCRIPT = `
'use strict';
const API = '/__plant-store/requests';
const rows = new Map();
const list = document.getElementById('entries');
const status = document.getElementById('status');
const empty = document.getElementById('empty');
const pause = document.getElementById('pause');
let last = 0;

function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

function verdictCell(verdict) {
  switch (verdict.outcome) {
    case 'accepted': return el('td', 'accepted', 'accepted');
    case 'preflight': return el('td', 'preflight', 'CORS preflight, granted');
    case 'refused': return el('td', 'refused', 'refused by ' + verdict.rule + ': ' + verdict.status + ' ' + verdict.code, el('span', 'message', verdict.message));
    case 'defect': return el('td', 'defect', 'defect of the kit: ' + verdict.status, el('span', 'message', verdict.message));
    // The checking proxy's verdicts: the engine's findings on the upstream's answer.
    case 'passed': return el('td', 'accepted', 'passed ' + verdict.judgedBy.length + ' checks');
    case 'warned':
    case 'violated': return el('td', verdict.outcome, verdict.outcome + ': ' + [...new Set(verdict.findings.map((f) => f.check))].join(', '),
      ...verdict.findings.map((f) => el('span', 'message', f.check + (f.severity === 'warning' ? ' (warning)' : '') + ': ' + f.message)));
    case 'not-judged': return el('td', 'preflight', 'not judged', el('span', 'message', verdict.reason));
    default: {
      const { outcome, ...rest } = verdict;
      return el('td', '', String(outcome), el('span', 'message mono', JSON.stringify(rest)));
    }
  }
}

function answerCell(answer) {
  const unsent = answer.fault === 'reset' || answer.fault === 'timeout' || answer.fault === 'garbage';
  const cell = el('td', '', el('span', unsent ? 'unsent' : '', String(answer.status)));
  if (answer.fault) cell.append(el('span', 'badge fault', 'fault=' + answer.fault));
  if (answer.delayMs) cell.append(el('span', 'badge', 'delay ' + answer.delayMs + ' ms'));
  return cell;
}

function answerOf(entry) {
  const cell = answerCell(entry.answer);
  const { failure, answered } = entry.verdict;
  if (failure) cell.append(el('span', 'badge fault', 'no answer: ' + failure));
  if (answered) cell.append(el('span', 'badge fault', 'answered ' + answered));
  return cell;
}

function headerText(headers) {
  return Object.entries(headers).map(([name, value]) => name + ': ' + value).join('\\n') || '(none)';
}

function bodyText(body) {
  if (body === null) return '(not read: the request was refused on its head, before its body)';
  const shown = 'base64' in body ? '(' + body.bytes + ' bytes, not UTF-8, in base64)\\n' + body.base64 : body.text;
  return (shown === '' ? '(empty)' : shown) + (body.truncated ? '\\n… (cut; ' + body.bytes + ' bytes in all)' : '');
}

function details(entry) {
  const side = (title, headers, body) => el('div', '', el('h2', '', title + ' headers'), el('pre', '', headerText(headers)), el('h2', '', title + ' body'), el('pre', '', bodyText(body)));
  const cell = el('td', '', el('div', 'columns', side('request', entry.request.headers, entry.request.body), side('answer', entry.answer.headers, entry.answer.body)));
  cell.colSpan = 6;
  return el('tr', 'details', cell);
}

function add(entry) {
  const time = new Date(entry.time).toLocaleTimeString([], { hour12: false }) + '.' + entry.time.slice(20, 23);
  const row = el('tr', 'entry',
    el('td', 'muted', String(entry.id)),
    el('td', 'mono', time),
    el('td', 'mono', entry.request.method + ' ' + entry.request.target),
    verdictCell(entry.verdict),
    answerOf(entry),
    el('td', 'muted', entry.durationMs.toFixed(1)));
  row.dataset.id = String(entry.id);
  row.dataset.outcome = entry.verdict.outcome;
  let open = null;
  row.addEventListener('click', () => {
    if (open) { open.remove(); open = null; row.classList.remove('open'); return; }
    open = details(entry);
    row.after(open);
    row.classList.add('open');
  });
  list.prepend(row);
  rows.set(entry.id, { remove: () => { row.remove(); if (open) open.remove(); } });
}

function forget(before) {
  for (const [id, row] of rows) if (id < before) { row.remove(); rows.delete(id); }
}

async function poll() {
  try {
    const response = await fetch(API + '?after=' + last, { cache: 'no-store' });
    const journal = await response.json();
    if (!response.ok) throw new Error(journal.message);
    // A server started again counts from 1: start over.
    if (journal.next <= last) { forget(Infinity); last = 0; return poll(); }
    forget(journal.next - journal.held);
    for (const entry of journal.requests) add(entry);
    last = journal.next - 1;
    status.textContent = journal.held + ' of ' + journal.capacity + ' kept' + (journal.dropped ? ', ' + journal.dropped + ' older forgotten' : '') + ' · read ' + new Date().toLocaleTimeString([], { hour12: false });
    empty.hidden = rows.size > 0;
  } catch (error) {
    status.textContent = 'cannot read the journal: ' + (error instanceof Error ? error.message : String(error));
  }
}

async function loop() {
  if (!pause.checked) await poll();
  setTimeout(loop, 1000);
}

document.getElementById('clear').addEventListener('click', async () => {
  await fetch(API, { method: 'DELETE' });
  await poll();
});

loop();
`;

const hash = (text: string): string => `'sha256-${sha256Base64(text)}'`;

let policy: string | undefined;

/**
 * Only this page's own style and script, requests to its own origin, and no icon fetched from the
 * server (it would be journaled). Worked out when the page is first asked for, not when the
 * module loads: every command that starts loads this module, few ever serve the page.
 */
export function journalPagePolicy(): string {
  policy ??= `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return policy;
}

export const JOURNAL_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Request journal · Plant Store Kit</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Request journal</h1>
<span id="status">reading…</span>
<label><input type="checkbox" id="pause"> pause</label>
<button type="button" id="clear">Clear</button>
</header>
<table>
<thead><tr><th>#</th><th>time</th><th>request</th><th>verdict</th><th>answer</th><th>ms</th></tr></thead>
<tbody id="entries"></tbody>
</table>
<p id="empty" hidden>No requests yet: send one, and it shows here within a second. The journal as JSON: <a href="/__plant-store/requests">/__plant-store/requests</a>.</p>
<script>${SCRIPT}</script>
</body>
</html>
`;
