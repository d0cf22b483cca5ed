/**
 * Reading the kit's Markdown pages as data for the docs test: the first column of a page's tables
 * (options, exit codes, check names), its relative links, its headings' anchors. Only what the
 * pages use: GitHub-flavoured tables, inline links, ATX headings, fenced code blocks.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The page without fenced code blocks and HTML comments: examples and notes, not what the page documents. */
export function prose(markdown: string): string {
  return markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The cells of one table row, `\|` kept inside a cell. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The first cells of the body rows of every table whose header starts with the cell `header` (case-insensitive). */
export function firstColumn(markdown: string, header: string): string[] {
  const lines = prose(markdown).split('\n');
  const found: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i] ?? '';
    const rule = lines[i + 1] ?? '';
    if (!head.trimStart().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(rule)) continue;
    const first = cells(head)[0] ?? '';
    let j = i + 2;
    for (; j < lines.length && (lines[j] ?? '').trimStart().startsWith('|'); j++) {
      if (first.toLowerCase() === header.toLowerCase()) found.push(cells(lines[j] ?? '')[0] ?? '');
    }
    i = j - 1;
  }
  return found;
}

/** The option flags (`--name`) in the first column of the page's `option` tables. */
export function documentedOptions(markdown: string): Set<string> {
  const flags = new Set<string>();
  for (const cell of firstColumn(markdown, 'option')) {
    for (const [code] of cell.matchAll(/`[^`]*`/g)) for (const [flag] of code.matchAll(/--[a-z0-9][a-z0-9-]*/g)) flags.add(flag);
  }
  return flags;
}

/** The exit codes in the first column of the page's `exit code` tables (`2` or `**2**`). */
export function documentedExitCodes(markdown: string): Set<number> {
  const codes = new Set<number>();
  for (const cell of firstColumn(markdown, 'exit code')) {
    const match = /^\**(\d+)\**$/.exec(cell);
    if (match) codes.add(Number(match[1]));
  }
  return codes;
}

/** The names written as code (`name`) in the first column of the page's tables headed `header`. */
export function documentedNames(markdown: string, header: string): Set<string> {
  const names = new Set<string>();
  for (const cell of firstColumn(markdown, header)) {
    const match = /^`([^`]+)`$/.exec(cell);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}

/** What `expected` holds that `documented` does not, in `expected`'s order. */
export function missing<T>(expected: Iterable<T>, documented: ReadonlySet<T>): T[] {
  return [...expected].filter((item) => !documented.has(item));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of the page's headings, a repeated heading numbered as GitHub numbers it (`-1`, `-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text = ''] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(text.trim());
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of the page's inline links that stay in the repository (no scheme): `file`, `file#anchor`, `#anchor`. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const [, target = ''] of prose(markdown).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
  }
  return links;
}

/**
 * The relative links of `file` (a path under `root`) that lead nowhere: to a file that does not
 * exist, or to an anchor its Markdown page does not have.
 */
export function brokenLinks(root: string, file: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [path = '', anchor] = link.split('#', 2);
    if (path === '') {
      if (anchor !== undefined && !headingAnchors(markdown).has(anchor)) broken.push(link);
      continue;
    }
    const target = join(root, dirname(file), decodeURIComponent(path));
    if (relative(root, target).startsWith('..') || !existsSync(target)) {
      broken.push(link);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && statSync(target).isFile() && !headingAnchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(link);
  }
  return broken;
}

/** Top-level folders of the repository: a code span starting with one of them names a path in it. */
const FOLDERS = ['src', 'test', 'oracle', 'fuzz', 'mock', 'contracts', 'api', 'cli', 'bench', 'docs', 'examples', 'bin', '.ci'];
/** Paths that exist only once something has run (generated, gitignored). */
const GENERATED = ['contracts/pacts', 'bench/results'];

/** The repository paths the page names in code spans (`src/http/gate.ts`, `test/mock/`), patterns such as `test/<area>/` left out. */
export function codePaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const [, span = ''] of prose(markdown).matchAll(/`([^`\n]+)`/g)) {
    if (!/^[\w.-]+\/[\w./-]*$/.test(span) || !FOLDERS.includes(span.split('/', 1)[0] ?? '')) continue;
    if (!GENERATED.some((prefix) => span.startsWith(prefix))) paths.push(span);
  }
  return paths;
}

/** The paths named in code spans of the page that the repository does not have (a file moved, renamed or removed). */
export function missingPaths(root: string, markdown: string): string[] {
  return codePaths(markdown).filter((path) => !existsSync(join(root, path)));
}
