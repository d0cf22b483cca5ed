/**
 * The map as a page: docs/http-map.md is this rendering of REQUIREMENTS (`npm run docs:map`
 * writes it; test/requirements/map.test.ts holds the page to it). One table per RFC, rows in the
 * order of their sections.
 */
import { isTested, type Requirement, type Rfc, type TestedRequirement } from './requirement.js';

const RFC_ORDER: readonly Rfc[] = ['RFC 9110', 'RFC 9112', 'RFC 3986', 'RFC 8259', 'RFC 6750'];

const TITLES: Readonly<Record<Rfc, string>> = {
  'RFC 9110': 'RFC 9110: HTTP semantics',
  'RFC 9112': 'RFC 9112: HTTP/1.1',
  'RFC 3986': 'RFC 3986: URIs',
  'RFC 8259': 'RFC 8259: JSON',
  'RFC 6750': 'RFC 6750: bearer tokens',
};

const INTRODUCTION = `# The HTTP map

<!-- Generated from oracle/requirements/ by \`npm run docs:map\`: edit the rows there, not this page. -->

What HTTP (RFC 9110, RFC 9112), URIs (RFC 3986), JSON (RFC 8259) and bearer authentication
(RFC 6750, section 3) demand of a **server** and of its answers, a row per requirement, and how
\`plant-store conform\` tests each. The rows are data in \`oracle/requirements/\`; this page is
generated from them, and a test holds it to them.

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

function table(rfc: Rfc, rows: readonly Requirement[]): string {
  const sorted = [...rows].sort((a, b) => compareSections(a.section, b.section) || a.id.localeCompare(b.id));
  const tested = rows.filter(isTested).length;
  return [
    `## ${TITLES[rfc]}`,
    '',
    `${rows.length} ${rows.length === 1 ? 'requirement' : 'requirements'}, ${tested} tested.`,
    '',
    '| id | § | requirement | provoked by | judged by | proven by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...sorted.map(rowLine),
  ].join('\n');
}

/** docs/http-map.md for these rows. */
export function renderHttpMap(rows: readonly Requirement[]): string {
  const tables = RFC_ORDER.flatMap((rfc) => {
    const mine = rows.filter((row) => row.rfc === rfc);
    return mine.length === 0 ? [] : [table(rfc, mine)];
  });
  return `${[INTRODUCTION, ...tables].join('\n')}\n`;
}
