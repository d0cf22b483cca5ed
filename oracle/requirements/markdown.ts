/**
 * The map as pages: docs/http-map.md, the introduction and a line per RFC, and a page per RFC
 * (docs/http-map-9110.md...) with its table, rows in the order of their sections: every Markdown
 * page of the repository stays under 30,000 bytes, and the map has a row for each requirement of
 * five RFCs. `npm run docs:map` writes them; test/requirements/map.test.ts holds them to the rows.
 */
import { isTested, RFCS, type Requirement, type Rfc, type TestedRequirement } from './requirement.js';

const TITLES: Readonly<Record<Rfc, string>> = {
  'RFC 9110': 'RFC 9110: HTTP semantics',
  'RFC 9112': 'RFC 9112: HTTP/1.1',
  'RFC 3986': 'RFC 3986: URIs',
  'RFC 8259': 'RFC 8259: JSON',
  'RFC 6750': 'RFC 6750: bearer tokens',
};

const GENERATED = '<!-- Generated from oracle/requirements/ by `npm run docs:map`: edit the rows there, not this page. -->';

const INTRODUCTION = `# The HTTP map

${GENERATED}

What HTTP (RFC 9110, RFC 9112), URIs (RFC 3986), JSON (RFC 8259) and bearer authentication
(RFC 6750, section 3) demand of a **server** and of its answers, a row per requirement, and how
\`plant-store conform\` tests each. The rows are data in \`oracle/requirements/\`; these pages are
generated from them, a table per RFC (below), and a test holds them to the rows and each row to
its check, its requests and its proof.

How to read a row:

- **id**: stable, \`<rfc>-<section>-<name>\`;
- **requirement**: what the RFC says, with its MUST or SHOULD;
- **provoked by**: the requests the engine sends for it (their tags in \`code\`), or "every answer"
  for a rule on what a sender writes;
- **judged by**: the check that reads the answer (\`--checks\` names it), **failure** or **warning**,
  and what it demands;
- **proven by**: the faulty implementations in \`test/faulty/\` that break the requirement and that
  the check catches; or, for a requirement no request from outside can observe, why it is untestable.

A breach that costs a client nothing and that common frameworks make is a **warning**, with its
reason in the row: it fails the run only under \`--strict\` (the policy, and the list of decisions:
[Warnings, not failures](conform.md#warnings-not-failures)). Every other breach is a failure.
`;

/** Dotted section numbers in numeric order: 5.6.7 before 5.10, 9 before 10. */
function compareSections(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? -1) - (right[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

function provoked(row: TestedRequirement): string {
  return row.provoke.tags.length === 0 ? row.provoke.how : `${row.provoke.how} (${row.provoke.tags.map((tag) => `\`${tag}\``).join(', ')})`;
}

function judged(row: TestedRequirement): string {
  const why = row.judge.why === undefined ? '' : `; why a warning: ${row.judge.why}`;
  return `\`${row.judge.check}\`, **${row.judge.severity}**: ${row.judge.how}${why}`;
}

function rowLine(row: Requirement): string {
  const head = [`\`${row.id}\``, row.section, row.says];
  const rest = isTested(row) ? [provoked(row), judged(row), row.faults.map((fault) => `\`${fault}\``).join(', ')] : ['—', '—', `untestable: ${row.untestable}`];
  return `| ${[...head, ...rest].map(cell).join(' | ')} |`;
}

/** The page of an RFC's rows, relative to the repository. */
export function mapPageOf(rfc: Rfc): string {
  return `docs/http-map-${rfc.slice(4)}.md`;
}

function table(rfc: Rfc, rows: readonly Requirement[]): string {
  const sorted = [...rows].sort((a, b) => compareSections(a.section, b.section) || a.id.localeCompare(b.id));
  return [
    `# The HTTP map: ${TITLES[rfc]}`,
    '',
    GENERATED,
    '',
    `What ${rfc} demands of a server, a row per requirement: how to read a row, and the warning policy, are on [the map's first page](http-map.md).`,
    '',
    '| id | § | requirement | provoked by | judged by | proven by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...sorted.map(rowLine),
    '',
  ].join('\n');
}

function summaryLine(rfc: Rfc, rows: readonly Requirement[]): string {
  const tested = rows.filter(isTested);
  const warnings = tested.filter((row) => row.judge.severity === 'warning').length;
  return `| [${TITLES[rfc]}](${mapPageOf(rfc).slice('docs/'.length)}) | ${rows.length} | ${tested.length} | ${warnings} | ${rows.length - tested.length} |`;
}

/** The map's pages for these rows: path (from the repository's root) to content; an RFC without rows has no page. */
export function renderHttpMap(rows: readonly Requirement[]): ReadonlyMap<string, string> {
  const rfcs = RFCS.filter((rfc) => rows.some((row) => row.rfc === rfc));
  const summary = ['| RFC | requirements | tested | warnings | untestable |', '| --- | --- | --- | --- | --- |', ...rfcs.map((rfc) => summaryLine(rfc, rows.filter((row) => row.rfc === rfc)))].join('\n');
  const pages = new Map<string, string>([['docs/http-map.md', `${INTRODUCTION}\n## The RFCs\n\n${summary}\n`]]);
  for (const rfc of rfcs) pages.set(mapPageOf(rfc), table(rfc, rows.filter((row) => row.rfc === rfc)));
  return pages;
}
